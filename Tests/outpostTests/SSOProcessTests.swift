import Foundation
import OutpostCore
import OutpostTestSupport
import Testing

/// `outpost device signin --sso` as a real process against `outpost serve` and a real
/// OpenID Connect provider: the device prints the address, the browser (curl) signs in at the
/// provider and comes back to the device's loopback listener (RFC 8252), the device redeems the
/// code with its verifier.
@Suite("outpost device signin --sso")
struct SSOProcessTests {
    /// A running server whose tenant Acme signs in acme.test through `provider`, with Ana as
    /// check-in staff on the Gala.
    private static func setUp(
        provider: TestIdentityProvider
    ) async throws -> (server: RunningServer, eventId: String) {
        let server = try await RunningServer.start()
        let session = try await server.organizerSetUp()
        let ana = try await server.json(
            "POST", "/v1/users", token: session.token,
            body: #"{"email":"ana@acme.test","name":"Ana","role":"checkin_staff","password":"staff-password"}"#)
        let anaId = try #require(ana["id"] as? String)
        _ = try await server.request("PUT", "/v1/events/\(session.eventId)/staff/\(anaId)", token: session.token)
        let (data, status) = try await server.request(
            "PUT", "/v1/tenant/sso", token: session.token,
            body: Data(
                #"{"displayName":"Acme ID","issuer":"\#(provider.issuer)","clientId":"outpost","clientSecret":"s3cret","allowedDomains":["acme.test"],"newUsers":"existing-only","passwordSignIn":false}"#
                    .utf8))
        try #require(status == 200, "\(String(decoding: data, as: UTF8.self))")
        return (server, session.eventId)
    }

    /// Runs `outpost device signin --sso`, signs in at the provider as `subject` once it printed
    /// the address, and follows the way back to its listener: its exit status and output, and
    /// the page the browser was shown.
    private static func signIn(
        server: RunningServer, email: String, subject: String, home: String
    ) async throws -> (result: CLI.Result, page: String) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = [
            "device", "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", email, "--sso",
            "--sso-timeout", "60", "--home", home, "--json",
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // The address is the line after "Sign in with …" on standard error (read off Swift
        // concurrency's threads: the pipe blocks until the device writes).
        let port = server.port
        let (printed, start) = try await Blocking.run { () -> (Data, String?) in
            var printed = Data()
            var start: String?
            while start == nil {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                printed += chunk
                start = String(decoding: printed, as: UTF8.self).split(separator: "\n")
                    .first { $0.hasPrefix("http://127.0.0.1:\(port)/v1/auth/sso/start?") }.map(String.init)
            }
            return (printed, start)
        }
        let url = try #require(start, "no address printed: \(String(decoding: printed, as: UTF8.self))")
        #expect(String(decoding: printed, as: UTF8.self).contains("Sign in with Acme ID"))
        let browser = Browser()
        let authorization = try #require(try await browser.get(url).location)
        let callback = try #require(try await browser.signInAtProvider(authorization, subject: subject).location)
        let back = try #require(try await browser.get(callback).location)
        #expect(back.hasPrefix("http://127.0.0.1:"))
        #expect(back.contains("/cb?"))
        let page = try await browser.get(back).body
        let (stdout, rest) = try await Blocking.run { () -> (Data, Data) in
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let rest = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (stdout, rest)
        }
        let stderr = printed + rest
        return (
            CLI.Result(
                status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                stderr: String(decoding: stderr, as: UTF8.self)), page
        )
    }

    @Test("sso-device-cli-flow: the headless device signs in through the provider on loopback and works the event")
    func deviceSignsIn() async throws {
        let provider = try await TestIdentityProvider.startForTest()
        defer { provider.stop() }
        let (server, eventId) = try await Self.setUp(provider: provider)
        defer { server.stop() }
        try await provider.setUser("ana-1", claims: ["email": "ana@acme.test", "email_verified": true, "name": "Ana"])
        let home = try CLI.temporaryDirectory() + "/device"
        // Passwords are off for Acme: the password way is refused, in one sentence.
        let password = try await CLI.run([
            "device", "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "ana@acme.test",
            "--password", "staff-password", "--home", home, "--json",
        ])
        #expect(password.status == 3)
        #expect(password.stderr.contains("signs in only with single sign-on"))
        let (result, page) = try await Self.signIn(
            server: server, email: "ana@acme.test", subject: "ana-1", home: home)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(page.contains("Signed in"))
        // A working session: the event opens, its roster pulled with Ana's token.
        let open = try await CLI.run(["device", "open", eventId, "--home", home, "--json"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.contains("Gala"))
    }

    @Test("sso-device-cli-refused: a person the provider signs in but Outpost does not know gets no session, exit 3")
    func deviceRefused() async throws {
        let provider = try await TestIdentityProvider.startForTest()
        defer { provider.stop() }
        let (server, _) = try await Self.setUp(provider: provider)
        defer { server.stop() }
        try await provider.setUser("bo-1", claims: ["email": "bo@acme.test", "email_verified": true])
        let home = try CLI.temporaryDirectory() + "/device"
        let (result, page) = try await Self.signIn(server: server, email: "bo@acme.test", subject: "bo-1", home: home)
        #expect(result.status == 3)
        #expect(result.stderr.contains("There is no Outpost account for bo@acme.test"))
        #expect(page.contains("Not signed in"))
        // No session: the device is on the sign-in screen, saying why.
        #expect(result.stdout.contains(#""screen":"native-shell-signin""#))
        #expect(result.stdout.contains(#""user":null"#))
        #expect(result.stdout.contains("There is no Outpost account for bo@acme.test"))
    }
}
