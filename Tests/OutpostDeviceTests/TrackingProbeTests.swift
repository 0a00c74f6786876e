import Foundation
import GRDB
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

/// A care worker's phone: its clock, where an active GPS fetch finds it, and the app.
@MainActor
final class WorkerPhone {
    let lab: DeviceLab
    let name: String
    let clock = ManualClock(Date(timeIntervalSince1970: 1_795_075_200))  // Thursday 2026-11-19 08:00 UTC
    let position = LockedBox<GeoFix?>(nil)
    let permission = LockedBox<LocationPermission>(.always)
    var language = AppLanguage.en
    let transport: (@Sendable (any Transport) -> any Transport)?
    private(set) var app: DeviceApp
    /// The worker's e-mail.
    let email: String

    /// A phone of a new worker `name`, or (with `email`) another phone of an existing worker.
    init(
        _ lab: DeviceLab, _ name: String, email: String? = nil,
        transport: (@Sendable (any Transport) -> any Transport)? = nil
    ) async throws {
        self.lab = lab
        self.name = name
        self.transport = transport
        let position = position
        let permission = permission
        app = try lab.launch(
            name, clock: clock.wallClock, monotonic: clock.monotonicClock, modules: .all, gps: { position.value },
            locationPermission: { permission.value }, transport: transport)
        if let email {
            self.email = email
        } else {
            self.email = try await lab.api.createUser(
                lab.world.organizer, email: "\(name)@acme.test", role: .worker, name: "Wanda"
            ).user.email
        }
        for _ in 0..<5 where !app.isSignedIn {
            await app.signIn(server: lab.serverURL, email: self.email, password: DeviceLab.staffPassword)
        }
        try #require(app.isSignedIn)
        try #require(app.tree().screen == UIIdentifier.trackStatusScreen, "a worker lands on the status screen")
    }

    /// The app is killed and launched again (a launch is a foreground).
    func relaunch() throws {
        let position = position
        let permission = permission
        app = try lab.launch(
            name, clock: clock.wallClock, monotonic: clock.monotonicClock, modules: .all, gps: { position.value },
            locationPermission: { permission.value }, language: language, transport: transport)
    }

    /// Submit on `day`, reading the first-time explanation when it comes (``CalendarProbeTests``
    /// tests it on its own).
    func confirm(_ day: String) async {
        await app.confirmTrackedDay(day)
        if app.tree().screen == UIIdentifier.trackSubmitExplanation { await app.continueSubmit() }
    }

    func addLocation(_ name: String = "Care home Nord") throws -> WorkLocation {
        app.addWorkLocation(name: name, latitude: 52.52, longitude: 13.405, radius: 100)
        #expect(app.tree().element(UIIdentifier.trackNotice)?.text.hasPrefix("\(name) added") == true)
        app.showTracking(.status)
        return try #require(app.workLocations.first { $0.name == name })
    }

    func fix(
        _ location: WorkLocation, metres: Double, accuracy: Double, _ source: AccuracySource = .activeFetch
    )
        -> GeoFix
    {
        GeoFix(location.fence.center.moved(metres: metres, bearing: 45), accuracy: accuracy, source: source)
    }

    /// Minutes of each completed session, oldest first.
    var completedMinutes: [Int] { app.trackedSessions.compactMap(\.minutes) }
}

/// Time tracking on the device engine (seed 003).
@Suite("Time tracking on the device")
struct TrackingProbeTests {
    @Test(
        "track-day: arrive, leave with a good fix (immediate), come back, leave with a fair fix (pending, verified outside at 5 minutes, backdated)"
    )
    func day() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "day")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 10, accuracy: 30, .event))
            #expect(phone.app.tree().element(UIIdentifier.trackLocationCard)?.attributes["state"] == "active")
            phone.clock.advance(by: 4 * 3600)
            phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 250, accuracy: 20))
            #expect(phone.completedMinutes == [240])
            phone.clock.advance(by: 1800)
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 20, accuracy: 30))
            phone.clock.advance(by: 3 * 3600)
            phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 180, accuracy: 70))
            var tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.trackLocationCard)?.attributes["state"] == "pending_exit")
            #expect(tree.contains(UIIdentifier.trackPendingExit))
            // The phone is well away; the checks at 1, 3 and 5 minutes run in the background.
            phone.position.value = phone.fix(home, metres: 600, accuracy: 30)
            phone.clock.advance(by: 2 * 60)
            phone.app.backgroundTimePassed()
            #expect(phone.app.trackedSessions.last?.state == .pendingExit, "outside, but not the last check yet")
            phone.clock.advance(by: 4 * 60)
            phone.app.backgroundTimePassed()
            #expect(phone.completedMinutes == [240, 180], "backdated to the exit, not the check")
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.trackLocationCard)?.attributes["state"] == "none")
            phone.app.showTracking(.history)
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.trackHistoryTotal)?.attributes["minutes"] == "420")
        }
    }

    @Test("track-reentry-cancels: back within 5 minutes, the pending exit is cancelled and the session continues")
    func reentry() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "reentry")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 30))
            phone.clock.advance(by: 3600)
            phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 130, accuracy: 60))
            phone.clock.advance(by: 120)
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 30, accuracy: 40))
            let sessions = phone.app.trackedSessions
            #expect(sessions.count == 1 && sessions[0].state == .active && sessions[0].pendingExitAt == nil)
            // Nothing left to verify.
            phone.clock.advance(by: 600)
            phone.app.backgroundTimePassed()
            #expect(phone.app.trackedSessions.map(\.state) == [.active])
        }
    }

    @Test(
        "track-pending-survives-kill: a pending exit survives a kill; the next launch after the window confirms it, backdated"
    )
    func pendingSurvivesKill() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "killed")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 30))
            phone.clock.advance(by: 2 * 3600)
            phone.app.geofence(.exit, location: home.id, fix: nil)
            #expect(phone.app.trackedSessions.last?.state == .pendingExit)
            // Killed; no check ran (no fix anyway); opened an hour later.
            phone.clock.advance(by: 3600)
            try phone.relaunch()
            let sessions = phone.app.trackedSessions
            #expect(sessions.map(\.state) == [.completed])
            #expect(sessions.first?.minutes == 120)
        }
    }

    @Test("track-short-session-kept: a session under 5 minutes is kept and flagged for review")
    func shortSession() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "short")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 30))
            phone.clock.advance(by: 180)
            phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 300, accuracy: 15))
            let session = try #require(phone.app.trackedSessions.first)
            #expect(session.short && session.minutes == 3)
            phone.app.showTracking(.history)
            let row = try #require(phone.app.tree().element(UIIdentifier.trackHistorySession))
            #expect(row.attributes["short"] == "true" && row.text.contains("short, please review"))
        }
    }

    @Test(
        "track-invariant-in-store: the store refuses a session whose clock-out and state disagree, and a second open one"
    )
    func invariant() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "invariant")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 30))
            let queue = try #require(phone.app.store).queue
            let now = phone.clock.now.millisecondsSince1970
            let refused = [
                "INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method) VALUES ('a', 'o', 'x', \(now), \(now + 1), 'active', 'manual')",
                "INSERT INTO track_sessions (id, owner, location_id, clock_in, state, method) VALUES ('b', 'o', 'x', \(now), 'completed', 'manual')",
                "INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method) VALUES ('c', 'o', 'x', \(now), \(now - 1), 'completed', 'manual')",
                "INSERT INTO track_sessions (id, owner, location_id, clock_in, state, method) VALUES ('d', 'o', 'x', \(now), 'pending_exit', 'manual')",
                "INSERT INTO track_sessions (id, owner, location_id, clock_in, state, method) VALUES ('e', 'o', '\(home.id.wire)', \(now), 'active', 'manual')",
                "UPDATE track_sessions SET state = 'completed'",
                "UPDATE track_sessions SET clock_out = \(now + 60)",
            ]
            for sql in refused {
                #expect(throws: DatabaseError.self, "\(sql)") { try queue.write { try $0.execute(sql: sql) } }
            }
            #expect(phone.app.trackedSessions.map(\.state) == [.active])
            // A consistent row is accepted: the refusals above are the constraints, not the SQL.
            try await queue.write {
                try $0.execute(
                    sql:
                        "INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method) VALUES ('f', 'o', 'x', \(now), \(now + 60), 'completed', 'manual')"
                )
            }
        }
    }

    @Test(
        "track-shared-phone: two workers on one phone each see only their own locations and hours; signing out loses nothing"
    )
    func sharedPhone() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "shared")
            let home = try phone.addLocation("Wanda's client")
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 30))
            phone.clock.advance(by: 2 * 3600)
            phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 300, accuracy: 10))
            await phone.app.signOut()
            let other = try await lab.api.createUser(
                lab.world.organizer, email: "otto@acme.test", role: .worker, name: "Otto")
            await phone.app.signIn(server: lab.serverURL, email: other.user.email, password: DeviceLab.staffPassword)
            #expect(phone.app.workLocations.isEmpty && phone.app.trackedSessions.isEmpty)
            phone.app.showTracking(.history)
            #expect(!phone.app.tree().contains(UIIdentifier.trackHistorySession))
            _ = try phone.addLocation("Otto's client")
            await phone.app.signOut()
            await phone.app.signIn(server: lab.serverURL, email: "shared@acme.test", password: DeviceLab.staffPassword)
            #expect(phone.app.workLocations.map(\.name) == ["Wanda's client"])
            #expect(phone.completedMinutes == [120])
        }
    }

    @Test("track-locations: add, edit, remove; at most 20 with a clear message; not removed while clocked in there")
    func locations() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "locations")
            for index in 1...20 {
                phone.app.addWorkLocation(
                    name: "Client \(index)", latitude: 52.5, longitude: 13.4 + Double(index) / 100)
            }
            phone.app.addWorkLocation(name: "Client 21", latitude: 52.5, longitude: 13.7)
            var tree = phone.app.tree()
            #expect(phone.app.workLocations.count == 20)
            #expect(tree.element(UIIdentifier.trackError)?.text.contains("at most 20 work locations") == true)
            #expect(tree.element(UIIdentifier.trackLocationAdd)?.attributes["enabled"] == "false")
            phone.app.addWorkLocation(name: "Tiny", latitude: 52.5, longitude: 13.4, radius: 10)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text.contains("between 50 and 5000") == true)
            let first = try #require(phone.app.workLocations.first)
            phone.app.editWorkLocation(first.id, name: "Home of Mr. Berg", radius: 150)
            #expect(phone.app.workLocations.first?.name == "Home of Mr. Berg")
            #expect(phone.app.workLocations.first?.fence.radius == 150)
            phone.app.clockIn(at: first.id)
            phone.app.removeWorkLocation(first.id)
            tree = phone.app.tree()
            #expect(
                tree.element(UIIdentifier.trackError)?.text
                    == "You are clocked in at Home of Mr. Berg. Clock out first.")
            phone.clock.advance(by: 3600)
            phone.app.clockOut(at: first.id)
            phone.app.removeWorkLocation(first.id)
            #expect(phone.app.workLocations.count == 19)
            #expect(phone.app.trackedSessions.map(\.minutes) == [60], "its sessions are kept")
        }
    }

    @Test("track-manual-sessions: no future, end after start, no overlap at the same location; manual clock in and out")
    func manualSessions() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "manual")
            let home = try phone.addLocation()
            let other = try phone.addLocation("Day centre")
            let now = phone.clock.now
            let hour: TimeInterval = 3600
            phone.app.addManualSession(
                at: home.id, from: now.addingTimeInterval(-3 * hour), to: now.addingTimeInterval(-1 * hour))
            #expect(phone.app.tree().element(UIIdentifier.trackNotice)?.text == "Session added.")
            let refusals: [(Date, Date, String)] = [
                (now.addingTimeInterval(-hour), now.addingTimeInterval(hour), "cannot end in the future"),
                (now.addingTimeInterval(-hour), now.addingTimeInterval(-2 * hour), "must be after the start"),
                (now.addingTimeInterval(-2 * hour), now.addingTimeInterval(-0.5 * hour), "overlaps"),
            ]
            for (start, end, says) in refusals {
                phone.app.addManualSession(at: home.id, from: start, to: end)
                #expect(phone.app.tree().element(UIIdentifier.trackError)?.text.contains(says) == true, "\(says)")
            }
            // The same hours at another location are fine.
            phone.app.addManualSession(
                at: other.id, from: now.addingTimeInterval(-2 * hour), to: now.addingTimeInterval(-0.5 * hour))
            #expect(phone.app.trackedSessions.count == 2)
            phone.app.clockIn(at: home.id)
            phone.app.clockIn(at: home.id)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text == "You are already clocked in there.")
            phone.clock.advance(by: 30 * 60)
            phone.app.clockOut(at: home.id)
            #expect(phone.app.trackedSessions.filter { $0.method == .manual }.count == 3)
            #expect(phone.app.trackedSessions.last?.minutes == 30)
        }
    }

    @Test(
        "track-profiles-differ: a degraded exit is ignored under seed (the worker stays clocked in) and pends under field (clocked out after 10 minutes)"
    )
    func profiles() async throws {
        try await DeviceLab.run { lab in
            for profile in HysteresisPolicy.profiles {
                let phone = try await WorkerPhone(lab, "profile-\(profile.name)")
                phone.app.setGeofenceProfile(profile)
                let home = try phone.addLocation()
                phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 0, accuracy: 10, .event))
                phone.clock.advance(by: 3600)
                phone.app.geofence(.exit, location: home.id, fix: phone.fix(home, metres: 220, accuracy: 60, .event))
                // No checks run (the phone is in a pocket, no fix); a timer tick 11 minutes on.
                phone.clock.advance(by: 11 * 60)
                phone.app.backgroundTimePassed()
                let states = phone.app.trackedSessions.map(\.state)
                if profile.name == "seed" {
                    #expect(states == [.active], "seed ignores the degraded exit")
                } else {
                    #expect(states == [.completed], "field confirms it at the stale limit")
                    #expect(phone.completedMinutes == [60])
                }
                let events = try phone.app.trackingStore.trackingEvents(
                    owner: try #require(phone.app.session?.user.id))
                #expect(events.contains { $0.kind == "exit" && $0.source == "event" })
                if profile.name == "seed" { #expect(events.contains { $0.ignored == "signal_degradation" }) }
            }
        }
    }

    @Test("track-history-and-csv: the history filters by week, month and location; the CSV has the seed's columns")
    func historyAndCSV() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "history")  // now: Thursday 2026-11-19 08:00 UTC
            let home = try phone.addLocation()
            let centre = try phone.addLocation("Day centre")
            let day: TimeInterval = 86_400
            let monday = Date(timeIntervalSince1970: 1_794_787_200)  // 2026-11-16 00:00 UTC
            phone.app.addManualSession(
                at: home.id, from: monday.addingTimeInterval(8 * 3600), to: monday.addingTimeInterval(16.5 * 3600))
            phone.app.addManualSession(
                at: centre.id, from: monday.addingTimeInterval(-4 * day + 9 * 3600),
                to: monday.addingTimeInterval(-4 * day + 9 * 3600 + 240))
            phone.app.addManualSession(
                at: home.id, from: monday.addingTimeInterval(-20 * day + 8 * 3600),
                to: monday.addingTimeInterval(-20 * day + 12 * 3600))
            @MainActor func minutes(_ range: TrackingRange, _ location: LocationID? = nil) -> String? {
                phone.app.showTrackingHistory(range: range, location: location)
                return phone.app.tree().element(UIIdentifier.trackHistoryTotal)?.attributes["minutes"]
            }
            #expect(minutes(.week) == "510")
            #expect(minutes(.month) == "514")
            #expect(minutes(.all) == "754")
            #expect(minutes(.all, centre.id) == "4")
            let csv = try phone.app.trackingCSV(location: home.id, range: .all, timeZone: TimeZone(identifier: "UTC")!)
            #expect(
                csv == "Date,Day,Clock In,Clock Out,Duration,Method,Status,Location\r\n"
                    + "2026-10-27,Tuesday,08:00,12:00,4:00,Manual,completed,\(home.name)\r\n"
                    + "2026-11-16,Monday,08:00,16:30,8:30,Manual,completed,\(home.name)\r\n")
            // track-export-location-column: every location's export names each row's.
            let all = try phone.app.trackingCSV(range: .all, timeZone: TimeZone(identifier: "UTC")!)
            #expect(all.contains("Manual,completed (short),\(centre.name)\r\n") && all.contains(",\(home.name)\r\n"))
            let short = try phone.app.trackingCSV(location: centre.id, timeZone: TimeZone(identifier: "UTC")!)
            #expect(short.contains("0:04,Manual,completed (short)"))
        }
    }
}

/// The permission warning and the German copy.
@Suite("Time tracking: permission warning and languages")
struct TrackingCopyTests {
    @Test(
        "track-permission-warning: with 'While Using' or no location access the status screen warns; dismissed, it is back after a week"
    )
    func permissionWarning() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "permission")
            _ = try phone.addLocation()
            #expect(!phone.app.tree().contains(UIIdentifier.trackPermissionWarning), "'Always' needs no warning")
            phone.permission.value = .whenInUse
            phone.app.showTracking(.status)
            let warning = try #require(phone.app.tree().element(UIIdentifier.trackPermissionWarning))
            #expect(warning.attributes["permission"] == "when-in-use" && warning.text.contains("“Always”"))
            phone.app.dismissPermissionWarning()
            #expect(!phone.app.tree().contains(UIIdentifier.trackPermissionWarning))
            phone.clock.advance(by: 6 * 86_400)
            try phone.relaunch()
            phone.app.showTracking(.status)
            #expect(!phone.app.tree().contains(UIIdentifier.trackPermissionWarning), "dismissed for a week")
            phone.clock.advance(by: 86_400 + 60)
            phone.permission.value = .denied
            phone.app.showTracking(.status)
            #expect(phone.app.tree().element(UIIdentifier.trackPermissionWarning)?.text.contains("by hand") == true)
        }
    }

    @Test("track-locale-de: the tracking screens, notices and errors speak German when the phone does")
    func german() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "deutsch")
            let home = try phone.addLocation()
            phone.language = .de
            try phone.relaunch()
            phone.app.showTracking(.status)
            var tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.tabTrackHistory)?.text == "Verlauf")
            #expect(tree.element(UIIdentifier.trackLocationCard)?.text == "Care home Nord · nicht eingestempelt")
            // The notice of an action taken in English reads in German now (it is kept as a value).
            #expect(
                tree.element(UIIdentifier.trackNotice) == nil
                    || tree.element(UIIdentifier.trackNotice)?.text.contains("hinzugefügt") == true)
            phone.app.clockIn(at: home.id)
            phone.clock.advance(by: 125 * 60)
            phone.app.showTracking(.status)
            tree = phone.app.tree()
            #expect(
                tree.element(UIIdentifier.trackLocationCard)?.text
                    == "Care home Nord · eingestempelt seit 2 Std. 05 Min.")
            #expect(tree.element(UIIdentifier.trackClockOut)?.text == "Ausstempeln: Care home Nord")
            phone.app.clockIn(at: home.id)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text == "Du bist dort schon eingestempelt.")
            phone.app.addWorkLocation(name: "X", latitude: 52.5, longitude: 13.4, radius: 5)
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text
                    == "Der Radius muss zwischen 50 und 5000 Metern liegen.")
            phone.app.clockOut(at: home.id)
            phone.app.showTracking(.history)
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.trackHistoryTotal)?.text == "Gesamt 2 Std. 05 Min.")
            #expect(
                tree.element(UIIdentifier.trackHistorySession)?.text.hasSuffix("· 2 Std. 05 Min. · manuell") == true)
            // English again.
            phone.language = .en
            try phone.relaunch()
            phone.app.showTracking(.history)
            #expect(phone.app.tree().element(UIIdentifier.trackHistoryTotal)?.text == "Total 2 h 05 min")
        }
    }
}
