import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Password links in the console: the staff page has one mailed to a user (the API's
/// `POST /v1/users/{userId}/password-link`), and the mailed link opens a signed-out page where
/// they choose the new password (`POST /v1/auth/password-link`), then sign in with it.
extension ConsoleRoutes {
    func registerPasswordLinks(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.sendPasswordLink, use: sendPasswordLink)
        group.on(ConsolePages.passwordPage, use: passwordPage)
        group.on(ConsolePages.setPassword, use: setPassword)
    }

    @Sendable func sendPasswordLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try ConsolePages.sendPasswordLink.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.sendPasswordLink.line(user), nil)
            guard answer.status == .accepted else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "password-link")]))
        }
    }

    @Sendable func passwordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await passwordForm(token: request.uri.queryParameters.get("token") ?? "", error: nil, status: .ok)
    }

    func passwordForm(token: String, error: String?, status: HTTPResponse.Status) async throws -> Response {
        var values: [String: Any] = [:]
        if !token.isEmpty { values["token"] = token }
        return try await signedOutPage("password", values, error: error, status: status, title: "Choose a password")
    }

    @Sendable func setPassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        struct Form: SignedOutForm {
            var token: String
            var password: String
            var `repeat`: String
            var _csrf: String?
        }
        guard let form = try await signedOutForm(Form.self, request) else { return try await forbidden() }
        guard form.password == form.repeat else {
            return try await passwordForm(
                token: form.token, error: "The two passwords differ: type the same one twice.",
                status: .unprocessableContent)
        }
        let body = try OutpostJSON.encode(PasswordLinkUse(token: form.token, password: form.password))
        let (status, data) = try await api.call(API.usePasswordLink.line(), json: body, from: request, context: context)
        guard status == .noContent else {
            let answer = ConsoleAPI.Answer(status: status, body: data, renewed: nil)
            // A link that no longer works has no form left to fill.
            let token = answer.errorCode == APIErrorCode.invalidCode.rawValue ? "" : form.token
            return try await passwordForm(
                token: token, error: answer.message,
                status: status == .unauthorized ? .unauthorized : .unprocessableContent)
        }
        var response = Self.redirect(ConsolePages.signInPage.path(query: [("done", "password-set")]))
        response.setCookie(cookie(ConsoleSession.preCookieName, "", maxAge: 0))
        return response
    }
}
