import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// A mentor removed while their phone holds unsent work. The coordinator sees
/// what the mentor's devices last reported before confirming; the phone keeps the entries, says
/// the true reason, and exports them signed out. The rule: the server accepts nothing from a
/// removed account (its sign-ins end with it); the entries stay the mentor's, on their phone and
/// in its export, for the coordinator to enter again if they choose.
@Suite("Peer mentors: a removed account's queue")
struct RemovedAccountTests {
    @Test(
        "pm-removed-user-keeps-queue: removing a mentor whose phone reported unsent work needs confirming; the phone then says the account was removed, keeps every entry and exports them signed out"
    )
    func removedUserKeepsQueue() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("removed")
            await setUp.register(app, setUp.ingrid, notes: "Coffee")
            let coffee = try #require(try await setUp.serverActivities().first)
            let organizer = lab.api.lab(lab.world.organizer)
            // A conflict waits on the mentor; the sync reports it to the server.
            app.update { $0.online = false }
            await app.editActivity(coffee.id, notes: "Coffee and a long talk")
            var corrected = coffee.content
            corrected.notes = "Coffee (coordinator)"
            #expect(
                try await organizer.putActivity(coffee.id, ActivityWrite(content: corrected, baseVersion: 1)).status
                    == 200)
            await app.connectivityChanged(online: true)
            await app.sync()
            #expect(app.pendingCount == 1)
            // Two more visits, offline: the server has not heard of them.
            app.update { $0.online = false }
            await setUp.register(app, setUp.ingrid, notes: "Walk to the harbour", minutes: 60)
            await setUp.register(app, setUp.per, notes: "Read the paper together", minutes: 30)
            #expect(app.pendingCount == 3)
            // The coordinator removes Mia: first told what her phone last reported.
            let path = "/v1/users/\(setUp.mentor.user.id)"
            let asked = try await lab.api.request(.delete, path, token: lab.world.organizer.accessToken)
            #expect(asked.status == 409 && asked.errorCode == "unsent_work", "\(asked.text)")
            let unsent = try asked.decode(UnsentWork.self)
            #expect(unsent.unsent == 1 && unsent.devices.map(\.deviceId) == [app.deviceId])
            #expect(unsent.message.hasPrefix("Mia's devices last reported 1 entry not yet sent."))
            #expect(
                try await lab.api.request(.delete, path + "?confirm=unsent", token: lab.world.organizer.accessToken)
                    .status == 204)
            // Back online: the true reason, and nothing dropped.
            await app.connectivityChanged(online: true)
            await app.sync()
            #expect(!app.isSignedIn)
            let error = try #require(app.tree().element(UIIdentifier.signInError)?.text)
            #expect(error.hasPrefix("Your account was removed by your organizer."), "\(error)")
            #expect(error.contains("3 ") && error.contains("could not be sent"), "\(error)")
            #expect(!error.contains("no longer assigned"))
            // Signed out, the export holds every kept entry.
            let data = try #require(await app.exportMyData())
            let text = String(decoding: data, as: UTF8.self)
            for notes in ["Coffee and a long talk", "Walk to the harbour", "Read the paper together"] {
                #expect(text.contains(notes), "\(notes) is not in the export")
            }
            #expect(text.contains("removed by your organizer"))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            // The two visits as they would have been sent, and the conflict with both versions.
            let outbox = try #require(document["outbox"] as? [[String: Any]])
            #expect(outbox.count == 2 && outbox.allSatisfy { $0["kind"] as? String == "activity" }, "\(outbox)")
            #expect((document["unsent"] as? [String])?.first?.contains("A conflict") == true)
            // The account cannot sign in again; a colleague can, and sees none of it.
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            #expect(!app.isSignedIn)
        }
    }
}
