import Foundation
import OutpostLab
import Testing

/// Time tracking through `outpost device` processes (seed 003): a simulated working day.
@Suite("Time tracking as processes (seed 003)")
struct TrackingProcessTests {
    @Test(
        "track-cli-day: a worker adds a location; geofence events and time passing clock them in and out; the history shows the day"
    )
    func day() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        _ = try await server.organizerSetUp()
        let token = try await server.signIn()
        _ = try await server.json(
            "POST", "/v1/users", token: token,
            body: #"{"email":"wanda@acme.test","name":"Wanda","role":"worker","password":"worker-password"}"#)
        let home = try CLI.temporaryDirectory() + "/device"
        func device(_ arguments: [String]) throws -> PeerMentorProcessTests.Tree {
            let result = try CLI.run(["device"] + arguments + ["--home", home, "--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return PeerMentorProcessTests.Tree(try CLI.tree(result))
        }
        let signedIn = try device([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "wanda@acme.test", "--password",
            "worker-password",
        ])
        #expect(signedIn.screen == "track-status-screen")
        let tiny = try device([
            "track", "location", "add", "--name", "X", "--latitude", "52.52", "--longitude", "13.4", "--radius", "5",
        ])
        #expect(tiny.text("track-error")?.contains("between 50 and 5000") == true)
        let added = try device([
            "track", "location", "add", "--name", "Care home Nord", "--latitude", "52.52", "--longitude", "13.405",
        ])
        let location = try #require(added.attribute("track-location-row", "locationId"))
        _ = try device(["sim", "geofence", "enter", location, "--accuracy", "25", "--source", "event"])
        var status = try device(["track", "status"])
        #expect(status.attribute("track-location-card", "state") == "active")
        _ = try device(["sim", "time", "advance", "3h"])
        status = try device(["track", "status"])
        #expect(status.attribute("track-location-card", "elapsedMinutes") == "180")
        // Leaving with a fair fix: pending; the phone is 600 m away when the checks run.
        _ = try device(["sim", "geofence", "exit", location, "--accuracy", "60", "--distance", "180"])
        #expect(try device(["track", "status"]).text("track-pending-exit") != nil)
        _ = try device(["sim", "gps", "52.5254", "13.4129", "--accuracy", "30"])
        _ = try device(["sim", "time", "advance", "6m"])
        let history = try device(["track", "history"])
        #expect(history.attribute("track-history-session", "state") == "completed")
        #expect(history.attribute("track-history-session", "minutes") == "180", "backdated to the exit")
        #expect(history.attribute("track-history-total", "minutes") == "180")
        // A bad time is a usage error.
        let bad = try CLI.run([
            "device", "track", "session", "add", "--home", home, "--location", location, "--from", "8am", "--to", "5pm",
        ])
        #expect(bad.status == 2 && bad.stderr.contains("--from and --to"))
    }
}

/// Passwordless registration and sign-in through real processes and real SMTP (seed 003).
@Suite("Passwordless sign-in as processes")
struct PasswordlessProcessTests {
    @Test(
        "email-code-cli: a care worker creates an account with a code read from the SMTP sink, then signs in again with a new code"
    )
    func registerAndSignIn() async throws {
        guard let python = SMTPSink.python else {
            print(SMTPSink.skipMessage)
            try Test.cancel(Comment(rawValue: SMTPSink.skipMessage))
        }
        let sink = try await SMTPSink.start(python: python)
        defer { sink.stop() }
        let server = try await RunningServer.start(options: ["--smtp-relay", sink.relay])
        defer { server.stop() }
        let home = try CLI.temporaryDirectory() + "/device"
        let serverURL = "http://127.0.0.1:\(server.port)"
        func device(_ arguments: [String]) throws -> PeerMentorProcessTests.Tree {
            let result = try CLI.run(["device"] + arguments + ["--home", home, "--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return PeerMentorProcessTests.Tree(try CLI.tree(result))
        }
        let asked = try device([
            "signin", "--server", serverURL, "--email", "wanda@care.test", "--request-code", "--register",
        ])
        #expect(asked.screen == "native-shell-signin")
        #expect(asked.text("native-shell-signin-notice")?.contains("a code is on its way") == true)
        let code = try await sink.code(for: "wanda@care.test")
        let wrong = try device([
            "signin", "--server", serverURL, "--email", "wanda@care.test", "--code",
            code == "000000" ? "000001" : "000000",
            "--register", "--name", "Wanda", "--consent", "2026-01",
        ])
        #expect(wrong.text("native-shell-signin-error")?.contains("wrong, used or expired") == true)
        let created = try device([
            "signin", "--server", serverURL, "--email", "wanda@care.test", "--code", code, "--register", "--name",
            "Wanda", "--consent", "2026-01",
        ])
        #expect(created.screen == "track-status-screen", "a new worker lands on time tracking")
        _ = try device(["signout"])
        _ = try device(["signin", "--server", serverURL, "--email", "wanda@care.test", "--request-code"])
        let again = try await sink.code(for: "wanda@care.test")
        #expect(again != code || sink.messages().count == 2)
        #expect(
            try device(["signin", "--server", serverURL, "--email", "wanda@care.test", "--code", again]).screen
                == "track-status-screen")
        let usage = try CLI.run([
            "device", "signin", "--home", home, "--server", serverURL, "--email", "w@c.test", "--code", "12ab56",
        ])
        #expect(usage.status == 2 && usage.stderr.contains("six digits"))
    }
}
