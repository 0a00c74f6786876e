import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The migration that repairs an older store: the previous app's own store
/// (seed 003's schema, no constraints) is imported once, every row made to satisfy the store's
/// invariant, and what could not be read is kept aside; the first worker to sign in takes it.
@Suite("Time tracking: the previous app's store")
struct PreviousAppImportTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/previous-app-store/previous-app.sqlite")

    static func date(_ text: String) -> Date { LegacySessionRepair.parse(text)! }

    @Test(
        "track-repair-previous-app-store: a committed store with inconsistent rows is imported repaired; the first worker takes it and the old file goes"
    )
    func importRepaired() async throws {
        try await DeviceLab.run { lab in
            let home = lab.home("upgraded")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Self.fixture, to: home.appendingPathComponent(LegacyTrackingStore.fileName))
            let phone = try await WorkerPhone(lab, "upgraded")
            #expect(
                phone.app.tree().element(UIIdentifier.trackNotice)?.text
                    == "8 sessions from your previous app are here; 6 were inconsistent and repaired, 1 could not be read and are kept in your data export."
            )
            #expect(
                !FileManager.default.fileExists(atPath: home.appendingPathComponent(LegacyTrackingStore.fileName).path))
            #expect(phone.app.workLocations.map(\.name) == ["Care home Nord", "Haus Linde"])
            #expect(phone.app.workLocations.map(\.fence.radius) == [100, 100])
            let sessions = phone.app.trackedSessions
            #expect(sessions.count == 8)
            // The invariant holds for every row, and one location has at most one open session.
            for session in sessions {
                #expect((session.clockOut == nil) == (session.state != .completed))
                #expect((session.state == .pendingExit) == (session.pendingExitAt != nil))
                #expect(session.clockOut.map { $0 >= session.clockIn } ?? true)
            }
            let open = sessions.filter { $0.clockOut == nil }
            #expect(open.count == 1 && open.first?.clockIn == Self.date("2026-11-16T08:05:00Z"))
            func ending(_ start: String) -> Date? { sessions.first { $0.clockIn == Self.date(start) }?.clockOut }
            #expect(ending("2026-11-09T07:58:12.345Z") == Self.date("2026-11-09T16:02:40.001Z"), "a good row as it was")
            #expect(ending("2026-11-10T08:01:00Z") == Self.date("2026-11-10T12:01:00Z"), "by its duration")
            #expect(
                ending("2026-11-11T08:00:00+01:00") == Self.date("2026-11-11T15:30:00+01:00"), "at its pending exit")
            #expect(ending("2026-11-12T07:55:00Z") == Self.date("2026-11-12T15:55:00Z"), "completed")
            #expect(ending("2026-11-13T08:00:00Z") == Self.date("2026-11-13T16:10:00Z"), "the older open one ends")
            let backwards = try #require(sessions.first { $0.clockIn == Self.date("2026-11-14T10:00:00Z") })
            #expect(backwards.minutes == 0 && backwards.short && backwards.method == .manual)
            #expect(sessions.first { $0.clockIn == Self.date("2026-11-15T09:00:00Z") }?.method == .geofence)
            // The export keeps what could not be read, as it was.
            let export = try #require(await phone.app.exportMyData())
            let document = try #require(try JSONSerialization.jsonObject(with: export) as? [String: Any])
            let track = try #require((document["device"] as? [String: Any])?["track"] as? [String: Any])
            let imports = try #require(track["imports"] as? [[String: Any]])
            let unreadable = try #require(imports.first?["unreadable"] as? [[String: Any]])
            #expect(unreadable.first?["clockIn"] as? String == "yesterday morning")
            // Another worker signing in later on this phone takes nothing.
            await phone.app.signOut()
            let colleague = try await lab.api.createUser(
                lab.world.organizer, email: "colleague@acme.test", role: .worker, name: "Cora")
            await phone.app.signIn(
                server: lab.serverURL, email: colleague.user.email, password: DeviceLab.staffPassword)
            #expect(phone.app.trackedSessions.isEmpty && phone.app.workLocations.isEmpty)
            #expect(phone.app.tree().element(UIIdentifier.trackNotice) == nil)
        }
    }

    @Test("track-repair-rules: each inconsistency of a legacy row, named, and how it is mended")
    func rules() {
        func row(
            _ id: String, location: String? = "a", in clockIn: String? = "2026-11-10T08:00:00Z", out: String? = nil,
            minutes: Int? = nil, method: String? = "geofence_auto", state: String? = "completed",
            pending: String? = nil,
            updated: String? = nil
        ) -> LegacySessionRow {
            LegacySessionRow(
                id: id, locationId: location, clockIn: clockIn, clockOut: out, durationMinutes: minutes, method: method,
                state: state, pendingExitAt: pending, exitAccuracy: nil, checkinAccuracy: nil, updatedAt: updated)
        }
        let (sessions, unreadable) = LegacySessionRepair.repair([
            row("fine", out: "2026-11-10T16:00:00Z"),
            row("by-duration", location: "b", minutes: 90),
            row("no-end", location: "c", updated: "2026-11-10T09:00:00Z"),
            row("open-with-end", location: "d", out: "2026-11-10T10:00:00Z", state: "active"),
            row("backwards", location: "e", out: "2026-11-10T07:00:00Z"),
            row("odd", location: "f", out: "2026-11-10T09:00:00Z", method: "auto_v2", state: "done"),
            row("older-open", location: "g", state: "pending_exit"),
            row("newer-open", location: "g", in: "2026-11-11T08:00:00Z", state: "active"),
            row("no-start", in: "soon"),
            row("no-location", location: nil),
        ])
        let repairs = Dictionary(uniqueKeysWithValues: sessions.map { ($0.legacyId, $0.repairs) })
        #expect(repairs["fine"] == [])
        #expect(repairs["by-duration"] == [.completedWithoutClockOut])
        #expect(repairs["no-end"] == [.completedWithoutAnyEnd])
        #expect(sessions.first { $0.legacyId == "no-end" }?.state == .pendingExit, "kept open, not invented")
        #expect(repairs["open-with-end"] == [.clockOutOnOpenSession])
        #expect(repairs["backwards"] == [.endBeforeStart])
        #expect(repairs["odd"] == [.unknownMethod, .unknownState])
        #expect(repairs["older-open"] == [.pendingWithoutTime, .secondOpenSession])
        #expect(repairs["newer-open"] == [])
        #expect(unreadable.map(\.id) == ["no-start", "no-location"])
        for session in sessions {
            #expect((session.clockOut == nil) == (session.state != .completed), "\(session.legacyId)")
            #expect((session.state == .pendingExit) == (session.pendingExitAt != nil), "\(session.legacyId)")
        }
    }
}
