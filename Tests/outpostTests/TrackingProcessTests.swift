import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import Testing

/// A device home driven through `outpost device … --home HOME --json`: each call is one
/// launch of the app, its tree read back (a command that fails is an issue of the test).
/// `refused` says whether the action is expected to be refused: then the command must exit 3
/// with the refusal in its tree and on standard error, else exit 0 with none.
struct DeviceHome {
    let path: String
    init(_ path: String) { self.path = path }

    func callAsFunction(
        _ arguments: [String], refused: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> PeerMentorProcessTests.Tree {
        try await PeerMentorProcessTests.Tree.run(
            ["device"] + arguments + ["--home", path, "--json"], refused: refused, sourceLocation: sourceLocation)
    }
}

extension DeviceHome {
    /// A fresh device home signed in as the worker of ``RunningServer/createWorker()`` (created
    /// here), with one work location added; the home and the location's id.
    static func worker(
        on server: RunningServer, location name: String = "Care home Nord", latitude: String = "52.52",
        longitude: String = "13.405"
    ) async throws -> (DeviceHome, location: String) {
        try await server.createWorker()
        let device = DeviceHome(try CLI.temporaryDirectory() + "/device")
        let signedIn = try await device([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "wanda@acme.test", "--password",
            "worker-password",
        ])
        #expect(signedIn.screen == "track-status-screen")
        let added = try await device([
            "track", "location", "add", "--name", name, "--latitude", latitude, "--longitude", longitude,
        ])
        return (device, try #require(added.attribute("track-location-row", "locationId")))
    }
}

extension RunningServer {
    /// An organizer (as `organizerSetUp`) and the worker wanda@acme.test / worker-password.
    func createWorker() async throws {
        _ = try await organizerSetUp()
        _ = try await json(
            "POST", "/v1/users", token: try await signIn(),
            body: #"{"email":"wanda@acme.test","name":"Wanda","role":"worker","password":"worker-password"}"#)
    }
}

/// Time tracking through `outpost device` processes (seed 003): a simulated working day.
@Suite("Time tracking as processes (seed 003)")
struct TrackingProcessTests {
    @Test(
        "track-cli-day: a worker adds a location; geofence events and time passing clock them in and out; the history shows the day"
    )
    func day() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        try await server.createWorker()
        let home = try CLI.temporaryDirectory() + "/device"
        let device = DeviceHome(home)
        let signedIn = try await device([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "wanda@acme.test", "--password",
            "worker-password",
        ])
        #expect(signedIn.screen == "track-status-screen")
        let tiny = try await device(
            [
                "track", "location", "add", "--name", "X", "--latitude", "52.52", "--longitude", "13.4", "--radius",
                "5",
            ], refused: true)
        #expect(tiny.text("track-error")?.contains("between 50 and 5000") == true)
        let added = try await device([
            "track", "location", "add", "--name", "Care home Nord", "--latitude", "52.52", "--longitude", "13.405",
        ])
        let location = try #require(added.attribute("track-location-row", "locationId"))
        _ = try await device(["sim", "geofence", "enter", location, "--accuracy", "25", "--source", "event"])
        var status = try await device(["track", "status"])
        #expect(status.attribute("track-location-card", "state") == "active")
        _ = try await device(["sim", "time", "advance", "3h"])
        status = try await device(["track", "status"])
        #expect(status.attribute("track-location-card", "elapsedMinutes") == "180")
        // Leaving with a fair fix: pending; the phone is 600 m away when the checks run.
        _ = try await device(["sim", "geofence", "exit", location, "--accuracy", "60", "--distance", "180"])
        #expect(try await device(["track", "status"]).text("track-pending-exit") != nil)
        _ = try await device(["sim", "gps", "52.5254", "13.4129", "--accuracy", "30"])
        _ = try await device(["sim", "time", "advance", "6m"])
        let history = try await device(["track", "history"])
        #expect(history.attribute("track-history-session", "state") == "completed")
        #expect(history.attribute("track-history-session", "minutes") == "180", "backdated to the exit")
        #expect(history.attribute("track-history-total", "minutes") == "180")
        // A bad time is a usage error.
        let bad = try await CLI.run([
            "device", "track", "session", "add", "--home", home, "--location", location, "--from", "8am", "--to", "5pm",
        ])
        #expect(bad.status == 2 && bad.stderr.contains("--from and --to"))
    }
}

/// The plan and the week through `outpost device track` processes.
@Suite("The week as processes")
struct WeekProcessTests {
    @Test(
        "track-plan-cli, track-report-cli: a template, shifts placed from it, an absence, the week; an overlap and bad times are refused in words; seed-demo's month drawn as PNG, PDF and SVG"
    )
    func plan() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        try await server.createWorker()
        let home = try CLI.temporaryDirectory() + "/device"
        let device = DeviceHome(home)
        _ = try await device([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "wanda@acme.test", "--password",
            "worker-password",
        ])
        let added = try await device([
            "track", "template", "add", "--name", "Early", "--color", "teal", "--start", "06:00", "--duration", "8h",
            "--break", "30",
        ])
        let template = try #require(added.attribute("calendar-template", "templateId"))
        var week = try await device(["track", "shift", "place", template, "2030-01-07"])
        #expect(week.screen == "calendar-week-screen")
        #expect(week.text("calendar-title") == "Week 2 · 2030-01-07 – 2030-01-13")
        #expect(week.text("calendar-shift") == "Early 06:00–14:00 · break 30 min")
        week = try await device(["track", "shift", "place", template, "2030-01-07", "--start", "10:00"], refused: true)
        #expect(week.text("track-error") == "It overlaps Early on that day.")
        week = try await device(["track", "absence", "add", "2030-01-08", "--kind", "vacation"])
        #expect(week.text("calendar-absence") == "Vacation · Vacation · all day")
        week = try await device(["track", "week", "--next"])
        #expect(week.text("calendar-title") == "Week 3 · 2030-01-14 – 2030-01-20")
        let bad = try await CLI.run([
            "device", "track", "shift", "place", template, "2030-01-09", "--start", "25:00", "--home", home,
        ])
        #expect(bad.status == 2 && bad.stderr.contains("--start is HH:MM"))
        let noId = try await CLI.run(["device", "track", "shift", "remove", "not-an-id", "--home", home])
        #expect(noId.status == 2)
        let demo = try await device(["track", "seed-demo", "--month", "2026-10"])
        #expect(demo.screen == "calendar-month-screen" && demo.text("calendar-title") == "October 2026")
        #expect(demo.text("track-notice")?.hasPrefix("A month of demo work:") == true)
        #expect(demo.all("calendar-month-cell").count == 42)
        // track-report-cli: the month as a file a worker can send, in each format; a clash is refused.
        let directory = URL(fileURLWithPath: home).deletingLastPathComponent().path
        let magic: [(String, [UInt8])] = [
            ("png", [0x89, 0x50, 0x4E, 0x47]), ("pdf", Array("%PDF".utf8)), ("svg", Array("<?xm".utf8)),
        ]
        for (format, bytes) in magic {
            let out = "\(directory)/october.\(format)"
            let report = try await CLI.run([
                "device", "track", "report", "--month", "2026-10", "--out", out, "--home", home,
            ])
            #expect(report.status == 0, "\(report.stderr)")
            #expect(report.stdout.hasPrefix("report \(out)"))
            #expect(try #require(FileManager.default.contents(atPath: out)).starts(with: bytes), "\(format)")
        }
        let clash = try await CLI.run([
            "device", "track", "report", "--out", "\(directory)/x.pdf", "--format", "png", "--home", home,
        ])
        #expect(clash.status == 2 && clash.stderr.contains("--out names a .pdf file but --format is png"))
    }
}

/// `outpost device track trace` and `replay` as a user runs them.
@Suite("Trace replay as processes")
struct TraceReplayProcessTests {
    @Test("track-replay-cli: generate a day, replay it under both profiles; a broken file is one clear sentence")
    func replay() async throws {
        let directory = try CLI.temporaryDirectory()
        let gpx = directory + "/garage.gpx"
        let made = try await CLI.run([
            "device", "track", "trace", "--seed", "1", "--scenario", "arrive-no-fix", "--out", gpx,
        ])
        #expect(made.status == 0 && made.stdout.contains("1561 positions"), "\(made.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/garage.manifest.json"))
        let replayed = try await CLI.run(["device", "track", "replay", gpx])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stdout.contains("seed: tracked 8 h 03 min · off by 0 h 01 min"), "\(replayed.stdout)")
        #expect(replayed.stdout.contains("field: tracked 0 h 00 min · off by 8 h 03 min"), "\(replayed.stdout)")
        // A CSV with a fence given on the command line, no manifest (a crossing counts once the
        // positions stay across for the dwell time: the second position on the other side).
        let csv = directory + "/day.csv"
        try Data(
            """
            time,latitude,longitude,accuracy
            2026-11-16T08:00:00Z,52.5300,13.405,10
            2026-11-16T08:00:30Z,52.5200,13.405,10
            2026-11-16T08:01:00Z,52.5200,13.405,10
            2026-11-16T12:00:00Z,52.5200,13.405,10
            2026-11-16T12:00:30Z,52.5300,13.405,10
            2026-11-16T12:01:00Z,52.5300,13.405,10

            """.utf8
        ).write(to: URL(fileURLWithPath: csv))
        let fromCSV = try await CLI.run([
            "device", "track", "replay", csv, "--latitude", "52.52", "--longitude", "13.405", "--profile", "seed",
        ])
        #expect(fromCSV.stdout.contains("08:01:00Z–12:01:00Z (immediate)"), "\(fromCSV.stdout)\(fromCSV.stderr)")
        let broken = directory + "/broken.gpx"
        try Data("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt>".utf8).write(to: URL(fileURLWithPath: broken))
        let refused = try await CLI.run([
            "device", "track", "replay", broken, "--latitude", "1", "--longitude", "2",
        ])
        // Cut short: named at its last line, a position the file has.
        #expect(refused.status == 1 && refused.stderr.contains("GPX ends early: after line 1,"), "\(refused.stderr)")
        // A .gpx that is not XML is a GPX error, not a CSV one.
        let notGPX = directory + "/positions.gpx"
        try Data("time,latitude,longitude,accuracy\n2026-11-16T08:00:00Z,1,2,10\n".utf8).write(
            to: URL(fileURLWithPath: notGPX))
        let wrongKind = try await CLI.run(["device", "track", "replay", notGPX, "--latitude", "1", "--longitude", "2"])
        #expect(wrongKind.status == 1 && wrongKind.stderr.contains("not GPX"), "\(wrongKind.stderr)")
        let noFence = try await CLI.run(["device", "track", "replay", csv])
        #expect(noFence.status == 1 && noFence.stderr.contains("No fence"), "\(noFence.stderr)")
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
        let device = DeviceHome(home)
        let asked = try await device([
            "signin", "--server", serverURL, "--email", "wanda@care.test", "--request-code", "--register",
        ])
        #expect(asked.screen == "native-shell-signin")
        #expect(asked.text("native-shell-signin-notice")?.contains("a code is on its way") == true)
        let code = try await sink.code(for: "wanda@care.test")
        let wrong = try await device(
            [
                "signin", "--server", serverURL, "--email", "wanda@care.test", "--code",
                code == "000000" ? "000001" : "000000",
                "--register", "--name", "Wanda", "--consent", "2026-01",
            ], refused: true)
        #expect(wrong.text("native-shell-signin-error")?.contains("wrong, used or expired") == true)
        let created = try await device([
            "signin", "--server", serverURL, "--email", "wanda@care.test", "--code", code, "--register", "--name",
            "Wanda", "--consent", "2026-01",
        ])
        #expect(created.screen == "track-status-screen", "a new worker lands on time tracking")
        _ = try await device(["signout"])
        _ = try await device(["signin", "--server", serverURL, "--email", "wanda@care.test", "--request-code"])
        // The second mail (the queue sends after the answer: wait for it, not the first).
        let again = try await sink.code(for: "wanda@care.test", after: 1)
        await #expect(
            try device(["signin", "--server", serverURL, "--email", "wanda@care.test", "--code", again]).screen
                == "track-status-screen")
        let usage = try await CLI.run([
            "device", "signin", "--home", home, "--server", serverURL, "--email", "w@c.test", "--code", "12ab56",
        ])
        #expect(usage.status == 2 && usage.stderr.contains("six digits"))
    }
}

extension PasswordlessProcessTests {
    @Test(
        "mail-queue-survives-kill: a code asked for while the relay is down is answered 202 and queued; the server is killed (SIGKILL); started again with the relay back, it mails the code, which creates the account"
    )
    func queueSurvivesKill() async throws {
        guard let python = SMTPSink.python else {
            print(SMTPSink.skipMessage)
            try Test.cancel(Comment(rawValue: SMTPSink.skipMessage))
        }
        let relayPort = try CLI.freePort()
        let first = try await RunningServer.start(options: ["--smtp-relay", "127.0.0.1:\(relayPort)"])
        let (_, asked) = try await first.request(
            "POST", "/v1/auth/email-code", body: Data(#"{"email":"kim@care.test","purpose":"register"}"#.utf8))
        #expect(asked == 202)
        // The first try failed (nothing listens on the relay's port) and the mail waits for its
        // next; then the server dies without a chance to do anything.
        try await first.waitForMetric(#"outpost_mail_queue{state="queued"} 1.0"#)
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        let sink = try await SMTPSink.start(python: python, port: relayPort)
        defer { sink.stop() }
        let second = try await RunningServer.start(reusing: first, options: ["--smtp-relay", sink.relay])
        defer { second.stop() }
        let code = try await sink.code(for: "kim@care.test")
        let pair = try await second.json(
            "POST", "/v1/auth/email-signin",
            body:
                #"{"email":"kim@care.test","code":"\#(code)","deviceId":"phone","name":"Kim","consentVersion":"2026-01"}"#
        )
        #expect(pair["accessToken"] is String, "\(pair)")
        #expect(sink.messages().count == 1, "sent once")
    }
}

/// A care worker's whole day through real processes and real SMTP: register with a code,
/// a day of geofence events offline, confirm, network on, exactly one submission on the server;
/// a second confirmation from another phone answers 409 and shows it; the export holds every
/// record; after deleting, the server has no account and the phone no plaintext of it.
@Suite("A care worker's day, end to end")
struct TrackingEndToEndTests {
    @Test(
        "track-e2e-day-confirmed-once: register by code, a day offline, confirm, sync once; a second confirm is 409; export and delete"
    )
    func workingDay() async throws {
        guard let python = SMTPSink.python else {
            print(SMTPSink.skipMessage)
            try Test.cancel(Comment(rawValue: SMTPSink.skipMessage))
        }
        let sink = try await SMTPSink.start(python: python)
        defer { sink.stop() }
        let server = try await RunningServer.start(options: ["--smtp-relay", sink.relay])
        defer { server.stop() }
        let directory = try CLI.temporaryDirectory()
        let serverURL = "http://127.0.0.1:\(server.port)"
        let email = "wanda.e2e@care.test"
        func device(_ home: String, _ arguments: [String]) async throws -> PeerMentorProcessTests.Tree {
            try await DeviceHome(directory + "/" + home)(arguments)
        }
        /// Sets the phone's clock `seconds` from now (a negative number follows `--`).
        func skew(_ home: String, _ seconds: Int) async throws {
            let result = try await CLI.run(
                ["device", "sim", "--home", directory + "/" + home, "--json", "clock-skew", "--", String(seconds)])
            #expect(result.status == 0, "clock-skew: \(result.stderr)")
        }
        func signIn(_ home: String, codes: Int, register: Bool) async throws {
            _ = try await device(
                home,
                ["signin", "--server", serverURL, "--email", email, "--request-code"] + (register ? ["--register"] : [])
            )
            let code = try await sink.code(for: email, after: codes)
            let signedIn = try await device(
                home,
                ["signin", "--server", serverURL, "--email", email, "--code", code]
                    + (register ? ["--register", "--name", "Wanda", "--consent", "2026-01"] : []))
            try #require(signedIn.screen == "track-status-screen", "\(signedIn.elements)")
        }
        try await signIn("phone", codes: 0, register: true)
        // Yesterday 08:00 on the phone's clock.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.startOfDay(for: Date())
        let yesterday = try #require(calendar.date(byAdding: .day, value: -1, to: today))
        let morning = yesterday.addingTimeInterval(8 * 3600)
        let day = ActivityDate.day(of: morning, in: .current)
        try await skew("phone", Int(morning.timeIntervalSinceNow))
        let added = try await device(
            "phone",
            ["track", "location", "add", "--name", "Haus Linde", "--latitude", "52.52", "--longitude", "13.405"])
        let location = try #require(added.attribute("track-location-row", "locationId"))
        // The network is off all day.
        _ = try await device("phone", ["sim", "network", "off"])
        _ = try await device("phone", ["sim", "geofence", "enter", location, "--accuracy", "25", "--source", "event"])
        _ = try await device("phone", ["sim", "time", "advance", "2h"])
        // Flapping at the edge: out with a fair fix, back in two minutes later.
        _ = try await device("phone", ["sim", "geofence", "exit", location, "--accuracy", "60", "--distance", "120"])
        _ = try await device("phone", ["sim", "time", "advance", "2m"])
        _ = try await device("phone", ["sim", "geofence", "enter", location, "--accuracy", "30"])
        _ = try await device("phone", ["sim", "time", "advance", "358m"])
        _ = try await device("phone", ["sim", "geofence", "exit", location, "--accuracy", "20", "--distance", "400"])
        var history = try await device("phone", ["track", "history"])
        #expect(history.attribute("track-history-total", "minutes") == "480", "\(history.elements)")
        #expect(history.attribute("track-history-day", "status") == "unconfirmed")
        // The evening passes; the day is confirmed with the network still off.
        _ = try await device("phone", ["sim", "time", "advance", "14h"])
        // track-submit-explanation-cli: the first Submit explains itself and confirms nothing yet.
        let explained = try await device("phone", ["track", "confirm", day])
        #expect(explained.screen == "track-submit-explanation")
        #expect(explained.text("track-submit-explanation")?.contains("cannot be edited") == true)
        #expect(explained.pending == 0)
        history = try await device("phone", ["track", "confirm", "--continue"])
        #expect(history.attribute("track-history-day", "status") == "queued")
        #expect(history.pending == 1)
        _ = try await device("phone", ["sim", "network", "on"])
        history = try await device("phone", ["sync"])
        history = try await device("phone", ["track", "history"])
        #expect(history.attribute("track-history-day", "status") == "submitted", "\(history.elements)")
        #expect(history.pending == 0)
        // The server has exactly one submission for the day.
        func serverDays(codes: Int) async throws -> [[String: Any]] {
            let (_, asked) = try await server.request(
                "POST", "/v1/auth/email-code", body: Data(#"{"email":"\#(email)","purpose":"signin"}"#.utf8))
            #expect(asked == 202)
            let code = try await sink.code(for: email, after: codes)
            let pair = try await server.json(
                "POST", "/v1/auth/email-signin", body: #"{"email":"\#(email)","code":"\#(code)","deviceId":"laptop"}"#)
            let token = try #require(pair["accessToken"] as? String)
            return try await server.json("GET", "/v1/tracking/days", token: token)["days"] as? [[String: Any]] ?? []
        }
        var days = try await serverDays(codes: 1)
        #expect(
            days.count == 1 && days.first?["date"] as? String == day && days.first?["trackedMinutes"] as? Int == 480)
        // The same day confirmed on a second phone: 409, shown on the day.
        try await signIn("second", codes: 2, register: false)
        try await skew("second", Int(morning.timeIntervalSinceNow) + 22 * 3600)
        let place = try await #require(
            try device(
                "second",
                ["track", "location", "add", "--name", "Haus Linde", "--latitude", "52.52", "--longitude", "13.405"]
            ).attribute("track-location-row", "locationId"))
        _ = try await device(
            "second",
            [
                "track", "session", "add", "--location", place, "--from", OutpostJSON.format(morning), "--to",
                OutpostJSON.format(morning.addingTimeInterval(3600)),
            ])
        #expect(try await device("second", ["track", "confirm", day]).screen == "track-submit-explanation")
        let refused = try await device("second", ["track", "confirm", "--continue"])
        #expect(refused.attribute("track-history-day", "status") == "submitted_elsewhere", "\(refused.elements)")
        #expect(refused.text("track-day-answer")?.contains("already submitted") == true)
        #expect(refused.text("track-error")?.contains("was not submitted") == true)
        days = try await serverDays(codes: 3)
        #expect(days.count == 1 && days.first?["trackedMinutes"] as? Int == 480)
        // Export: every record the worker made, from the phone and the server.
        let exportPath = directory + "/my-data.json"
        _ = try await device("phone", ["privacy", "export", "--out", exportPath])
        let export = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: exportPath))) as? [String: Any]
        )
        let track = try #require((export["device"] as? [String: Any])?["track"] as? [String: Any])
        #expect(
            (track["sessions"] as? [[String: Any]])?.count == 1, "one session: the flap at the edge did not split it")
        #expect((track["locations"] as? [[String: Any]])?.first?["name"] as? String == "Haus Linde")
        #expect((track["events"] as? [[String: Any]])?.count ?? 0 >= 4)
        #expect(export["consentVersion"] as? String == "2026-01")
        #expect(((export["server"] as? [String: Any])?["days"] as? [[String: Any]])?.count == 1)
        // Delete: the server has no account; the phone holds no plaintext of it.
        let deleted = try await device("phone", ["privacy", "delete"])
        #expect(deleted.screen == "native-shell-signin" && deleted.text("native-shell-signin-notice") != nil)
        let (body, status) = try await server.request(
            "POST", "/v1/auth/email-signin",
            body: Data(#"{"email":"\#(email)","code":"123456","deviceId":"laptop"}"#.utf8))
        // The answer to a wrong code does not tell whether an account exists.
        #expect(status == 401 && String(decoding: body, as: UTF8.self).contains("invalid_code"))
        let files = FileManager.default.enumerator(atPath: directory + "/phone")?.compactMap { $0 as? String } ?? []
        for file in files {
            let bytes = FileManager.default.contents(atPath: directory + "/phone/" + file) ?? Data()
            #expect(bytes.range(of: Data(email.utf8)) == nil, "\(file) holds the e-mail")
        }
    }

    @Test(
        "track-strict-input: 30 February and 25:00 are usage errors; a session over 24 h, an empty name and editing a location while clocked in there are refused; nothing changes"
    )
    func strictInput() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (device, location) = try await DeviceHome.worker(on: server)
        for (from, to) in [
            ("2026-02-30T08:00:00Z", "2026-02-30T12:00:00Z"), ("2026-11-02T25:00:00Z", "2026-11-02T26:00:00Z"),
            ("2026-11-02T08:00:00Z", "2026-11-31T12:00:00Z"),
        ] {
            let bad = try await CLI.run([
                "device", "track", "session", "add", "--home", device.path, "--location", location, "--from", from,
                "--to", to,
            ])
            #expect(bad.status == 2 && bad.stderr.contains("--from and --to"), "\(from) \(to): \(bad.stderr)")
        }
        // Longer than 24 hours: refused (a typo far more often than a shift); 24 hours exactly is kept.
        let long = try await device(
            [
                "track", "session", "add", "--location", location, "--from", "2026-11-02T08:00:00Z", "--to",
                "2026-11-03T08:01:00Z",
            ], refused: true)
        #expect(long.refusal?.contains("at most 24 hours") == true, "\(long.refusal ?? "")")
        let day = try await device([
            "track", "session", "add", "--location", location, "--from", "2026-11-02T08:00:00Z", "--to",
            "2026-11-03T08:00:00Z",
        ])
        #expect(day.attribute("track-history-total", "minutes") == "1440")
        // An empty or blank name is refused, not ignored while saying "saved".
        for name in ["", "   "] {
            let edited = try await device(["track", "location", "edit", location, "--name", name], refused: true)
            #expect(edited.refusal == "Give the location a name.")
            try await device(
                ["track", "location", "add", "--name", name, "--latitude", "52.5", "--longitude", "13.4"],
                refused: true)
        }
        // Not while clocked in there; after the clock-out it can be renamed.
        try await device(["track", "clock-in", location])
        let busy = try await device(["track", "location", "edit", location, "--radius", "300"], refused: true)
        #expect(busy.refusal == "You are clocked in at Care home Nord. Clock out first.")
        try await device(["track", "clock-out", location])
        let renamed = try await device(["track", "location", "edit", location, "--name", "  Haus Nord "])
        #expect(renamed.text("track-notice")?.contains("Haus Nord") == true)
        let locations = try await device(["track", "locations"])
        #expect(locations.all("track-location-row").count == 1)
        #expect(locations.text("track-location-row")?.contains("Haus Nord") == true)
    }
}

/// The demo month lives in a sandbox beside the worker's hours.
@Suite("Time tracking: the demo month's sandbox")
struct TrackingDemoSandboxTests {
    @Test(
        "track-demo-sandbox: seed-demo on a signed-in worker's phone queues and sends nothing; the worker's real day still submits; the CSV and the privacy export hold only real hours; one command removes the demo; signed out it seeds nothing and says why"
    )
    func sandbox() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (device, location) = try await DeviceHome.worker(
            on: server, location: "Haus Linde", latitude: "52.53", longitude: "13.41")
        let directory = try CLI.temporaryDirectory()
        try await device([
            "track", "session", "add", "--location", location, "--from", "2026-10-05T08:00:00Z", "--to",
            "2026-10-05T12:00:00Z",
        ])
        // The demo month: shown with its banner, nothing waiting, nothing sent by a sync.
        let seeded = try await device(["track", "seed-demo", "--month", "2026-10"])
        #expect(seeded.text("track-demo-banner")?.contains("never sent") == true)
        #expect(seeded.pending == 0, "the demo's confirmed days are not queued")
        #expect(seeded.screen == "calendar-month-screen")
        let synced = try await device(["sync"])
        #expect(synced.pending == 0)
        let token = try #require(
            try await server.json(
                "POST", "/v1/auth/signin",
                body: #"{"email":"wanda@acme.test","password":"worker-password","deviceId":"check"}"#
            )["accessToken"] as? String)
        func serverDays() async throws -> [[String: Any]] {
            try #require(try await server.json("GET", "/v1/tracking/days", token: token)["days"] as? [[String: Any]])
        }
        #expect(try await serverDays().isEmpty, "no invented day reached the employer")
        // Confirming a demo day keeps it in the sandbox too.
        try await device(["track", "confirm", "2026-10-30"])
        #expect(try await device(["track", "confirm", "--continue"]).pending == 0)
        // While the demo is shown, the CSV and the privacy export are the worker's own hours.
        let csv = try await CLI.run(["device", "track", "export", "--home", device.path])
        #expect(csv.status == 0)
        let rows = csv.stdout.split(whereSeparator: \.isNewline)
        #expect(rows.count == 2, "the header and the one real session: \(rows.count) lines")
        let exportFile = directory + "/export.json"
        try await device(["privacy", "export", "--out", exportFile])
        let exported = try String(contentsOfFile: exportFile, encoding: .utf8)
        #expect(exported.contains("Haus Linde") && !exported.contains("Care home Nord"))
        // One command removes it; the screens show the worker's own hours, and the real day submits.
        let removed = try await device(["track", "seed-demo", "--remove"])
        #expect(removed.text("track-demo-banner") == nil)
        let history = try await device(["track", "history"])
        #expect(history.all("track-history-session").count == 1)
        try await device(["track", "seed-demo", "--remove"], refused: true)
        try await device(["track", "confirm", "2026-10-05"])
        #expect(try await device(["track", "confirm", "--continue"]).pending == 0, "sent at once: online")
        let days = try await serverDays()
        #expect(days.count == 1 && days.first?["date"] as? String == "2026-10-05", "\(days)")
        #expect(days.first?["trackedMinutes"] as? Int == 240)
        // Signed out: nothing is seeded, and the refusal says why.
        let other = DeviceHome(directory + "/other")
        let signedOut = try await other(["track", "seed-demo", "--month", "2026-10"], refused: true)
        #expect(
            signedOut.refusal?.hasPrefix("Nothing was seeded: sign in first.") == true, "\(signedOut.refusal ?? "")")
    }
}
