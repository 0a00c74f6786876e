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

/// A worker's data rights on the device (seed 003 "Data Privacy"): the export
/// holds every record they made, on the phone and on the server; deleting the account removes
/// it from the server and the phone and leaves a colleague who shares the phone untouched.
@Suite("Data rights: export and delete")
struct PrivacyProbeTests {
    @Test(
        "gdpr-export-every-record: the export holds every location, session, confirmed day and engine event, and the server's copy"
    )
    func export() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "export")
            let home = try phone.addLocation()
            let other = try phone.addLocation("Haus Linde")
            let date = DaySubmissionProbeTests.workMorning(phone, at: home)
            // An EXIT where nobody is clocked in is ignored (no_session), and recorded.
            phone.app.geofence(.exit, location: other.id, fix: nil)
            DaySubmissionProbeTests.nextMorning(phone)
            let start = phone.clock.now.addingTimeInterval(-3600)
            phone.app.addManualSession(at: other.id, from: start, to: start.addingTimeInterval(1800))
            await phone.confirm(date)
            try #require(phone.app.confirmedDays[date]?.status == .submitted)
            let data = try #require(await phone.app.exportMyData())
            #expect(phone.app.tree().screen == UIIdentifier.privacyScreen)
            #expect(phone.app.tree().element(UIIdentifier.privacyMessage)?.text.contains("and the server") == true)
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let user = try #require(document["user"] as? [String: Any])
            #expect(user["email"] as? String == phone.email)
            let track = try #require((document["device"] as? [String: Any])?["track"] as? [String: Any])
            let locations = try #require(track["locations"] as? [[String: Any]])
            #expect(Set(locations.compactMap { $0["name"] as? String }) == ["Care home Nord", "Haus Linde"])
            let sessions = try #require(track["sessions"] as? [[String: Any]])
            #expect(
                Set(sessions.compactMap { ($0["id"] as? String)?.lowercased() })
                    == Set(phone.app.trackedSessions.map { $0.id.uuidString.lowercased() }))
            let days = try #require(track["confirmedDays"] as? [[String: Any]])
            #expect(days.map { $0["day"] as? String } == [date])
            // track-export-one-time-format: every time in the device's half is
            // RFC 3339 text, as in the server's half; no epoch milliseconds.
            for session in sessions {
                let clockIn = try #require(session["clockIn"] as? String, "\(session)")
                #expect(OutpostJSON.parse(clockIn) != nil, "\(clockIn)")
            }
            for day in days { #expect((day["confirmedAt"] as? String).flatMap(OutpostJSON.parse) != nil, "\(day)") }
            let events = try #require(track["events"] as? [[String: Any]])
            let owner = try #require(phone.app.trackingModule?.owner)
            #expect(events.count == (try phone.app.trackingStore.trackingEvents(owner: owner).count ?? -1))
            #expect(events.contains { $0["ignored"] as? String != nil }, "ignored events are in it, with their reason")
            let server = try #require(document["server"] as? [String: Any])
            #expect((server["days"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == [date])
            // Offline: the phone's records, and a note that the server's copy needs a connection.
            await phone.app.connectivityChanged(online: false)
            let offline = try #require(await phone.app.exportMyData())
            let partial = try #require(try JSONSerialization.jsonObject(with: offline) as? [String: Any])
            #expect(partial["server"] is NSNull && partial["serverNote"] != nil)
            #expect(((partial["device"] as? [String: Any])?["track"] as? [String: Any])?["sessions"] != nil)
        }
    }

    @Test(
        "gdpr-delete-leaves-nothing: pending entries warn first; offline nothing is deleted; then the server and the phone hold nothing of the worker, and a colleague on the same phone keeps theirs"
    )
    func delete() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "shared")
            let home = try phone.addLocation()
            let date = DaySubmissionProbeTests.workMorning(phone, at: home)
            DaySubmissionProbeTests.nextMorning(phone)
            await phone.confirm(date)
            let workerId = try #require(phone.app.trackingModule?.owner)
            let sessionIds = phone.app.trackedSessions.map { $0.id.uuidString }
            // A colleague uses the same phone for a while.
            await phone.app.signOut()
            let colleague = try await lab.api.createUser(
                try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass"),
                email: "colleague@acme.test", role: .worker, name: "Cora")
            await phone.app.signIn(
                server: lab.serverURL, email: colleague.user.email, password: DeviceLab.staffPassword)
            _ = try phone.addLocation("Haus Linde")
            await phone.app.signOut()
            await phone.app.signIn(server: lab.serverURL, email: phone.email, password: DeviceLab.staffPassword)
            try #require(phone.app.workLocations.map(\.name) == ["Care home Nord"])
            // Another day waits to be sent.
            await phone.app.connectivityChanged(online: false)
            let dayBefore = phone.clock.now.addingTimeInterval(-2 * 86_400)
            phone.app.addManualSession(at: home.id, from: dayBefore, to: dayBefore.addingTimeInterval(3600))
            await phone.confirm(ActivityDate.day(of: dayBefore, in: TimeZone(identifier: "UTC")!))
            #expect(phone.app.pendingCount == 1)
            await phone.app.deleteMyAccount()
            var tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.privacyDeleteWarning)?.text.hasPrefix("1 day is still waiting") == true)
            #expect(phone.app.isSignedIn && phone.app.trackedSessions.count == 2, "nothing deleted yet")
            await phone.app.deleteMyAccount(confirmed: true)
            tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.privacyMessage)?.text.contains("offline") == true)
            #expect(phone.app.isSignedIn && phone.app.workLocations.count == 1)
            await phone.app.connectivityChanged(online: true)
            await phone.app.deleteMyAccount()
            #expect(!phone.app.isSignedIn)
            #expect(phone.app.tree().screen == UIIdentifier.signIn)
            #expect(phone.app.tree().element(UIIdentifier.signInNotice)?.text.contains("were deleted") == true)
            // The server: no sign-in, no account for the organizer to see.
            let refused = try await lab.api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: phone.email, password: DeviceLab.staffPassword, deviceId: "x"))
            #expect(refused.status == 401)
            let organizer = try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass")
            #expect(
                try await lab.api.request(
                    .get, "/v1/tracking/users/\(workerId)/days", token: organizer.accessToken
                ).status == 404)
            // The phone: no plaintext of the worker in any file.
            let files = try DeviceFiles.readAll(lab.home("shared"))
            for secret in [phone.email, workerId.wire] + sessionIds {
                #expect(!DeviceFiles.contains(files, secret), "\(secret) is still on the phone")
            }
            // The colleague's data is untouched.
            await phone.app.signIn(
                server: lab.serverURL, email: colleague.user.email, password: DeviceLab.staffPassword)
            #expect(phone.app.workLocations.map(\.name) == ["Haus Linde"])
        }
    }
}
