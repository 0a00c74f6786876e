import Foundation
import Testing

/// With real processes: `outpost serve` over HTTPS with a test
/// certificate authority and a device that trusts it, and the connection limits.
@Suite("outpost serve on a real network")
struct DeploymentProcessTests {
    @Test(
        "tls-device-over-https: a device that trusts the test CA signs in, opens the event and checks a guest in over HTTPS; one that does not is told the certificate is not trusted"
    )
    func deviceOverHTTPS() async throws {
        let authority = try await TestCertificateAuthority()
        let server = try await RunningServer.start(options: [
            "--tls-cert", authority.serverCertificate, "--tls-key", authority.serverKey,
        ])
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"
        let bootstrap = try await CLI.run([
            "admin", "bootstrap", "--sqlite", server.databasePath, "--tenant", "Acme", "--email",
            RunningServer.email, "--password", RunningServer.password, "--name", "Olivia", "--bcrypt-cost", "4",
        ])
        try #require(bootstrap.status == 0, "\(bootstrap.stderr)")
        // The organizer's set-up, with curl trusting the same CA.
        let token = try await #require(
            try authority.curl(
                base + "/v1/auth/signin",
                body:
                    #"{"email":"\#(RunningServer.email)","password":"\#(RunningServer.password)","deviceId":"laptop"}"#
            )["accessToken"] as? String)
        let event = try await authority.curl(
            base + "/v1/events", token: token,
            body:
                #"{"name":"Gala","startsAt":"2026-12-12T17:00:00.000Z","endsAt":"2026-12-12T23:00:00.000Z","timeZone":"UTC"}"#
        )
        let eventId = try #require(event["id"] as? String)
        let general = try await authority.curl(
            base + "/v1/events/\(eventId)/access-types", token: token, body: #"{"name":"General"}"#)
        let guest = try await authority.curl(
            base + "/v1/events/\(eventId)/guests", token: token,
            body:
                #"{"name":"Ada Lovelace","email":"ada@example.org","accessTypeId":"\#(general["id"] as? String ?? "")"}"#
        )
        let guestId = try #require(guest["id"] as? String)
        let roster = try await authority.curl(base + "/v1/events/\(eventId)/roster", token: token)
        let code = try #require(
            (roster["guests"] as? [[String: Any]])?.first { $0["id"] as? String == guestId }?["code"] as? String)

        // An untrusting device: nothing is sent in clear, and the screen says why.
        let stranger = ["--home", try CLI.temporaryDirectory() + "/device", "--json"]
        let refused = try await CLI.run(
            [
                "device", "signin", "--server", base, "--email", RunningServer.email, "--password",
                RunningServer.password,
            ]
                + stranger)
        let refusedTree = try CLI.tree(refused)
        #expect(refusedTree["screen"] as? String != "native-shell-event-picker")
        #expect(refused.stdout.contains("certificate is not trusted"), "\(refused.stdout.suffix(600))")

        // A trusting device does the whole door flow.
        let device = ["--home", try CLI.temporaryDirectory() + "/device", "--json"]
        let signIn = try await CLI.run(
            [
                "device", "signin", "--server", base, "--email", RunningServer.email, "--password",
                RunningServer.password,
            ]
                + device, trusting: authority.trustBundle)
        try #require(signIn.status == 0, "\(signIn.stderr)")
        #expect(try CLI.tree(signIn)["user"] as? String != nil, "\(signIn.stdout.suffix(600))")
        #expect(try await CLI.run(["device", "open", eventId] + device, trusting: authority.trustBundle).status == 0)
        _ = try await CLI.run(["device", "checkin", "--code", code] + device, trusting: authority.trustBundle)
        let confirmed = try await CLI.run(["device", "confirm"] + device, trusting: authority.trustBundle)
        #expect(try CLI.tree(confirmed)["pending"] as? Int == 0, "\(confirmed.stdout.suffix(600))")
        let audit = try await authority.curl(base + "/v1/events/\(eventId)/audit", token: token)
        let kinds = (audit["entries"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.contains("checked_in"), "\(kinds)")

        // The HTTPS port answers no plain HTTP.
        let plain = try RawSocket(port: server.port)
        try plain.send(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(!String(decoding: try plain.receiveAll(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
    }

    @Test(
        "http-idle-timeout: a connection that sends nothing is closed after --idle-timeout; a kept-alive one too, after its answer"
    )
    func idleTimeout() async throws {
        let server = try await RunningServer.start(options: ["--idle-timeout", "0.5"])
        defer { server.stop() }
        let silent = try RawSocket(port: server.port)
        let started = ContinuousClock.now
        #expect(try silent.receiveAll().isEmpty, "closed without a byte")
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(20), "closed by the idle timeout, not the test's bound")
        let kept = try RawSocket(port: server.port)
        try kept.send(Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(try kept.receiveResponse().hasPrefix("HTTP/1.1 200"))
        #expect(!String(decoding: try kept.receiveAll(), as: UTF8.self).contains("HTTP/1.1"), "then closed")
    }

    @Test(
        "http-connection-cap: past --max-connections a new connection is not served until one closes; the open ones keep working"
    )
    func connectionCap() async throws {
        let server = try await RunningServer.start(options: ["--max-connections", "2", "--idle-timeout", "60"])
        defer { server.stop() }
        let health = Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        let first = try RawSocket(port: server.port)
        let second = try RawSocket(port: server.port)
        for socket in [first, second] {
            try socket.send(health)
            #expect(try socket.receiveResponse().hasPrefix("HTTP/1.1 200"))
        }
        // The kernel completes the third handshake, but the server does not take the connection.
        let third = try RawSocket(port: server.port)
        try third.send(health)
        // A request sent after the third one's is answered on an open connection...
        try second.send(health)
        #expect(try second.receiveResponse().hasPrefix("HTTP/1.1 200"))
        // ...while the third, sent first, still has nothing.
        #expect(!third.hasAnswer)
        let closed = ContinuousClock.now
        close(first.fd)
        // Served when the server notices the close, not when the first connection's idle timeout
        // (60 s, beyond the socket's 30 s bound) would have freed its slot.
        #expect(try third.receiveResponse().hasPrefix("HTTP/1.1 200"), "served once a slot was free")
        print(
            "http-connection-cap: the waiting connection was served \(ContinuousClock.now - closed) after a slot freed")
        close(second.fd)
        close(third.fd)
    }
}

/// A throwaway certificate authority made with Debian's `openssl`, and a server certificate it
/// signed for 127.0.0.1 and localhost.
struct TestCertificateAuthority {
    let directory: String
    var certificate: String { directory + "/ca.pem" }
    var serverCertificate: String { directory + "/server.pem" }
    var serverKey: String { directory + "/server.key" }
    /// Debian's CA bundle plus this CA: what a device that trusts it has as its trust store.
    var trustBundle: String { directory + "/bundle.pem" }

    init() async throws {
        directory = try CLI.temporaryDirectory()
        try await Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            directory + "/ca.key", "-out", directory + "/ca.pem", "-days", "2", "-subj", "/CN=Outpost Test CA",
        ])
        try await Self.openssl([
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            directory + "/server.key",
            "-out", directory + "/server.csr", "-subj", "/CN=localhost",
        ])
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: directory + "/ext.cnf", atomically: true, encoding: .utf8)
        try await Self.openssl([
            "x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.pem", "-CAkey",
            directory + "/ca.key", "-CAcreateserial", "-out", directory + "/server.pem", "-days", "2", "-extfile",
            directory + "/ext.cnf",
        ])
        let system = FileManager.default.contents(atPath: "/etc/ssl/certs/ca-certificates.crt") ?? Data()
        let own = try #require(FileManager.default.contents(atPath: directory + "/ca.pem"))
        FileManager.default.createFile(atPath: trustBundle, contents: system + own)
    }

    private static func openssl(_ arguments: [String]) async throws {
        let result = try await CLI.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/openssl"))
        try #require(result.status == 0, "openssl \(arguments.first ?? ""): \(result.stderr)")
    }

    /// A JSON request with Debian's curl, trusting only this CA.
    func curl(_ url: String, token: String? = nil, body: String? = nil) async throws -> [String: Any] {
        var arguments = ["--silent", "--show-error", "--cacert", certificate, url]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let body { arguments += ["-H", "Content-Type: application/json", "--data", body] }
        let result = try await CLI.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"))
        try #require(result.status == 0, "curl \(url): \(result.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }
}
