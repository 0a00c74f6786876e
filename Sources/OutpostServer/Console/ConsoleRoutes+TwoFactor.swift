import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Two-factor sign-in in the console: the sign-in's second step (a code from the app or a
/// recovery code, with the API's challenge carried in the form), and the user's own page that
/// turns it on (their password, the secret to add to the app, its first code, the recovery codes
/// shown once). A session the organisation restricts until it is on is sent to that page.
extension ConsoleRoutes {
    func registerTwoFactor(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.signInCode, use: signInCode)
        group.on(ConsolePages.twoFactor, use: twoFactor)
        group.on(ConsolePages.enrollTwoFactor, use: enrollTwoFactor)
        group.on(ConsolePages.confirmTwoFactor, use: confirmTwoFactor)
    }

    /// The sign-in's second step: the code field, the challenge in a hidden field.
    func signInCodeForm(challenge: String, error: String?, status: HTTPResponse.Status) async throws -> Response {
        try await signedOutPage("signInCode", ["challenge": challenge], error: error, status: status)
    }

    @Sendable func signInCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        struct Form: SignedOutForm {
            var challenge: String
            var code: String
            var _csrf: String?
        }
        guard let form = try await signedOutForm(Form.self, request) else { return try await forbidden() }
        let body = try OutpostJSON.encode(SignInCodeRequest(challenge: form.challenge, code: form.code))
        let (status, data) = try await api.call(API.signInCode.line(), json: body, from: request, context: context)
        let answer = ConsoleAPI.Answer(status: status, body: data, renewed: nil)
        guard status == .ok, let pair = try? answer.decode(TokenPair.self) else {
            // A challenge that ended (or was changed) starts over with the password.
            if answer.errorCode == APIErrorCode.unauthorized.rawValue {
                return try await signInForm(email: "", error: answer.message, status: .unauthorized)
            }
            return try await signInCodeForm(
                challenge: form.challenge, error: answer.message,
                status: status == .tooManyRequests ? .tooManyRequests : .unauthorized)
        }
        return sessionStarted(pair)
    }

    /// The answer to a finished sign-in: the session cookie, and the events (or, when the
    /// organisation requires a second factor this user has not turned on, that page).
    func sessionStarted(_ pair: TokenPair) -> Response {
        let session = ConsoleSession(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken, name: pair.user.name)
        var response = Self.redirect(
            pair.twoFactorEnrollmentRequired == true ? ConsolePages.twoFactor.path() : ConsolePages.events.path())
        response.setCookie(sessionCookie(session))
        response.setCookie(cookie(ConsoleSession.preCookieName, "", maxAge: 0))
        return response
    }

    @Sendable func twoFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let status = try await call(API.twoFactor.line(), nil).decode(TwoFactorStatus.self)
            return try await page(
                "twoFactor", title: "Two-factor sign-in",
                [
                    "enabled": status.enabled, "required": status.required,
                    "recoveryCodesLeft": status.recoveryCodesLeft,
                ], session: session, notice: Self.flash(request))
        }
    }

    @Sendable func enrollTwoFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(request, context) { session, form, call in
            let body = try OutpostJSON.encode(TwoFactorEnrollRequest(password: form["password"] ?? ""))
            let answer = try await call(API.enrollTwoFactor.line(), body)
            guard answer.status == .ok, let enrollment = try? answer.decode(TwoFactorEnrollment.self) else {
                return .refused(answer, back: ConsolePages.twoFactor.path())
            }
            // The secret in groups of four, as people type it into an app.
            let grouped = stride(from: 0, to: enrollment.secret.count, by: 4).map { start -> String in
                let from = enrollment.secret.index(enrollment.secret.startIndex, offsetBy: start)
                let to = enrollment.secret.index(from, offsetBy: 4, limitedBy: enrollment.secret.endIndex)
                return String(enrollment.secret[from..<(to ?? enrollment.secret.endIndex)])
            }.joined(separator: " ")
            return .shown(
                try await page(
                    "twoFactorSetup", title: "Two-factor sign-in",
                    ["secret": grouped, "rawSecret": enrollment.secret, "uri": enrollment.uri], session: session))
        }
    }

    @Sendable func confirmTwoFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(request, context) { session, form, call in
            let body = try OutpostJSON.encode(TwoFactorConfirmRequest(code: form["code"] ?? ""))
            let answer = try await call(API.confirmTwoFactor.line(), body)
            guard answer.status == .ok, let codes = try? answer.decode(RecoveryCodes.self) else {
                return .refused(answer, back: ConsolePages.twoFactor.path())
            }
            // A session that was restricted until now is a whole one after a refresh.
            var response = try await page(
                "twoFactorCodes", title: "Two-factor sign-in", ["codes": codes.codes], session: session)
            let renewed = try await api.refresh(session, from: request, context: context)
            response.setCookie(sessionCookie(renewed))
            return .shown(response)
        }
    }
}
