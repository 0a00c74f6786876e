import Foundation
import GRDB
import OutpostCore
import OutpostDevice
import OutpostProtocol
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

@Suite("Roster index snapshot")
struct RosterIndexSnapshotTests {
    @Test(
        "roster-index-snapshot-round-trip: opened from its bytes, the index answers 1,000 seeded queries exactly as built"
    )
    func roundTrip() throws {
        let guests = RosterIndexPropertyTests.seededGuests(count: 3_000)
        let built = RosterIndex(guests: guests)
        var opened = try RosterIndex(snapshot: Data(built.snapshot()))
        #expect(opened.count == built.count)
        var random = SeededRandom(seed: 7)
        let alphabet = Array("abcdefghijklmnorstuzøåëé0123c")
        for _ in 0..<1_000 {
            let length = Int.random(in: 1...4, using: &random)
            let query = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            #expect(opened.search(query) == built.search(query), "\(query)")
        }
        // An opened index updates like a built one.
        var renamed = guests[11]
        renamed.name = "Annabel Zed"
        opened.update(renamed)
        #expect(opened.search("annabel z").map(\.id) == [renamed.id])
    }

    @Test(
        "roster-index-snapshot-refuses-damage: every truncation, a trailing byte, a wrong tag and an entry out of range throw"
    )
    func refusesDamage() throws {
        let index = RosterIndex(guests: [
            RosterIndexTests.guest("Åse Nordmann", "ase@example.no", "AAAA111111"),
            RosterIndexTests.guest("Bjørn Ødegård", "bjorn@example.no", "BBBB222222"),
        ])
        let bytes = index.snapshot()
        #expect(try RosterIndex(snapshot: Data(bytes)).search("bj").map(\.name) == ["Bjørn Ødegård"])
        for length in 0..<bytes.count {
            #expect(throws: ByteLayout.Failure.self) { try RosterIndex(snapshot: Data(bytes.prefix(length))) }
        }
        #expect(throws: ByteLayout.Failure.malformed("trailing bytes")) {
            try RosterIndex(snapshot: Data(bytes + [0]))
        }
        #expect(throws: ByteLayout.Failure.malformed("tag")) {
            try RosterIndex(snapshot: Data([0x7B] + bytes.dropFirst()))
        }
        // After the header (13 bytes) and the two records' offsets, the first full-name key:
        // entry 9 is not one of the two.
        var outOfRange = bytes
        outOfRange[13 + 8] = 9
        #expect(throws: ByteLayout.Failure.malformed("key")) { try RosterIndex(snapshot: outOfRange) }
        // The first record's offset past the pool.
        var pastPool = bytes
        pastPool[13 + 3] = 0x7F
        #expect(throws: ByteLayout.Failure.malformed("record")) { try RosterIndex(snapshot: pastPool) }
        // The word key's place (the last four bytes before the pool) past its name.
        let poolLength = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 9, as: UInt32.self)) }
        var wordPast = bytes
        wordPast[bytes.count - poolLength - 1] = 0x7F
        #expect(throws: ByteLayout.Failure.malformed("word")) { try RosterIndex(snapshot: wordPast) }
    }
}

@Suite("Roster index snapshot on the device")
struct DeviceRosterSnapshotTests {
    /// Stores a snapshot of an index over `guests` as if it were built from the roster at `version`.
    @MainActor
    static func plant(_ app: DeviceApp, _ lab: DeviceLab, guests: [LocalGuest], version: Int) throws {
        try app.checkInStore.saveRosterIndexSnapshot(
            eventId: lab.world.event.id, version: version, bytes: RosterIndex(guests: guests).snapshot())
    }

    /// A ready device whose index was built and its snapshot written, and the roster version.
    @MainActor
    static func indexedDevice(_ lab: DeviceLab) async throws -> (DeviceApp, Int) {
        let app = try await lab.readyDevice("a")
        _ = app.index
        await app.indexSnapshotWritten()
        return (app, try app.checkInStore.rosterVersion(eventId: lab.world.event.id))
    }

    static func stranger(_ lab: DeviceLab) -> LocalGuest {
        LocalGuest(
            id: .random(), eventId: lab.world.event.id, accessTypeId: lab.world.accessType.id, name: "Snapshot Only",
            email: "only@example.org", code: "ONLY000001", notes: "", status: .confirmed, checkIn: nil)
    }

    @Test("roster-index-snapshot-used: a relaunch opens the sealed snapshot of the roster instead of rebuilding it")
    @MainActor
    func used() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("a")
            let eventId = lab.world.event.id
            #expect(try app.checkInStore.rosterIndexSnapshot(eventId: eventId) == nil, "nothing searched yet")
            let first = lab.world.guests[0]
            #expect(app.index?.search(first.name).map(\.id) == [first.id])
            await app.indexSnapshotWritten()
            let stored = try #require(try app.checkInStore.rosterIndexSnapshot(eventId: eventId))
            #expect(try RosterIndex(snapshot: stored).count == lab.world.guests.count)
            // A snapshot only the test could have written, at the roster's version: a launch that
            // finds "Snapshot Only" read it rather than the roster.
            let stranger = Self.stranger(lab)
            try Self.plant(app, lab, guests: [stranger], version: try app.checkInStore.rosterVersion(eventId: eventId))
            let relaunched = try lab.launch("a")
            #expect(relaunched.tree().screen == UIIdentifier.eventShell)
            #expect(relaunched.index?.search("snapshot").map(\.id) == [stranger.id])
            // It is sealed like everything else, and signing out forgets it with the roster.
            await relaunched.signOut()
            let left = try await relaunched.store.queue.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM roster_index_parts")
            }
            #expect(left == 0)
        }
    }

    @Test(
        "roster-index-snapshot-stale: a guest the snapshot does not know makes the launch rebuild from the roster and rewrite it"
    )
    @MainActor
    func stale() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("a")
            let eventId = lab.world.event.id
            let before = try app.checkInStore.rosterVersion(eventId: eventId)
            let late = try await lab.api.createGuest(
                lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: "Late Arrival")
            await app.sync()
            #expect(try app.checkInStore.rosterVersion(eventId: eventId) > before, "the new guest counts")
            // A snapshot of the roster before the sync (planted after it: one there during the
            // sync would have followed it).
            try Self.plant(app, lab, guests: [Self.stranger(lab)], version: before)
            let relaunched = try lab.launch("a")
            #expect(relaunched.index?.search("snapshot").isEmpty == true, "the stale snapshot is not opened")
            #expect(relaunched.index?.search("late arr").map(\.id) == [late.id])
            await relaunched.indexSnapshotWritten()
            let rewritten = try #require(try relaunched.checkInStore.rosterIndexSnapshot(eventId: eventId))
            #expect(try RosterIndex(snapshot: rewritten).search("late arr").map(\.id) == [late.id])
        }
    }

    @Test(
        "roster-index-snapshot-damaged: a snapshot that does not parse, a part changed, parts swapped, a part missing or a wrong count is rebuilt, never trusted"
    )
    @MainActor
    func damaged() async throws {
        try await DeviceLab.run { lab in
            let (app, version) = try await Self.indexedDevice(lab)
            let eventId = lab.world.event.id
            let first = lab.world.guests[0]
            // Sealed, at the right version, but not an index.
            try app.checkInStore.saveRosterIndexSnapshot(eventId: eventId, version: version, bytes: [0x01, 0xFF])
            var relaunched = try lab.launch("a")
            #expect(relaunched.index?.search(first.name).map(\.id) == [first.id])
            await relaunched.indexSnapshotWritten()
            #expect(try relaunched.checkInStore.rosterIndexSnapshot(eventId: eventId) != nil, "rewritten")
            // A snapshot only the test could have written, in parts of 32 bytes; each damage
            // below makes the launch refuse it (no "Snapshot Only") and index the roster again.
            let planted = RosterIndex(guests: [Self.stranger(lab)]).snapshot()
            let damages: [(String, String)] = [
                ("a part's box changed", "UPDATE roster_index_parts SET sealed = x'010203' WHERE part = 1"),
                (
                    "two parts swapped",
                    """
                    UPDATE roster_index_parts SET part = -1 WHERE part = 0;
                    UPDATE roster_index_parts SET part = 0 WHERE part = 1;
                    UPDATE roster_index_parts SET part = 1 WHERE part = -1;
                    """
                ),
                ("a part missing", "DELETE FROM roster_index_parts WHERE part = 1"),
                ("the last part missing", "DELETE FROM roster_index_parts WHERE part = parts - 1"),
                ("the parts' count changed", "UPDATE roster_index_parts SET parts = parts - 1"),
            ]
            for (damage, sql) in damages {
                try relaunched.checkInStore.saveRosterIndexSnapshot(
                    eventId: eventId, version: version, bytes: planted, partBytes: 32)
                #expect(try relaunched.checkInStore.rosterIndexSnapshot(eventId: eventId) == planted, "\(damage)")
                try await relaunched.store.queue.write { try $0.execute(sql: sql) }
                #expect(throws: (any Error).self, "\(damage)") {
                    try relaunched.checkInStore.rosterIndexSnapshot(eventId: eventId)
                }
                relaunched = try lab.launch("a")
                #expect(relaunched.index?.search("snapshot").isEmpty == true, "\(damage)")
                #expect(relaunched.index?.search(first.name).map(\.id) == [first.id], "\(damage)")
                await relaunched.indexSnapshotWritten()
            }
        }
    }

    @Test(
        "roster-version-ignores-checkins: a check-in and its answer keep the snapshot; suggestions show the check-in from the store"
    )
    @MainActor
    func ignoresCheckIns() async throws {
        try await DeviceLab.run { lab in
            let (app, version) = try await Self.indexedDevice(lab)
            let eventId = lab.world.event.id
            let guest = lab.world.guests[1]
            app.choose(guestId: guest.id)
            await app.confirm()
            #expect(app.pendingCount == 0, "answered")
            await app.sync()
            #expect(try app.checkInStore.rosterVersion(eventId: eventId) == version)
            #expect(try app.checkInStore.rosterIndexSnapshot(eventId: eventId) != nil)
            app.lookup(guest.name)
            let suggestion = app.tree().elements(UIIdentifier.manualEntrySuggestion).first {
                $0.attributes["guestId"] == guest.id.wire
            }
            #expect(suggestion?.attributes["checkedIn"] == "true")
            // A rename on the server does count.
            let renamed = try await lab.api.request(
                .patch, "/v1/events/\(eventId)/guests/\(guest.id)",
                token: try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken,
                json: UpdateGuestRequest(name: "Renamed Person"))
            #expect(renamed.status == 200)
            await app.sync()
            #expect(try app.checkInStore.rosterVersion(eventId: eventId) > version)
            #expect(app.index?.search("renamed").map(\.id) == [guest.id])
        }
    }

    @Test(
        "roster-index-follows-sync: a sync that renames a guest and adds one updates a built index without building it again and writes the snapshot of the new roster; a relaunch opens it and follows the next sync too"
    )
    @MainActor
    func followsSync() async throws {
        try await DeviceLab.run { lab in
            let (app, _) = try await Self.indexedDevice(lab)
            let eventId = lab.world.event.id
            #expect(app.checkInModule?.indexBuilds == 1)
            let guest = lab.world.guests[2]
            let token = try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken
            let renamed = try await lab.api.request(
                .patch, "/v1/events/\(eventId)/guests/\(guest.id)", token: token,
                json: UpdateGuestRequest(name: "Followed Rename"))
            #expect(renamed.status == 200)
            let late = try await lab.api.createGuest(
                lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: "Late Follower")
            await app.sync()
            #expect(app.index?.search("followed").map(\.id) == [guest.id])
            // Its e-mail still starts with the old name: found once, by it, under the new name.
            let oldName = app.index?.search(guest.name).filter { $0.id == guest.id }
            #expect(oldName?.map(\.name) == ["Followed Rename"], "the old name's entry is gone")
            #expect(app.index?.search("late foll").map(\.id) == [late.id])
            #expect(app.checkInModule?.indexBuilds == 1, "followed, not built again")
            await app.indexSnapshotWritten()
            #expect(
                try app.checkInStore.rosterIndexSnapshot(eventId: eventId) != nil, "the snapshot is of the new roster")
            // A relaunch opens that snapshot, and follows the next sync from it.
            let relaunched = try lab.launch("a")
            let again = try await lab.api.createGuest(
                lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: "Later Still")
            await relaunched.sync()
            #expect(relaunched.index?.search("later st").map(\.id) == [again.id])
            #expect(relaunched.index?.search("followed").map(\.id) == [guest.id])
            #expect(relaunched.checkInModule?.indexBuilds == 0)
        }
    }

    @Test(
        "roster-index-follows-local-writes: a walk-in added offline, a ticket named at the door and the walk-in's answer (the server's code) update a built index without building it again; a write rolled back leaves it; the snapshot of what it followed is written, and a relaunch opens it, offline or after the next sync"
    )
    @MainActor
    func followsLocalWrites() async throws {
        try await DeviceLab.run { lab in
            _ = try await TicketBlockProbeTests.block(lab, doorNaming: true)
            let (app, _) = try await Self.indexedDevice(lab)
            let eventId = lab.world.event.id
            #expect(app.checkInModule?.indexBuilds == 1)
            app.update { $0.online = false }
            WalkInProbeTests.fill(
                app, name: "Noor Haddad", email: "noor@example.org", type: "General", amount: "25", method: .cash)
            await app.addWalkIn()
            #expect(app.refusal == nil, "\(app.refusal ?? "")")
            let noor = try #require(app.index?.search("noor had").first)
            #expect(noor.name == "Noor Haddad")
            app.openBlockTicket("acme")
            await app.confirm(holderName: "Dan Door")
            #expect(app.refusal == nil, "\(app.refusal ?? "")")
            #expect(app.index?.search("dan do").map(\.name) == ["Dan Door"])
            // A write that rolls back is not followed (the roster's version did not move either).
            let desk = try #require(app.checkInModule)
            struct RolledBack: Error {}
            #expect(throws: RolledBack.self) {
                try desk.store.queue.write { db in
                    try desk.write(db, guest: Self.stranger(lab))
                    throw RolledBack()
                }
            }
            #expect(app.index?.search("snapshot only").isEmpty == true)
            #expect(app.checkInModule?.indexBuilds == 1, "followed, not built again")
            // The snapshot is of what was followed: an offline relaunch opens it, without a sync.
            await app.indexSnapshotWritten()
            let offline = try lab.launch("a")
            #expect(offline.index?.search("dan do").map(\.name) == ["Dan Door"])
            #expect(offline.checkInModule?.indexBuilds == 0, "opened from the snapshot of what was followed")
            // Online: the walk-in's answer gives her the server's code, and the index follows it.
            app.update { $0.online = true }
            await app.sync()
            let code = try #require(try app.checkInStore.guest(eventId: eventId, id: noor.id)?.code)
            #expect(app.index?.search(code).map(\.id) == [noor.id])
            #expect(app.checkInModule?.indexBuilds == 1, "followed, not built again")
            await app.indexSnapshotWritten()
            let relaunched = try lab.launch("a")
            #expect(relaunched.index?.search("dan do").map(\.name) == ["Dan Door"])
            #expect(relaunched.index?.search(code).map(\.id) == [noor.id])
            #expect(relaunched.checkInModule?.indexBuilds == 0, "the snapshot of what was followed")
        }
    }

    @Test(
        "roster-lookup-from-index: a code typed at the door and an e-mail at the kiosk are found through the search index as the blind indexes found them (any case, trimmed; an accent makes another e-mail), also for guests a sync added after the index was built; the store keeps no code or e-mail index"
    )
    @MainActor
    func lookUpFromIndex() async throws {
        try await DeviceLab.run { lab in
            let (app, _) = try await Self.indexedDevice(lab)
            let eventId = lab.world.event.id
            let module = try #require(app.checkInModule)
            let guest = lab.world.guests[0]
            let typed = "  \(guest.code.lowercased()) "
            #expect(
                module.lookUp(eventId: eventId, .code, typed)?.map(\.id) == [
                    guest.id
                ])
            app.checkIn(code: typed)
            #expect(app.refusal == nil && app.tree().elements(UIIdentifier.confirmationScreen).count == 1)
            #expect(module.guests(eventId: eventId, email: guest.email.uppercased()).map(\.id) == [guest.id])
            let other = EventID.random()
            #expect(module.guests(eventId: other, email: guest.email).isEmpty, "another event's lookup finds nobody")
            for (name, email) in [("José Acento", "josé@example.org"), ("Jose Plano", "jose@example.org")] {
                _ = try await lab.api.createGuest(
                    lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: name,
                    email: email)
            }
            await app.sync()
            #expect(module.guests(eventId: eventId, email: "JOSÉ@example.org").map(\.name) == ["José Acento"])
            #expect(module.guests(eventId: eventId, email: " jose@example.org").map(\.name) == ["Jose Plano"])
            #expect(module.indexBuilds == 1, "the sync's guests were followed, not built")
            let columns = try await app.store.queue.read { db in
                try Row.fetchAll(db, sql: "PRAGMA table_info(guests)").map { $0["name"] as String }
            }
            #expect(!columns.contains("code_index") && !columns.contains("email_index"), "\(columns)")
            let indexes = try await app.store.queue.read { db in
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'guests'")
            }
            #expect(!indexes.contains("guests_code") && !indexes.contains("guests_email"), "\(indexes)")
        }
    }

    @Test(
        "roster-count-kept: the count the screens show follows the roster's inserts and deletes without counting rows")
    @MainActor
    func countKept() async throws {
        try await DeviceLab.run(guests: 4) { lab in
            let app = try await lab.readyDevice("a")
            let eventId = lab.world.event.id
            func counted() async throws -> Int {
                try await app.store.queue.read {
                    try Int.fetchOne(
                        $0, sql: "SELECT COUNT(*) FROM guests WHERE event_id = ?", arguments: [eventId.data])
                        ?? -1
                }
            }
            #expect(try app.checkInStore.guestCount(eventId: eventId) == 4)
            #expect(try await counted() == 4)
            #expect(app.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "4")
            _ = try await lab.api.createGuest(
                lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: "Late Arrival")
            await app.sync()
            #expect(try app.checkInStore.guestCount(eventId: eventId) == 5)
            #expect(try await counted() == 5)
            await app.signOut()
            #expect(try app.checkInStore.guestCount(eventId: eventId) == 0)
        }
    }

    @Test("roster-count-kept: a store whose roster predates the count starts from the rows it holds")
    func countFromOlderStore() throws {
        // A store the code of v5 wrote (committed), with guests the roster count never saw.
        let home = try StoreFixtureTests.copy(StoreFixtureTests.stores.appendingPathComponent("v5"))
        defer { try? FileManager.default.removeItem(at: home) }
        let keyStore = FileKeyStore(url: home.appendingPathComponent("device.key"))
        let old = try DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path)
        let event = EventID.random()
        try old.write { db in
            for index in 0..<3 {
                try db.execute(
                    sql: """
                        INSERT INTO guests (event_id, id, code_index, email_index, status, sealed)
                        VALUES (?, ?, x'00', x'00', 'confirmed', x'00')
                        """, arguments: [event.wire, "guest-\(index)"])
            }
        }
        try old.close()
        let (store, report) = try DeviceStore.open(
            home: home, keyStore: keyStore, modules: DeviceModules.eventDay.migrations)
        #expect(report.applied.contains("checkin: v1 roster version and pending index"))
        let roster = ModuleStore<CheckInModule>(store)
        #expect(try roster.guestCount(eventId: event) == 3)
        #expect(try roster.rosterVersion(eventId: event) > 0)
    }
}
