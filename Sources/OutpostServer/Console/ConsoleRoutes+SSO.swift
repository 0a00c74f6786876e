import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The console's single sign-on: the sign-in page's second form takes a work e-mail, the
/// console asks the API which provider signs it in and shows "Sign in with <provider>" (a link:
/// the console's `form-action 'self'` would stop a form's redirect to the provider). The console
/// is an app like the device: it starts the server's sign-in with its own PKCE challenge and
/// state (kept in a short `SameSite=Lax` cookie: the provider's redirect back is a cross-site
/// navigation, which a strict cookie does not follow), and redeems the one-time code on
/// `/admin/sso/done`. That page then links on to the events: the session cookie is strict, and
/// a redirect chain that came from the provider would not carry it yet.
extension ConsoleRoutes {
    static let singleSignOnCookie = "outpost_console_sso"

    func registerSingleSignOn(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.singleSignOn, use: singleSignOn)
        group.on(ConsolePages.singleSignOnDone, use: singleSignOnDone)
    }

    @Sendable func singleSignOn(_ request: Request, context: AppRequestContext) async throws -> Response {
        struct Form: SignedOutForm {
            var email: String
            var _csrf: String?
        }
        guard let form = try await signedOutForm(Form.self, request) else { return try await forbidden() }
        let (status, data) = try await api.call(
            API.ssoProvider.line(query: [("email", form.email)]), from: request, context: context)
        let answer = ConsoleAPI.Answer(status: status, body: data, renewed: nil)
        guard status == .ok, let provider = try? answer.decode(SSOProviderInfo.self) else {
            return try await signInForm(email: form.email, error: answer.message, status: status)
        }
        let verifier = PKCE.makeVerifier()
        let state = PKCE.randomToken()
        let start = API.ssoStart.path(query: [
            ("email", form.email), ("redirect_uri", SSOSignInRoutes.consoleRedirect),
            ("code_challenge", PKCE.challenge(of: verifier)), ("code_challenge_method", "S256"), ("state", state),
        ])
        var response = try await page(
            "singleSignOn", title: "Sign in", ["email": form.email, "name": provider.name, "start": start],
            session: nil)
        response.setCookie(
            cookie(
                Self.singleSignOnCookie, state + "~" + verifier, maxAge: Int(SSOSignInRoutes.attemptLifetime),
                sameSite: .lax))
        return response
    }

    @Sendable func singleSignOnDone(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let kept = request.cookies[Self.singleSignOnCookie]?.value.split(separator: "~").map(String.init) ?? []
        guard kept.count == 2, let state = query.get("state"), state == kept[0] else {
            return try await signInForm(
                email: "", error: "This sign-in did not start in this browser, or took too long; sign in again.",
                status: .badRequest)
        }
        guard let code = query.get("code") else {
            return try await signInForm(
                email: "", error: query.get("error_description") ?? "The sign-in was refused.", status: .unauthorized)
        }
        let body = try OutpostJSON.encode(SSOTokenRequest(code: code, codeVerifier: kept[1], deviceId: "console"))
        let (status, data) = try await api.call(API.ssoToken.line(), json: body, from: request, context: context)
        let answer = ConsoleAPI.Answer(status: status, body: data, renewed: nil)
        guard status == .ok, let pair = try? answer.decode(TokenPair.self) else {
            return try await signInForm(email: "", error: answer.message, status: .unauthorized)
        }
        let session = ConsoleSession(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken, name: pair.user.name)
        var response = try await page(
            "singleSignOnDone", title: "Signed in", ["name": pair.user.name], session: nil)
        response.setCookie(sessionCookie(session))
        response.setCookie(cookie(Self.singleSignOnCookie, "", maxAge: 0, sameSite: .lax))
        response.setCookie(cookie(ConsoleSession.preCookieName, "", maxAge: 0))
        return response
    }
}
