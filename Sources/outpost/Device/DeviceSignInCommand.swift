import ArgumentParser
import Foundation

struct DeviceSignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin", abstract: "Sign in; lands on the event picker.")

    @OptionGroup var device: DeviceOptions

    @Option(
        help: ArgumentHelp(
            "The Outpost server, e.g. https://checkin.example.org (http:// only on this machine).", valueName: "url"))
    var server: String

    @Option(help: "The staff e-mail.")
    var email: String

    @Option(help: "The password.")
    var password: String

    @Flag(
        name: .customLong("allow-insecure-http"),
        help:
            "Development only: allow a plain http:// server that is not this machine (the password crosses the network unencrypted)."
    )
    var allowInsecureHTTP = false

    func validate() throws {
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server must be an http(s) URL such as https://checkin.example.org.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.signIn(
                server: URL(string: server)!, email: email, password: password, allowingInsecureHTTP: allowInsecureHTTP)
        }
    }
}
