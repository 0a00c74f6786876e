import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

struct DeviceSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract:
            "Sign in with a password, a code mailed to you or your organisation's single sign-on; lands on the event picker (or the user's module).",
        discussion: """
            With a password: --password. Passwordless (seed 003): --request-code mails a six-digit \
            code, then --code CODE signs in; for an e-mail without an account add --register with \
            --name and --consent VERSION (the terms you accept) to create one, both when asking \
            for the code and when giving it. Single sign-on: --sso prints the address to open in \
            a browser (on standard error) and waits on this machine's loopback for the browser to \
            come back (RFC 8252); the organisation's provider signs you in there.
            """)

    @OptionGroup var device: DeviceOptions

    @Option(
        help: ArgumentHelp(
            "The Outpost server, e.g. https://checkin.example.org (http:// only on this machine).", valueName: "url"),
        transform: Self.serverURL)
    var server: URL

    /// The server's address, parsed once: an http(s) URL with a host.
    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server must be an http(s) URL such as https://checkin.example.org.")
        }
        return url
    }

    @Option(help: "The staff e-mail.")
    var email: String

    @Option(help: "The password.")
    var password: String?

    @Flag(name: .customLong("request-code"), help: "Mail me a sign-in code instead of using a password.")
    var requestCode = false

    @Flag(help: "Sign in with your organisation's identity provider, in a browser.")
    var sso = false

    @Option(name: .customLong("sso-timeout"), help: "Seconds to wait for the browser to come back (--sso).")
    var ssoTimeout: Double = 600

    @Option(help: "The six-digit code from the mail.")
    var code: String?

    @Flag(help: "Create the account (with --name and --consent).")
    var register = false

    @Option(help: "Your name, when creating the account.")
    var name: String?

    @Option(help: "The version of the terms and privacy notice you accept, when creating the account.")
    var consent: String?

    @Flag(
        name: .customLong("allow-insecure-http"),
        help:
            "Development only: allow a plain http:// server that is not this machine (the password crosses the network unencrypted)."
    )
    var allowInsecureHTTP = false

    func validate() throws {
        guard [password != nil, requestCode, code != nil, sso].filter({ $0 }).count == 1 else {
            throw ValidationError("Give one of --password, --request-code, --code or --sso.")
        }
        guard ssoTimeout > 0 else { throw ValidationError("--sso-timeout must be positive.") }
        if let code, code.count != 6 || !code.allSatisfy(\.isNumber) {
            throw ValidationError("--code is the six digits from the mail.")
        }
        if register, code != nil, name == nil || consent == nil {
            throw ValidationError("--register needs --name and --consent (the terms version you accept).")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if let password {
                await app.signIn(
                    server: server, email: email, password: password, allowingInsecureHTTP: allowInsecureHTTP)
            } else if sso {
                try await singleSignOn(app)
            } else if let code {
                await app.signIn(
                    server: server, email: email, code: code, name: register ? name : nil,
                    consentVersion: register ? consent : nil, allowingInsecureHTTP: allowInsecureHTTP)
            } else {
                await app.requestEmailCode(
                    server: server, email: email, registering: register, allowingInsecureHTTP: allowInsecureHTTP)
            }
        }
    }

    /// The browser leg of single sign-on: the provider for the e-mail, the address to open, the
    /// loopback listener for the way back, then the one-time code for a session.
    @MainActor
    private func singleSignOn(_ app: DeviceApp) async throws {
        guard
            let provider = await app.singleSignOnProvider(
                server: server, email: email, allowingInsecureHTTP: allowInsecureHTTP)
        else { return }
        let listener = try LoopbackRedirect()
        let verifier = PKCE.makeVerifier()
        let state = PKCE.randomToken()
        guard
            let start = DeviceApp.singleSignOnStart(
                server: server, email: email, redirect: listener.redirectURI, codeVerifier: verifier, state: state)
        else { throw ValidationError("--server and --email do not make a sign-in address.") }
        FileHandle.standardError.write(
            Data("Sign in with \(provider.name): open this address in a browser:\n\(start.absoluteString)\n".utf8))
        let timeout = ssoTimeout
        let items = try await Task.detached {
            try listener.awaitRedirect(timeout: timeout) { items in
                items["code"] != nil && items["state"] == state
                    ? "Signed in: you can close this window and go back to Outpost."
                    : "Not signed in: go back to Outpost to see why."
            }
        }.value
        guard items["state"] == state else {
            app.refuseSingleSignOn("The browser came back from another sign-in than this one; sign in again.")
            return
        }
        if let code = items["code"] {
            await app.signIn(
                server: server, ssoCode: code, codeVerifier: verifier, allowingInsecureHTTP: allowInsecureHTTP)
        } else {
            app.refuseSingleSignOn(
                items["error_description"] ?? "The sign-in was refused (\(items["error"] ?? "no code")).")
        }
    }
}
