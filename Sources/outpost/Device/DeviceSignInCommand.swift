import ArgumentParser
import Foundation

struct DeviceSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Sign in with a password or a code mailed to you; lands on the event picker (or the user's module).",
        discussion: """
            With a password: --password. Passwordless (seed 003): --request-code mails a six-digit \
            code, then --code CODE signs in; for an e-mail without an account add --register with \
            --name and --consent VERSION (the terms you accept) to create one, both when asking \
            for the code and when giving it.
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
        guard [password != nil, requestCode, code != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("Give one of --password, --request-code or --code.")
        }
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
}
