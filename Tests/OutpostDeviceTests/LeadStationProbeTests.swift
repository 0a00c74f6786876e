import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostLeads
@testable import OutpostShell

/// An exhibitor's lead station on real devices against a real server: it lands on the booth,
/// verifies a badge offline without the roster, captures the lead offline and syncs it once;
/// the attendee's name shows only once they share it; two devices editing one lead keep both
/// sides until the exhibitor chooses (pending at sign-out); the device's CSV is formula-safe.
@Suite("Lead stations (EFx)")
struct LeadStationProbeTests {
    struct Expo {
        var booth: Booth
        var ella: Session
    }

    /// The world's Gala with Acme Robotics' booth (one question), Ella on it.
    @MainActor
    static func expo(_ lab: DeviceLab) async throws -> Expo {
        let ella = try await lab.api.createUser(
            lab.world.organizer, email: "ella@acme.test", role: .exhibitor, name: "Ella Exhibitor")
        let booth = Booth(
            id: .random(), name: "Acme Robotics", questions: [BoothQuestion(key: "budget", text: "Budget this year?")],
            exhibitors: [ella.user.id])
        _ = try await lab.api.lab(lab.world.organizer).call(
            API.setBooths, lab.world.event.id, json: BoothList(booths: [booth]), what: "booths")
        return Expo(booth: booth, ella: ella)
    }

    @MainActor
    static func phone(_ lab: DeviceLab, _ name: String) async throws -> DeviceApp {
        let app = try lab.launch(name)
        await app.signIn(server: lab.serverURL, email: "ella@acme.test", password: DeviceLab.staffPassword)
        return app
    }

    @MainActor
    static func result(_ app: DeviceApp) -> (color: String?, text: String?, lead: String?) {
        let element = app.tree().elements(UIIdentifier.leadsResult).first
        return (element?.attributes["result"], element?.text, element?.attributes["leadId"])
    }

    @MainActor
    static func rows(_ app: DeviceApp) -> [UIElement] { app.tree().elements(UIIdentifier.leadsRow) }

    @Test(
        "lead-offline-capture: a badge scanned offline is a lead at once (verified without the roster); synced once; the name shows only once the attendee shares it"
    )
    func offlineCapture() async throws {
        try await DeviceLab.run { lab in
            let expo = try await Self.expo(lab)
            let guest = lab.world.guests[0]
            let badge = try await lab.ticket(guest)
            let app = try await Self.phone(lab, "ella")
            #expect(app.tree().screen == UIIdentifier.leadsScreen, "an exhibitor lands on the lead station")
            #expect(
                app.tree().elements(UIIdentifier.leadsBooth).map(\.text) == [
                    "▶ Acme Robotics · \(lab.world.event.name)"
                ])
            #expect(app.events.isEmpty, "no event of the tenant is the exhibitor's to open")
            app.update { $0.online = false }
            app.leadScan(badge)
            #expect(Self.result(app).color == "green")
            #expect(Self.result(app).text?.hasPrefix("Lead captured: Attendee ") == true)
            let lead = try #require(Self.result(app).lead.map { LeadID(UUID(uuidString: $0)!) })
            // The same badge again: the same lead, never a second one.
            app.leadScan(badge)
            #expect(Self.result(app).text?.hasPrefix("Already a lead") == true)
            app.leadEdit(lead, rating: 4, notes: "Wants a demo", answers: ["budget": "50k"])
            #expect(app.pendingCount == 1, "one lead waiting (captured, then rated)")
            #expect(Self.rows(app).first?.attributes["syncing"] == "true")
            // A forged badge and another tenant's: red, nothing kept.
            app.leadScan(String(badge.dropLast(3)) + "AAA")
            #expect(Self.result(app).color == "red")
            app.leadScan(
                try await lab.ticket(lab.world.otherGuest, event: lab.world.otherEvent, as: lab.world.otherOrganizer))
            #expect(Self.result(app).color == "red")
            #expect(Self.rows(app).count == 1)
            app.update { $0.online = true }
            await app.sync()
            #expect(app.pendingCount == 0)
            let server = try await lab.api.lab(expo.ella).call(API.leads, expo.booth.id, what: "leads").leads
            #expect(server.count == 1 && server.first?.id == lead && server.first?.version == 2)
            #expect(server.first?.content.answers == ["budget": "50k"])
            #expect(Self.rows(app).first?.attributes["shared"] == "false")
            #expect(Self.rows(app).first?.text.contains(guest.name) == false)
            // The attendee agrees: the name comes with the next sync.
            _ = try await lab.api.lab(lab.world.organizer).call(
                API.setContactConsent, lab.world.event.id, guest.id, json: ContactConsent(sharesContact: true),
                what: "agree")
            await app.sync()
            #expect(Self.rows(app).first?.text.hasPrefix(guest.name) == true)
            #expect(Self.rows(app).first?.attributes["shared"] == "true")
        }
    }

    @Test(
        "lead-edit-conflict: two devices edit one lead; the later keeps both sides as a conflict (pending at sign-out) until the exhibitor keeps theirs or the other"
    )
    func conflict() async throws {
        try await DeviceLab.run { lab in
            let expo = try await Self.expo(lab)
            let badge = try await lab.ticket(lab.world.guests[1])
            let phone = try await Self.phone(lab, "ella-phone")
            phone.leadScan(badge)
            let lead = try #require(Self.result(phone).lead.map { LeadID(UUID(uuidString: $0)!) })
            await phone.sync()
            let tablet = try await Self.phone(lab, "ella-tablet")
            #expect(Self.rows(tablet).count == 1, "the booth's leads come with the sync")
            phone.leadEdit(lead, notes: "From the phone")
            tablet.leadEdit(lead, notes: "From the tablet")
            await phone.sync()
            await tablet.sync()
            #expect(tablet.tree().elements(UIIdentifier.leadsConflict).count == 1)
            #expect(tablet.pendingCount == 1, "the entry left the outbox; the conflict is the pending work")
            await tablet.signOut()
            #expect(tablet.tree().screen == UIIdentifier.signOutPendingWarning, "a conflict counts as pending")
            // Kept through a sign-out and the next sign-in.
            await tablet.signOut(.keep)
            #expect(!tablet.isSignedIn)
            await tablet.signIn(server: lab.serverURL, email: "ella@acme.test", password: DeviceLab.staffPassword)
            #expect(tablet.tree().elements(UIIdentifier.leadsConflict).count == 1)
            tablet.leadResolve(lead, keepMine: true)
            await tablet.sync()
            #expect(tablet.tree().elements(UIIdentifier.leadsConflict).isEmpty)
            let server = try await lab.api.lab(expo.ella).call(API.leads, expo.booth.id, what: "leads").leads
            #expect(server.first?.content.notes == "From the tablet" && server.first?.version == 3)
            // The device's CSV: formula-safe, the question's column.
            tablet.leadEdit(lead, notes: "=HYPERLINK(\"http://evil.test\")")
            let csv = try #require(tablet.leadsCSV)
            #expect(
                csv.hasPrefix("captured_at,name,email,attendee_id,rating,notes,Budget this year?,captured_by,version"))
            #expect(csv.contains("\"'=HYPERLINK(\"\"http://evil.test\"\")\""))
        }
    }
}
