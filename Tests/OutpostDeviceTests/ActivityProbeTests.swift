import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostShell

/// A mentor's world on the lab's server: mentor Mia with two assigned contacts (the first with
/// every sensitive field), and a phone running every module.
@MainActor
struct MentorSetUp {
    static let secrets = ContactSensitive(
        address: "Fjordveien 12, 9990 Båtsfjord", phone: "+47 915 55 012",
        healthNotes: "Hearing aid left ear; insulin at 18:00")

    let lab: DeviceLab
    let mentor: Session
    let ingrid: Contact
    let per: Contact

    static func make(_ lab: DeviceLab) async throws -> MentorSetUp {
        let mentor = try await lab.api.createUser(
            lab.world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
        let organizer = lab.api.lab(lab.world.organizer)
        let ingrid = try await organizer.createContact(
            CreateContactRequest(
                name: "Ingrid Solberg", area: "Båtsfjord", address: secrets.address, phone: secrets.phone,
                healthNotes: secrets.healthNotes))
        let per = try await organizer.createContact(CreateContactRequest(name: "Per Hansen", area: "Vardø"))
        try await organizer.assignContact(ingrid.id, to: mentor.user.id)
        try await organizer.assignContact(per.id, to: mentor.user.id)
        return MentorSetUp(lab: lab, mentor: mentor, ingrid: ingrid, per: per)
    }

    /// A phone signed in as Mia (landing on her activities, contacts cached).
    func phone(_ name: String, biometricUnlock: Bool = false) async throws -> (Phone, DeviceApp) {
        let phone = Phone(lab, name)
        phone.modules = .all
        let app = try phone.launch()
        await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
        try #require(app.isSignedIn, "\(app.tree().elements)")
        if biometricUnlock {
            app.setBiometricUnlock(true)
            try #require(app.biometricUnlockEnabled)
        }
        return (phone, app)
    }

    func register(_ app: DeviceApp, _ contact: Contact, notes: String, minutes: Int = 45) async {
        await app.registerActivity(
            contact: contact.id, type: .visit, date: "2026-11-17", durationMinutes: minutes, notes: notes)
    }

    /// The mentor's activities as the server has them.
    func serverActivities() async throws -> [Activity] {
        try await lab.api.lab(try await lab.api.signIn(email: "mia@acme.test", password: DeviceLab.staffPassword))
            .activities()
    }
}

/// Seed 004 on the device engine: the activities module and contacts, offline and back, against
/// a real server over loopback HTTP.
@Suite("Peer mentors on the device")
struct ActivityProbeTests {
    @Test(
        "pm-offline-register (seed 004 criterion 1): offline, registering works as online and queues; pm-sync-on-reconnect (criterion 4): back online they sync and one notice says so"
    )
    func offlineRegisterAndSync() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("register")
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.activitiesScreen, "a mentor lands on their activities")
            #expect(tree.contains(UIIdentifier.tabContacts))
            // Online: saved and sent at once.
            await setUp.register(app, setUp.per, notes: "Online visit")
            #expect(app.pendingCount == 0)
            #expect(try await setUp.serverActivities().count == 1)
            // Offline: the same flow, queued.
            app.update { $0.online = false }
            await setUp.register(app, setUp.ingrid, notes: "Coffee and cards")
            await setUp.register(app, setUp.per, notes: "Walk to the harbour", minutes: 60)
            tree = app.tree()
            #expect(tree.element(UIIdentifier.activitySaved)?.text.contains("will sync when you're online") == true)
            #expect(tree.elements(UIIdentifier.activityRow).count == 3)
            #expect(tree.elements(UIIdentifier.activityRow).filter { $0.attributes["syncing"] == "true" }.count == 2)
            #expect(app.pendingCount == 2)
            #expect(tree.element(UIIdentifier.pendingSyncBanner)?.text == "2 activities waiting to sync")
            #expect(try await setUp.serverActivities().count == 1)
            // Connectivity returns: they sync by themselves, and one notice tells.
            await app.connectivityChanged(online: true)
            tree = app.tree()
            #expect(app.pendingCount == 0)
            #expect(tree.element(UIIdentifier.activitySyncNotice)?.text == "2 activities synced")
            #expect(tree.elements(UIIdentifier.activityRow).allSatisfy { $0.attributes["syncing"] == "false" })
            let server = try await setUp.serverActivities()
            #expect(Set(server.map(\.notes)) == ["Online visit", "Coffee and cards", "Walk to the harbour"])
            #expect(server.allSatisfy { $0.version == 1 })
            // The notice is shown once: the next action clears it.
            app.showContacts()
            app.showActivities()
            #expect(!app.tree().contains(UIIdentifier.activitySyncNotice))
        }
    }

    @Test(
        "pm-offline-indicator (seed 004 criterion 3): every screen shows the same calm offline indicator with when the data was last updated, and the cached data"
    )
    func offlineIndicator() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (phone, app) = try await setUp.phone("indicator")
            phone.clock.advance(by: 600)
            app.update { $0.online = false }
            app.showActivities()
            let screens = [
                app.tree(),
                {
                    app.showContacts(); return app.tree()
                }(),
                { () -> UITree in
                    app.showModule(named: "activities")
                    return app.tree()
                }(),
            ]
            await app.showContact(setUp.ingrid.id)
            for tree in screens + [app.tree()] {
                let banner = try #require(tree.element(UIIdentifier.offlineBanner), "\(tree.screen)")
                #expect(banner.attributes["tone"] == "neutral")
                #expect(banner.attributes["lastUpdated"] != nil, "\(tree.screen)")
                #expect(banner.text.contains("last updated"))
                for alarming in ["error", "fail", "lost", "!"] { #expect(!banner.text.lowercased().contains(alarming)) }
            }
            #expect(app.tree().element(UIIdentifier.contactCachedInfo)?.attributes["name"] == "Ingrid Solberg")
            app.showContacts()
            #expect(app.tree().elements(UIIdentifier.contactRow).count == 2, "the cached contacts")
        }
    }

    @Test(
        "pm-encrypted-offline (seed 004 criterion 6): offline, encrypted details say they need a connection and the cached information shows; online they are revealed in memory only, never stored"
    )
    func encryptedOffline() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (phone, app) = try await setUp.phone("encrypted")
            app.update { $0.online = false }
            await app.showContact(setUp.ingrid.id, reveal: true)
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.contactDetailScreen)
            #expect(
                tree.element(UIIdentifier.contactEncryptedOffline)?.text.hasPrefix(
                    "Encrypted content requires a connection") == true)
            #expect(tree.element(UIIdentifier.contactEncryptedOffline)?.attributes["tone"] == "neutral")
            #expect(tree.element(UIIdentifier.contactCachedInfo)?.text.contains("Båtsfjord") == true)
            #expect(!tree.contains(UIIdentifier.contactSensitiveField))
            // Online: every sensitive field, for this screen.
            app.update { $0.online = true }
            await app.showContact(setUp.ingrid.id, reveal: true)
            tree = app.tree()
            let fields = tree.elements(UIIdentifier.contactSensitiveField)
            #expect(fields.map { $0.attributes["field"] } == ["address", "phone", "healthNotes"])
            #expect(fields.contains { $0.text.contains(MentorSetUp.secrets.healthNotes!) })
            // Audited on the server.
            #expect(try await lab.api.lab(lab.world.organizer).reveals(setUp.ingrid.id).count == 1)
            // Nothing revealed is stored: the device home's every file, byte by byte.
            let revealedHome = try DeviceFiles.readAll(lab.home("encrypted"))
            #expect(revealedHome.contains { $0.name == "device.sqlite-wal" }, "the WAL is inspected too")
            for secret in [
                MentorSetUp.secrets.address!, MentorSetUp.secrets.phone!, MentorSetUp.secrets.healthNotes!,
                "Ingrid Solberg", "Båtsfjord",
            ] {
                #expect(!DeviceFiles.contains(revealedHome, secret), "\(secret) is on disk")
            }
            // A relaunch shows the cached information again, not the revealed fields.
            let again = try phone.launch()
            #expect(again.tree().screen == UIIdentifier.contactDetailScreen)
            #expect(!again.tree().contains(UIIdentifier.contactSensitiveField))
            // Leaving the screen forgets them too.
            app.showContacts()
            await app.showContact(setUp.ingrid.id)
            #expect(!app.tree().contains(UIIdentifier.contactSensitiveField))
        }
    }

    @Test(
        "pm-conflict-both-versions: an edit made offline on a version the coordinator changed meanwhile shows both versions; keeping mine or theirs loses nothing"
    )
    func conflicts() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("conflict")
            await setUp.register(app, setUp.ingrid, notes: "Coffee")
            await setUp.register(app, setUp.per, notes: "Cards")
            let server = try await setUp.serverActivities()
            let coffee = try #require(server.first { $0.notes == "Coffee" })
            let cards = try #require(server.first { $0.notes == "Cards" })
            // Offline, Mia edits both; meanwhile the coordinator corrects both on the server.
            app.update { $0.online = false }
            await app.editActivity(coffee.id, notes: "Coffee and a long talk")
            await app.editActivity(cards.id, durationMinutes: 90)
            let organizer = lab.api.lab(lab.world.organizer)
            for activity in [coffee, cards] {
                var corrected = activity.content
                corrected.notes += " (coordinator)"
                #expect(
                    try await organizer.putActivity(activity.id, ActivityWrite(content: corrected, baseVersion: 1))
                        .status == 200)
            }
            await app.connectivityChanged(online: true)
            var tree = app.tree()
            let shown = tree.elements(UIIdentifier.activityConflict)
            #expect(shown.count == 2, "both conflicts are shown, none dropped")
            let coffeeConflict = try #require(shown.first { $0.attributes["activityId"] == coffee.id.wire })
            #expect(coffeeConflict.attributes["mineNotes"] == "Coffee and a long talk")
            #expect(coffeeConflict.attributes["theirsNotes"] == "Coffee (coordinator)")
            #expect(app.pendingCount == 2, "an unresolved conflict is pending")
            // Mine for one, theirs for the other.
            await app.resolveActivityConflict(coffee.id, keepMine: true)
            await app.resolveActivityConflict(cards.id, keepMine: false)
            tree = app.tree()
            #expect(!tree.contains(UIIdentifier.activityConflict))
            let after = try await setUp.serverActivities()
            let keptMine = try #require(after.first { $0.id == coffee.id })
            #expect(keptMine.notes == "Coffee and a long talk" && keptMine.version == 3)
            let keptTheirs = try #require(after.first { $0.id == cards.id })
            #expect(keptTheirs.notes == "Cards (coordinator)" && keptTheirs.durationMinutes == 45)
            let rows = tree.elements(UIIdentifier.activityRow)
            #expect(rows.first { $0.attributes["activityId"] == cards.id.wire }?.attributes["durationMinutes"] == "45")
            // A delete that meets a newer version is a conflict too.
            app.update { $0.online = false }
            await app.deleteActivity(cards.id)
            var again = keptTheirs.content
            again.notes = "Cards, edited again"
            _ = try await organizer.putActivity(cards.id, ActivityWrite(content: again, baseVersion: 2))
            await app.connectivityChanged(online: true)
            let deleteConflict = try #require(app.tree().element(UIIdentifier.activityConflict))
            #expect(deleteConflict.attributes["mineDeleted"] == "true")
            await app.resolveActivityConflict(cards.id, keepMine: true)
            #expect(try await setUp.serverActivities().first { $0.id == cards.id }?.deleted == true)
        }
    }

    @Test(
        "pm-partial-sync-failure: an entry the server refuses (a contact unassigned meanwhile) is shown as failed while the others sync"
    )
    func partialFailure() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("partial")
            app.update { $0.online = false }
            await setUp.register(app, setUp.per, notes: "First")
            await setUp.register(app, setUp.ingrid, notes: "Second")
            await setUp.register(app, setUp.per, notes: "Third")
            try await lab.api.lab(lab.world.organizer).unassignContact(setUp.ingrid.id, from: setUp.mentor.user.id)
            await app.connectivityChanged(online: true)
            let tree = app.tree()
            #expect(Set(try await setUp.serverActivities().map(\.notes)) == ["First", "Third"])
            #expect(tree.element(UIIdentifier.activitySyncNotice)?.text == "2 activities synced")
            let failed = try #require(tree.element(UIIdentifier.activitySyncFailed))
            #expect(failed.attributes["count"] == "1")
            #expect(failed.text.contains("Ingrid Solberg is no longer assigned to you"))
            #expect(app.pendingCount == 0)
            // Later registrations sync as usual.
            await setUp.register(app, setUp.per, notes: "Fourth")
            #expect(try await setUp.serverActivities().count == 3)
            app.dismissActivityFailures()
            #expect(!app.tree().contains(UIIdentifier.activitySyncFailed))
        }
    }

    @Test(
        "pm-lost-answer-no-duplicate: answers lost on the way back are replayed; every activity exists once at the version it made"
    )
    func lostAnswers() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let phone = Phone(lab, "flaky")
            phone.modules = .all
            let flaky = try lab.launch(
                "flaky", modules: .all, transport: { FlakyTransport($0, dropRequests: 0, dropResponses: 0.5, seed: 7) })
            await flaky.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            for attempt in 0..<5 where !flaky.isSignedIn {
                _ = attempt
                await flaky.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            }
            try #require(flaky.isSignedIn)
            for index in 0..<6 { await setUp.register(flaky, setUp.per, notes: "Visit \(index)") }
            if let first = flaky.tree().elements(UIIdentifier.activityRow).first?.attributes["activityId"].flatMap(
                ActivityID.init(wire:))
            {
                await flaky.editActivity(first, notes: "Visit edited")
            }
            for _ in 0..<20 where flaky.pendingCount > 0 { await flaky.sync() }
            #expect(flaky.pendingCount == 0)
            let server = try await setUp.serverActivities()
            #expect(server.count == 6)
            #expect(server.filter { $0.notes == "Visit edited" }.map(\.version) == [2])
            #expect(!flaky.tree().contains(UIIdentifier.activityConflict), "a replayed write is not a conflict")
            _ = phone
        }
    }

    @Test(
        "pm-offline-relaunch (seed 004 criterion 2) and pm-background-validation (criterion 5): an airplane-mode cold launch unlocks with biometrics and works on cached data; when the network returns the session is validated without leaving the screen"
    )
    func offlineRelaunchAndValidation() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (phone, first) = try await setUp.phone("airplane", biometricUnlock: true)
            _ = first
            phone.online = false
            phone.clock.advance(by: 2 * 24 * 3600)
            let app = try phone.coldLaunch()
            #expect(app.tree().screen == UIIdentifier.lockScreen)
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.activitiesScreen)
            await setUp.register(app, setUp.ingrid, notes: "Registered in airplane mode")
            await app.showContact(setUp.ingrid.id)
            #expect(app.tree().contains(UIIdentifier.contactEncryptedOffline))
            // The network returns (the access token expired long ago): validated and refreshed,
            // the entry lands, and the mentor stays where she was.
            let refreshesBefore = try await Self.refreshRotations(lab)
            await app.connectivityChanged(online: true)
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.contactDetailScreen, "the screen was not interrupted")
            #expect(tree.element(UIIdentifier.contactCachedInfo)?.attributes["contactId"] == setUp.ingrid.id.wire)
            #expect(try await Self.refreshRotations(lab) > refreshesBefore, "the session was validated")
            #expect(app.pendingCount == 0)
            #expect(try await setUp.serverActivities().map(\.notes) == ["Registered in airplane mode"])
        }
    }

    static func refreshRotations(_ lab: DeviceLab) async throws -> Int {
        try await lab.api.store.database.read { connection in
            let rows = try await connection.query(
                "SELECT COUNT(*) AS n FROM refresh_tokens WHERE rotated_at IS NOT NULL", [])
            if case .int(let count) = try rows.first?.value("n") { return Int(count) }
            return 0
        }
    }

    @Test(
        "pm-offline-window-tenant: the tenant's offline unlock window reaches the device; past it unlocking needs the network and nothing pending is lost"
    )
    func tenantWindow() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            try await lab.api.lab(lab.world.organizer).setTenantSettings(TenantSettings(offlineUnlockHours: 24))
            let (phone, first) = try await setUp.phone("window", biometricUnlock: true)
            first.update { $0.online = false }
            await setUp.register(first, setUp.per, notes: "Kept")
            phone.online = false
            phone.clock.advance(by: 23 * 3600)
            var app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            #expect(app.tree().screen == UIIdentifier.activitiesScreen, "inside the tenant's 24 hours")
            phone.clock.advance(by: 2 * 3600)
            app = try phone.coldLaunch()
            await app.unlock(with: .biometrics)?.value
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.lockScreen)
            #expect(tree.element("native-shell-lock-message")?.text.contains("24 hours") == true)
            #expect(app.pendingCount == 1)
        }
    }

    @Test(
        "pm-conflict-unreadable-blocks-signout: conflicts the device cannot read count as pending: the sign-out warns and waits, and the banner says why"
    )
    func unreadableConflictsBlockSignOut() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("conflicts-unreadable")
            // The conflicts' table is damaged beyond reading (a real SQLite error on every read).
            try await app.store.queue.write { db in try db.execute(sql: "DROP TABLE mentor_conflicts") }
            await app.signOut()
            let tree = app.tree()
            #expect(app.isSignedIn, "not signed out: what waits could not be read")
            #expect(tree.screen == UIIdentifier.signOutPendingWarning)
            #expect(
                tree.element(UIIdentifier.signOutUnsent)?.text.hasPrefix("Conflicts on this device could not be read")
                    == true)
            #expect(app.faults.all.map(\.what).contains("read your conflicts"))
            #expect(tree.element(UIIdentifier.storageFaultBanner) != nil)
        }
    }

    @Test(
        "pm-conflict-pending-at-signout: an unresolved conflict counts as pending, blocks a plain sign-out with a warning naming it, survives a sign-out that keeps it, an involuntary sign-out and the next sign-in; only discarding drops it"
    )
    func conflictPendingAtSignOut() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (phone, app) = try await setUp.phone("conflict-signout")
            await setUp.register(app, setUp.ingrid, notes: "Coffee")
            let coffee = try #require(try await setUp.serverActivities().first)
            let organizer = lab.api.lab(lab.world.organizer)
            /// Mia edits offline while the coordinator corrects the same activity: a conflict.
            @MainActor func conflict(_ mine: String, _ theirs: String, base: Int) async throws {
                app.update { $0.online = false }
                await app.editActivity(coffee.id, notes: mine)
                var corrected = coffee.content
                corrected.notes = theirs
                #expect(
                    try await organizer.putActivity(coffee.id, ActivityWrite(content: corrected, baseVersion: base))
                        .status == 200)
                await app.connectivityChanged(online: true)
                try #require(app.tree().element(UIIdentifier.activityConflict) != nil)
            }
            try await conflict("Coffee and a long talk", "Coffee (coordinator)", base: 1)
            #expect(app.pendingCount == 1)
            #expect(app.tree().pending == 1)
            // A plain sign-out is refused with the warning naming the conflict.
            await app.signOut()
            var tree = app.tree()
            #expect(app.isSignedIn)
            #expect(tree.screen == UIIdentifier.signOutPendingWarning)
            #expect(tree.element(UIIdentifier.signOutPendingWarning)?.text.hasPrefix("1 entry hasn't synced") == true)
            let named = try #require(tree.element(UIIdentifier.signOutUnsent)?.text)
            #expect(named.contains("Ingrid Solberg") && named.contains("2026-11-17"), "\(named)")
            #expect(app.refusal?.hasPrefix("Not signed out: 1 ") == true)
            // Waiting cannot send it: it waits on Mia, not the network.
            await app.signOut(.wait)
            #expect(app.isSignedIn)
            // Kept through a sign-out, and back after signing in again.
            await app.signOut(.keep)
            #expect(!app.isSignedIn)
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            tree = app.tree()
            let back = try #require(tree.element(UIIdentifier.activityConflict))
            #expect(back.attributes["mineNotes"] == "Coffee and a long talk")
            #expect(app.pendingCount == 1)
            // An involuntary sign-out (the coordinator resets the password) keeps it too.
            #expect(
                try await lab.api.request(
                    .put, "/v1/users/\(setUp.mentor.user.id)/password", token: lab.world.organizer.accessToken,
                    json: PasswordResetRequest(password: "a new mentor password")
                ).status == 204)
            phone.clock.advance(by: 3600)
            await app.sync()
            #expect(!app.isSignedIn)
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: "a new mentor password")
            #expect(
                app.tree().element(UIIdentifier.activityConflict)?.attributes["mineNotes"] == "Coffee and a long talk")
            // Resolved, it is sent and nothing waits.
            await app.resolveActivityConflict(coffee.id, keepMine: true)
            #expect(app.pendingCount == 0)
            let mia = lab.api.lab(try await lab.api.signIn(email: "mia@acme.test", password: "a new mentor password"))
            #expect(try await mia.activities().first?.notes == "Coffee and a long talk")
            // Only discarding drops one.
            try await conflict("Mine again", "Theirs again", base: 3)
            await app.signOut(.discard)
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: "a new mentor password")
            #expect(app.tree().element(UIIdentifier.activityConflict) == nil)
            #expect(app.pendingCount == 0)
        }
    }

    @Test(
        "pm-counts-name-what-waits: two visits registered offline and one corrected are two activities waiting on the banner, the sign-out warning and the synced notice, as the server holds two"
    )
    func countsNameWhatWaits() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (_, app) = try await setUp.phone("counts")
            app.update { $0.online = false }
            await setUp.register(app, setUp.ingrid, notes: "Coffee")
            await setUp.register(app, setUp.per, notes: "Cards")
            let coffee = try #require(
                app.tree().elements(UIIdentifier.activityRow).first {
                    $0.attributes["notes"] == "Coffee" || $0.text.contains("Coffee")
                })
            let id = try #require(coffee.attributes["activityId"].flatMap(ActivityID.init(wire:)))
            await app.editActivity(id, notes: "Coffee and a long talk")
            #expect(app.pendingCount == 2, "two activities, three writes")
            var tree = app.tree()
            #expect(tree.pending == 2)
            #expect(tree.element(UIIdentifier.pendingSyncBanner)?.text == "2 activities waiting to sync")
            await app.signOut()
            tree = app.tree()
            #expect(
                tree.element(UIIdentifier.signOutPendingWarning)?.text.hasPrefix("2 activities haven't synced") == true)
            #expect(
                app.refusal == "Not signed out: 2 activities not synced yet; wait for them, keep them or discard them.")
            await app.connectivityChanged(online: true)
            tree = app.tree()
            #expect(tree.element(UIIdentifier.activitySyncNotice)?.text == "2 activities synced")
            #expect(app.pendingCount == 0)
            #expect(try await setUp.serverActivities().count == 2)
        }
    }

    @Test(
        "pm-bad-input-device: a date after tomorrow is refused on the device and the server; an unknown contact shows why; an edit that changes nothing queues nothing; the 'will sync' notice goes after the sync; a contact's last visit counts offline visits; one hour is '1 hour'"
    )
    func badInputDevice() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            try await lab.api.lab(lab.world.organizer).setTenantSettings(TenantSettings(offlineUnlockHours: 1))
            let (phone, app) = try await setUp.phone("bad-input", biometricUnlock: true)
            let now = phone.clock.now
            let zone = app.ports.timeZone
            let tomorrow = ActivityDate.day(of: now.addingTimeInterval(86_400), in: zone)
            let later = ActivityDate.day(of: now.addingTimeInterval(2 * 86_400), in: zone)
            // After tomorrow: refused, nothing queued. Tomorrow is within the day of tolerance.
            app.update { $0.online = false }
            for (day, refused) in [(later, true), ("2086-11-24", true), (tomorrow, false)] {
                await app.registerActivity(
                    contact: setUp.ingrid.id, type: .visit, date: day, durationMinutes: 30, notes: day)
                #expect((app.refusal?.contains("in the future") == true) == refused, "\(day): \(app.refusal ?? "-")")
            }
            #expect(app.pendingCount == 1)
            // The last visit on the contact list counts the visit recorded offline.
            app.showContacts()
            let row = try #require(
                app.tree().elements(UIIdentifier.contactRow).first {
                    $0.attributes["contactId"] == setUp.ingrid.id.wire
                })
            #expect(row.attributes["lastVisit"] == tomorrow, "\(row.text)")
            // An unknown contact: the module's sentence on the screen.
            await app.showContact(ContactID.random())
            #expect(app.tree().element(UIIdentifier.activityError)?.text == "That contact is not among yours.")
            #expect(app.refusal == "That contact is not among yours.")
            // The saved notice says it will sync; after the sync it is gone.
            await setUp.register(app, setUp.per, notes: "Cards")
            #expect(app.tree().element(UIIdentifier.activitySaved)?.text.contains("will sync") == true)
            await app.connectivityChanged(online: true)
            #expect(app.pendingCount == 0)
            #expect(app.tree().element(UIIdentifier.activitySaved) == nil)
            // An edit that changes nothing queues nothing.
            let cards = try #require(try await setUp.serverActivities().first { $0.notes == "Cards" })
            app.update { $0.online = false }
            await app.editActivity(cards.id, notes: "Cards")
            #expect(app.pendingCount == 0)
            #expect(app.tree().element(UIIdentifier.activitySaved)?.text == "Nothing changed; nothing to sync")
            // The server refuses a day far ahead itself.
            let far = try await lab.api.request(
                .put, "/v1/activities/\(UUID().uuidString.lowercased())", token: setUp.mentor.accessToken,
                json: ActivityWrite(
                    content: ActivityContent(
                        contactId: setUp.ingrid.id, type: .visit, date: "2086-11-24", durationMinutes: 30, notes: ""),
                    baseVersion: 0))
            #expect(far.status == 422 && far.errorCode == "invalid_request", "\(far.status)")
            // The tenant's window of one hour reads "1 hour".
            phone.online = false
            phone.clock.advance(by: 2 * 3600)
            let relaunched = try phone.coldLaunch()
            await relaunched.unlock(with: .biometrics)?.value
            let message = relaunched.tree().element("native-shell-lock-message")?.text ?? ""
            #expect(message.contains("more than 1 hour since"), "\(message)")
        }
    }

    @Test(
        "pm-session-revoked: a password reset or a removal on the server ends the session at the next sync with a clear message; queued activities stay and land after signing in again"
    )
    func sessionRevoked() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (phone, app) = try await setUp.phone("revoked")
            app.update { $0.online = false }
            await setUp.register(app, setUp.per, notes: "Kept through a reset")
            phone.clock.advance(by: 3600)
            let organizer = lab.world.organizer.accessToken
            #expect(
                try await lab.api.request(
                    .put, "/v1/users/\(setUp.mentor.user.id)/password", token: organizer,
                    json: PasswordResetRequest(password: "a new mentor password")
                ).status == 204)
            await app.connectivityChanged(online: true)
            var tree = app.tree()
            #expect(tree.screen == UIIdentifier.signIn)
            #expect(tree.element(UIIdentifier.signInError)?.text.contains("1 saved entry is kept") == true)
            #expect(app.pendingCount == 1, "the outbox is untouched")
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: "a new mentor password")
            #expect(app.pendingCount == 0)
            #expect(try await lab.api.lab(lab.world.organizer).activities().map(\.notes) == ["Kept through a reset"])
            // Removed: the same, and the entry waits on the device for good (nobody can send it).
            app.update { $0.online = false }
            await setUp.register(app, setUp.per, notes: "After removal")
            phone.clock.advance(by: 3600)
            #expect(
                try await lab.api.request(.delete, "/v1/users/\(setUp.mentor.user.id)", token: organizer).status == 204)
            await app.connectivityChanged(online: true)
            tree = app.tree()
            #expect(tree.screen == UIIdentifier.signIn)
            #expect(
                tree.element(UIIdentifier.signInError)?.text.hasPrefix("Your account was removed by your organizer.")
                    == true, "the true reason")
            #expect(app.pendingCount == 1)
        }
    }

    @Test(
        "pm-mid-session-connectivity-loss: the network drops in the middle of a sync; what was sent stays sent, the rest waits and goes when it returns, each once"
    )
    func midSessionLoss() async throws {
        try await DeviceLab.run { lab in
            let setUp = try await MentorSetUp.make(lab)
            let (app, box) = try lab.launch(
                "dropping", modules: .all, wrapping: { DroppingTransport($0, after: 2, of: "/v1/activities/") })
            await app.signIn(server: lab.serverURL, email: "mia@acme.test", password: DeviceLab.staffPassword)
            try #require(app.isSignedIn)
            app.update { $0.online = false }
            for index in 1...4 { await setUp.register(app, setUp.per, notes: "Visit \(index)") }
            await app.connectivityChanged(online: true)
            var tree = app.tree()
            #expect(tree.element(UIIdentifier.activitySyncNotice)?.text == "2 activities synced")
            #expect(tree.element(UIIdentifier.pendingSyncBanner)?.text == "2 activities waiting to sync")
            #expect(try await setUp.serverActivities().map(\.notes).sorted() == ["Visit 1", "Visit 2"])
            #expect(tree.screen == UIIdentifier.activitiesScreen)
            // It returns.
            try #require(box.value).restore()
            await app.sync()
            tree = app.tree()
            #expect(app.pendingCount == 0)
            let server = try await setUp.serverActivities()
            #expect(server.map(\.notes).sorted() == ["Visit 1", "Visit 2", "Visit 3", "Visit 4"])
            #expect(server.allSatisfy { $0.version == 1 })
            #expect(!tree.contains(UIIdentifier.activityConflict))
        }
    }
}
