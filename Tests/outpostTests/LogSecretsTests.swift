import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's and the device's output, at their most verbose, never carry a secret: grep the
/// logs of a session that used every kind of secret for each one.
@Suite("logs carry no secrets")
struct LogSecretsTests {
    @Test("server trace log and device output contain no passwords, tokens, passcodes or ticket texts")
    func noSecretsInLogs() async throws {
        let directory = try CLI.temporaryDirectory()
        let logURL = URL(fileURLWithPath: directory + "/server.log")
        FileManager.default.createFile(atPath: logURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: logURL)
        let database = directory + "/outpost.sqlite"
        let password = "Secret-Password-4711"
        let wrongPassword = "Wrong-Password-0815"
        let passcode = "583920"
        let bootstrap = try await CLI.run([
            "admin", "bootstrap", "--sqlite", database, "--tenant", "Acme", "--email", "olivia@acme.test",
            "--password", password, "--name", "Olivia", "--bcrypt-cost", "4",
        ])
        try #require(bootstrap.status == 0, "\(bootstrap.stderr)")
        let port = try CLI.freePort()
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = [
            "serve", "--sqlite", database, "--port", String(port), "--bcrypt-cost", "4", "--log-level", "trace",
        ]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
        }
        _ = try await CLI.waitForHealth(port: port)

        func call(_ method: String, _ path: String, token: String? = nil, _ body: String? = nil) async throws -> Data {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            if let body {
                request.httpBody = Data(body.utf8)
                request.setValue(
                    path.hasSuffix(":import") ? "text/csv" : "application/json", forHTTPHeaderField: "Content-Type")
            }
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if path.hasSuffix("/checkins") {
                let guest =
                    (try? JSONSerialization.jsonObject(with: Data((body ?? "").utf8)) as? [String: Any])?[
                        "guestId"] as? String
                request.setValue("laptop:\(guest ?? ""):1795000000000", forHTTPHeaderField: "Idempotency-Key")
            }
            return try await URLSession.shared.data(for: request).0
        }
        func object(_ data: Data) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
        }

        // A session that handles every kind of secret.
        _ = try await call(
            "POST", "/v1/auth/signin",
            #"{"email":"olivia@acme.test","password":"\#(wrongPassword)","deviceId":"laptop"}"#)
        let pair = object(
            try await call(
                "POST", "/v1/auth/signin",
                #"{"email":"olivia@acme.test","password":"\#(password)","deviceId":"laptop"}"#))
        let firstAccess = try #require(pair["accessToken"] as? String)
        let firstRefresh = try #require(pair["refreshToken"] as? String)
        let refreshed = object(try await call("POST", "/v1/auth/refresh", #"{"refreshToken":"\#(firstRefresh)"}"#))
        let token = try #require(refreshed["accessToken"] as? String)
        let refreshToken = try #require(refreshed["refreshToken"] as? String)
        // Reusing the first refresh token is a replay: refused, and it must not be logged either.
        _ = try await call("POST", "/v1/auth/refresh", #"{"refreshToken":"\#(firstRefresh)"}"#)
        let event = object(
            try await call(
                "POST", "/v1/events", token: token,
                #"{"name":"Gala","startsAt":"2026-12-12T17:00:00.000Z","endsAt":"2026-12-12T23:00:00.000Z","timeZone":"UTC"}"#
            ))
        let eventId = try #require(event["id"] as? String)
        _ = try await call("POST", "/v1/events/\(eventId)/access-types", token: token, #"{"name":"General"}"#)
        _ = try await call(
            "POST", "/v1/events/\(eventId)/guests:import", token: token,
            "name,email,access_type,notes\r\nÅse Nordmann,ase@example.org,General,\r\n")
        _ = try await call(
            "PUT", "/v1/events/\(eventId)/kiosk", token: token, #"{"passcode":"\#(passcode)","orientation":"portrait"}"#
        )
        _ = try await call(
            "PUT", "/v1/events/\(eventId)/kiosk", token: token, #"{"passcode":"123456","orientation":"portrait"}"#)
        let roster = object(try await call("GET", "/v1/events/\(eventId)/roster", token: token))
        let guest = try #require((roster["guests"] as? [[String: Any]])?.first?["id"] as? String)
        let ticket = String(
            decoding: try await call("GET", "/v1/events/\(eventId)/guests/\(guest)/ticket", token: token), as: UTF8.self
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ticket.hasPrefix("OP1"))
        _ = try await call(
            "POST", "/v1/events/\(eventId)/checkins", token: token,
            #"{"guestId":"\#(guest)","deviceId":"laptop","scannedAt":"2026-11-12T18:00:00.000Z","method":"qr","ticket":"\#(ticket)"}"#
        )
        // A malformed request that carries a token and a ticket: the error path logs too.
        _ = try await call("POST", "/v1/events/\(eventId)/checkins", token: token, #"{"ticket":"\#(ticket)","#)

        // The device: sign in, open, scan the ticket, all with its output captured.
        let home = directory + "/device"
        var deviceOutput = ""
        for arguments in [
            [
                "device", "signin", "--server", "http://127.0.0.1:\(port)", "--email", "olivia@acme.test",
                "--password", password,
            ],
            ["device", "open", eventId], ["device", "scan", ticket], ["device", "confirm"], ["device", "status"],
        ] {
            let result = try await CLI.run(arguments + ["--home", home, "--json"])
            deviceOutput += result.stdout + result.stderr
        }
        #expect(deviceOutput.contains("Åse Nordmann"), "the device did not get as far as the guest")
        process.terminate()
        process.waitUntilExit()
        try log.close()

        let serverLog = try String(contentsOf: logURL, encoding: .utf8)
        // The log is real: trace level wrote request lines.
        #expect(serverLog.contains("/v1/auth/signin") || serverLog.split(separator: "\n").count > 10, "\(serverLog)")
        let secrets: [(String, String)] = [
            ("password", password), ("wrong password", wrongPassword), ("kiosk passcode", passcode),
            ("access token", firstAccess), ("access token", token), ("refresh token", firstRefresh),
            ("refresh token", refreshToken), ("ticket text", ticket),
            ("token signature", String(token.split(separator: ".").last ?? "")),
        ]
        for (kind, secret) in secrets where !secret.isEmpty {
            #expect(!serverLog.contains(secret), "the server log contains a \(kind)")
            #expect(!deviceOutput.contains(secret), "the device output contains a \(kind)")
            #expect(!(bootstrap.stdout + bootstrap.stderr).contains(secret), "bootstrap printed a \(kind)")
        }
    }
}
