import Foundation
import OutpostProtocol
import Testing

/// Seed 003's corrections through `outpost device` processes and a real
/// server. A worker changes a session's start or end and deletes one on a day not yet
/// submitted; a forgotten clock-out is mended the same way; the times as tracked and every
/// change (who, when) stay on the phone, in the export and in the day's submission, where the
/// server keeps both the tracked and the corrected minutes.
@Suite("Time tracking: corrections with history")
struct TrackingCorrectionTests {
    /// The history's session rows: their attributes, with the row's text as `text`.
    static func sessions(_ tree: PeerMentorProcessTests.Tree) -> [[String: String]] {
        tree.all("track-history-session").map {
            var row = $0["attributes"] as? [String: String] ?? [:]
            row["text"] = $0["text"] as? String
            return row
        }
    }

    @Test(
        "track-corrections: an end corrected and a session deleted keep their times as tracked; the submission carries both minutes and each change; a confirmed day refuses corrections"
    )
    func corrections() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (device, location) = try await DeviceHome.worker(on: server)
        let directory = try CLI.temporaryDirectory()
        func add(_ from: String, _ to: String) async throws -> String {
            let history = try await device([
                "track", "session", "add", "--location", location, "--from", from, "--to", to,
            ])
            let row = try #require(Self.sessions(history).first { $0["from"] == from })
            return try #require(row["sessionId"])
        }
        let morning = try await add("2026-11-02T08:00:00.000Z", "2026-11-02T12:00:00.000Z")
        let afternoon = try await add("2026-11-02T13:00:00.000Z", "2026-11-02T17:00:00.000Z")
        // The morning ended at 11:30: corrected, with its tracked times shown beside.
        let corrected = try await device(["track", "session", "edit", morning, "--to", "2026-11-02T11:30:00Z"])
        #expect(corrected.text("track-notice")?.hasPrefix("Session corrected") == true)
        let row = try #require(Self.sessions(corrected).first { $0["sessionId"] == morning })
        #expect(row["corrected"] == "true" && row["minutes"] == "210")
        #expect(row["trackedFrom"] == "2026-11-02T08:00:00.000Z")
        #expect(row["trackedTo"] == "2026-11-02T12:00:00.000Z")
        #expect(row["text"]?.contains("corrected (tracked 08:00–12:00)") == true, "\(row)")
        // The same times again change nothing; bad corrections are refused and change nothing.
        let same = try await device(["track", "session", "edit", morning, "--to", "2026-11-02T11:30:00Z"])
        #expect(same.text("track-notice") == "Nothing changed.")
        let overlap = try await device(
            ["track", "session", "edit", morning, "--to", "2026-11-02T13:30:00Z"], refused: true)
        #expect(overlap.refusal == "It overlaps another session at this location.")
        let backwards = try await device(
            ["track", "session", "edit", morning, "--from", "2026-11-02T11:45:00Z"], refused: true)
        #expect(backwards.refusal == "The end must be after the start.")
        // The afternoon never happened: deleted, and gone from the history.
        let deleted = try await device(["track", "session", "delete", afternoon])
        #expect(deleted.text("track-notice")?.hasPrefix("Session deleted") == true)
        #expect(deleted.all("track-history-session").count == 1)
        #expect(deleted.attribute("track-history-total", "minutes") == "210")
        // Submitted (online: sent at once); the server keeps both minutes and every change.
        try await device(["track", "confirm", "2026-11-02"])
        #expect(try await device(["track", "confirm", "--continue"]).pending == 0)
        let pair = try await server.json(
            "POST", "/v1/auth/signin",
            body: #"{"email":"wanda@acme.test","password":"worker-password","deviceId":"check"}"#)
        let token = try #require(pair["accessToken"] as? String)
        let workerId = try #require((pair["user"] as? [String: Any])?["id"] as? String)
        let (data, status) = try await server.request("GET", "/v1/tracking/days", token: token)
        #expect(status == 200)
        let list = try OutpostJSON.decode(DaySubmissionList.self, from: data)
        let day = try #require(list.days.first)
        #expect(list.days.count == 1 && day.date == "2026-11-02")
        #expect(day.trackedMinutes == 210 && day.asTrackedMinutes == 480, "\(day)")
        let session = try #require(day.sessions.first)
        #expect(day.sessions.count == 1 && session.id.uuidString.lowercased() == morning)
        #expect(session.asTracked?.clockOut == OutpostJSON.parse("2026-11-02T12:00:00Z"))
        #expect(session.method == "manual", "a manual session stays manual; its correction is beside it")
        let change = try #require(session.corrections?.first)
        #expect(session.corrections?.count == 1 && change.by.wire == workerId)
        #expect(change.before.clockOut == OutpostJSON.parse("2026-11-02T12:00:00Z"))
        #expect(change.after?.clockOut == OutpostJSON.parse("2026-11-02T11:30:00Z"))
        let gone = try #require(day.deletedSessions?.first)
        #expect(day.deletedSessions?.count == 1 && gone.id.uuidString.lowercased() == afternoon)
        #expect(gone.clockIn == OutpostJSON.parse("2026-11-02T13:00:00Z") && gone.corrections?.last?.after == nil)
        // A submitted day is closed to corrections.
        let closed = try await device(
            ["track", "session", "edit", morning, "--to", "2026-11-02T11:00:00Z"], refused: true)
        #expect(closed.refusal == "2026-11-02 is confirmed and cannot be changed.")
        try await device(["track", "session", "delete", morning], refused: true)
        // The export keeps the times as tracked and both changes.
        let exportFile = directory + "/export.json"
        try await device(["privacy", "export", "--out", exportFile])
        let exported = try String(contentsOfFile: exportFile, encoding: .utf8)
        #expect(exported.contains("\"corrections\"") && exported.contains(afternoon.uppercased()))
        #expect(exported.contains("\"trackedClockOut\" : \"2026-11-02T12:00:00"), "\(exported.prefix(2000))")
    }

    @Test(
        "track-corrections-forgotten-clock-out: a session still open the next morning is clocked out and ends when the worker left; the next clock-in starts a new session"
    )
    func forgottenClockOut() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (device, location) = try await DeviceHome.worker(on: server)
        try await device(["track", "clock-in", location])
        let history = try await device(["track", "history"])
        let row = try #require(Self.sessions(history).first)
        let id = try #require(row["sessionId"])
        let start = try #require(row["from"].flatMap(OutpostJSON.parse))
        #expect(row["state"] == "active")
        // The phone died at work; it is back the next morning, 16 hours later.
        try await device(["sim", "time", "advance", "16h"])
        let left = OutpostJSON.format(start.addingTimeInterval(8 * 3600))
        let mended = try await device(["track", "session", "edit", id, "--to", left])
        let fixed = try #require(Self.sessions(mended).first { $0["sessionId"] == id })
        #expect(fixed["state"] == "completed" && fixed["minutes"] == "480", "\(fixed)")
        #expect(fixed["to"] == left && fixed["corrected"] == "true")
        #expect(fixed["trackedTo"] != nil, "the clock-out as tracked (this morning) is kept")
        // The engine knows the worker left: clocking in starts a new session, not "already".
        try await device(["track", "clock-in", location])
        let sessions = Self.sessions(try await device(["track", "history"]))
        #expect(sessions.count == 2 && sessions.filter { $0["state"] == "active" }.count == 1)
        // An open session without an end to give it is refused: clock out, or say when.
        let open = try #require(sessions.first { $0["state"] == "active" }?["sessionId"])
        let noEnd = try await device(
            ["track", "session", "edit", open, "--from", OutpostJSON.format(start)], refused: true)
        #expect(noEnd.refusal == "You are clocked in at Care home Nord. Clock out first.")
    }
}
