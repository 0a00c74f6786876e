import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostShell

/// The roster sealed a page at a time: a page that was changed, cut short or moved is refused
/// and named, the other pages still read, and a store of guests sealed one by one moves onto
/// pages without losing one.
@Suite("Roster pages")
struct RosterPageTests {
    /// A device whose roster holds 300 guests: three pages (128, 128, 44).
    @MainActor
    static func pagedDevice(_ lab: DeviceLab) async throws -> (DeviceApp, [(id: Int64, live: Int)]) {
        try await lab.importGuests(297)
        let app = try await lab.readyDevice("a")
        return (app, try await pages(app))
    }

    /// The device's roster pages and how many rows point to each, oldest first.
    @MainActor
    static func pages(_ app: DeviceApp) async throws -> [(id: Int64, live: Int)] {
        try await app.store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, live FROM roster_pages ORDER BY id").map {
                (id: $0["id"] as Int64, live: $0["live"] as Int)
            }
        }
    }

    /// The first guest on `page`.
    @MainActor
    static func guestOn(_ app: DeviceApp, page: Int64) throws -> GuestID {
        try #require(
            try app.store.queue.read { db in
                try Data.fetchOne(
                    db, sql: "SELECT id FROM guests WHERE page = ? ORDER BY slot LIMIT 1", arguments: [page])
            }.flatMap { UUID(bytes: $0) }.map(GuestID.init))
    }

    /// A copy of the 2026-11-26 store of every module, its key and its sealer.
    static func fixtureStore() throws -> (home: URL, keyStore: FileKeyStore, sealer: Sealer) {
        let home = try StoreFixtureTests.copy(
            StoreFixtureTests.stores.appendingPathComponent(StoreFixtureTests.allModules))
        let keyStore = FileKeyStore(url: home.appendingPathComponent("device.key"))
        return (home, keyStore, Sealer(masterKey: try keyStore.masterKey()))
    }

    /// Today's app with every module on the store at `home`, offline.
    @MainActor
    static func launchOffline(home: URL, keyStore: FileKeyStore) throws -> DeviceApp {
        try DeviceApp.launch(
            home: home, ports: DevicePorts(keyStore: keyStore, transport: OfflineTransport(), online: false),
            modules: .all
        ).opened()
    }

    /// The signed ticket of a guest the test imported (the lab's own helper takes a listed guest).
    static func ticket(_ lab: DeviceLab, _ guest: GuestID) async throws -> String {
        let response = try await lab.api.request(
            .get, "/v1/events/\(lab.world.event.id.wire)/guests/\(guest.wire)/ticket",
            token: lab.world.organizer.accessToken)
        try #require(response.status == 200)
        return response.text.trimmingCharacters(in: .newlines)
    }

    @MainActor
    static func replaceBox(_ app: DeviceApp, page: Int64, _ change: (inout Data) -> Void) throws {
        try app.store.queue.write { db in
            var box = try #require(
                try Data.fetchOne(db, sql: "SELECT sealed FROM roster_pages WHERE id = ?", arguments: [page]))
            change(&box)
            try db.execute(sql: "UPDATE roster_pages SET sealed = ? WHERE id = ?", arguments: [box, page])
        }
    }

    @Test(
        "roster-page-tampered: one byte changed in a page's box is detected and names the page; the guests of the other pages still read, and the door's banner says which page"
    )
    func tampered() async throws {
        try await DeviceLab.run { lab in
            let (app, pages) = try await Self.pagedDevice(lab)
            let eventId = lab.world.event.id
            #expect(pages.map(\.live) == [128, 128, 44], "300 guests on three pages")
            let store = app.checkInStore
            let onFirst = try Self.guestOn(app, page: pages[0].id)
            let onSecond = try Self.guestOn(app, page: pages[1].id)
            #expect(try store.guest(eventId: eventId, id: onSecond)?.id == onSecond)

            try Self.replaceBox(app, page: pages[1].id) { $0[$0.count / 2] ^= 0x01 }

            #expect(
                throws: RosterPageDamaged(
                    eventId: eventId, page: pages[1].id,
                    reason: "does not open: damaged, cut short or moved from another place")
            ) { try store.guest(eventId: eventId, id: onSecond) }
            #expect(try store.guest(eventId: eventId, id: onFirst)?.id == onFirst, "another page still reads")
            #expect(throws: RosterPageDamaged.self) { try store.guestsForIndex(eventId: eventId) }

            // At the door: the guest is not admitted from a page that does not open, and the
            // banner names the page.
            app.scan(try await Self.ticket(lab, onSecond))
            let banner = try #require(app.tree().element(UIIdentifier.storageFaultBanner))
            #expect(banner.attributes["error"]?.contains("roster page \(pages[1].id) of event") == true)
            #expect(app.tree().element(UIIdentifier.confirmButton) == nil)
        }
    }

    @Test(
        "roster-page-heals-on-sync: after a damaged page was read, the next sync, after a relaunch too, pulls the whole roster again; the guest is admitted from a new page and the damaged page is gone"
    )
    func healsOnSync() async throws {
        try await DeviceLab.run { lab in
            let (app, pages) = try await Self.pagedDevice(lab)
            let eventId = lab.world.event.id
            let onSecond = try Self.guestOn(app, page: pages[1].id)
            try Self.replaceBox(app, page: pages[1].id) { $0[$0.count / 3] ^= 0x80 }
            let ticket = try await Self.ticket(lab, onSecond)
            app.scan(ticket)
            #expect(app.tree().element(UIIdentifier.confirmButton) == nil, "not admitted from a damaged page")

            // The app is closed and launched again before its next sync (the command line does
            // this for every command): what the damaged read asked for is in the store.
            let relaunched = try lab.launch("a")
            await relaunched.sync()
            relaunched.scan(ticket)
            #expect(relaunched.tree().element(UIIdentifier.confirmButton) != nil, "admitted after the sync")
            #expect(
                !(try await Self.pages(relaunched)).map(\.id).contains(pages[1].id), "the damaged page is deleted")
            #expect(try relaunched.checkInStore.guestsForIndex(eventId: eventId).guests.count == 300)
        }
    }

    @Test(
        "roster-page-cut-short: a page's box cut short is refused and named; a page's plaintext cut anywhere, or with a byte after its last record, is refused; a page of the first form (ids as text) still reads"
    )
    func cutShort() async throws {
        try await DeviceLab.run { lab in
            let (app, pages) = try await Self.pagedDevice(lab)
            let eventId = lab.world.event.id
            let onThird = try Self.guestOn(app, page: pages[2].id)
            try Self.replaceBox(app, page: pages[2].id) { $0 = $0.prefix($0.count - 1) }
            #expect(throws: RosterPageDamaged.self) { try app.checkInStore.guest(eventId: eventId, id: onThird) }
            do {
                _ = try app.checkInStore.guest(eventId: eventId, id: onThird)
            } catch let damaged as RosterPageDamaged {
                #expect(damaged.page == pages[2].id)
                #expect(damaged.description.hasPrefix("roster page \(pages[2].id) of event \(eventId.wire)"))
            }
        }
        let guests = (0..<3).map { index in
            LocalGuest(
                id: GuestID(UUID()), eventId: EventID(UUID()), accessTypeId: AccessTypeID(UUID()),
                name: "Guest \(index)", email: "g\(index)@example.org", code: "CODE\(index)", notes: "",
                status: .confirmed,
                checkIn: index == 1
                    ? LocalCheckIn(
                        at: Date(millisecondsSince1970: 1_790_000_000_123), byName: "Alex", deviceId: "d", pending: true
                    ) : nil)
        }
        let eventId = EventID(UUID())
        let placed = guests.map {
            var guest = $0; guest.eventId = eventId; return guest
        }
        let bytes = RosterPageCoding.encode(placed[...], eventId: eventId)
        let page = try RosterPageCoding.Page(Data(bytes))
        #expect(try (0..<page.count).map { try page.guest(at: $0) } == placed)
        for length in 0..<bytes.count {
            #expect(throws: ByteLayout.Failure.self, "cut to \(length) bytes") {
                try RosterPageCoding.Page(Data(bytes.prefix(length)))
            }
        }
        #expect(throws: ByteLayout.Failure.malformed("trailing bytes")) { try RosterPageCoding.Page(Data(bytes + [0])) }
        // A page of the first form (ids as text) still reads, and is 21 bytes a guest, the event
        // and each access type larger.
        let textIds = Self.textIdsPage(placed, eventId: eventId)
        let fromText = try RosterPageCoding.Page(Data(textIds))
        #expect(try (0..<fromText.count).map { try fromText.guest(at: $0) } == placed)
        #expect(bytes.count + 21 * (placed.count + 1 + 3) == textIds.count, "\(bytes.count) against \(textIds.count)")
    }

    /// A page as the code of 2026-11-28 sealed it (tag 2): every id as its text.
    static func textIdsPage(_ guests: [LocalGuest], eventId: EventID) -> [UInt8] {
        var types: [String] = []
        var records: [UInt8] = []
        var ends: [UInt32] = []
        for guest in guests {
            if !types.contains(guest.accessTypeId.wire) { types.append(guest.accessTypeId.wire) }
            ByteLayout.append(guest.id.wire, to: &records)
            ByteLayout.append(UInt(types.firstIndex(of: guest.accessTypeId.wire) ?? 0), to: &records)
            GuestCoding.appendDetails(guest, to: &records)
            ends.append(UInt32(records.count))
        }
        var bytes: [UInt8] = [RosterPageCoding.textIdsTag]
        ByteLayout.append(eventId.wire, to: &bytes)
        ByteLayout.append(UInt(types.count), to: &bytes)
        for type in types { ByteLayout.append(type, to: &bytes) }
        ByteLayout.append(UInt(ends.count), to: &bytes)
        for end in ends { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: end >> $0) } }
        return bytes + records
    }

    @Test(
        "roster-page-moved: two pages' boxes swapped do not open (each is bound to its event and place), and a row pointed at another guest's slot is refused"
    )
    func moved() async throws {
        try await DeviceLab.run { lab in
            let (app, pages) = try await Self.pagedDevice(lab)
            let eventId = lab.world.event.id
            let store = app.checkInStore
            let onFirst = try Self.guestOn(app, page: pages[0].id)
            let onSecond = try Self.guestOn(app, page: pages[1].id)
            try await app.store.queue.write { db in
                let first = try Data.fetchOne(
                    db, sql: "SELECT sealed FROM roster_pages WHERE id = ?", arguments: [pages[0].id])
                let second = try Data.fetchOne(
                    db, sql: "SELECT sealed FROM roster_pages WHERE id = ?", arguments: [pages[1].id])
                try db.execute(
                    sql: "UPDATE roster_pages SET sealed = ? WHERE id = ?", arguments: [second, pages[0].id])
                try db.execute(sql: "UPDATE roster_pages SET sealed = ? WHERE id = ?", arguments: [first, pages[1].id])
            }
            for (guest, page) in [(onFirst, pages[0].id), (onSecond, pages[1].id)] {
                #expect(
                    throws: RosterPageDamaged(
                        eventId: eventId, page: page,
                        reason: "does not open: damaged, cut short or moved from another place")
                ) { try store.guest(eventId: eventId, id: guest) }
            }

            let onThird = try Self.guestOn(app, page: pages[2].id)
            try await app.store.queue.write { db in
                try db.execute(
                    sql: "UPDATE guests SET slot = slot + 1 WHERE id = ?", arguments: [onThird.data])
            }
            #expect(
                throws: RosterPageDamaged(eventId: eventId, page: pages[2].id, reason: "holds another guest in slot 1")
            ) { try store.guest(eventId: eventId, id: onThird) }
        }
    }

    @Test(
        "roster-page-live-count: a roster pulled again moves every guest onto new pages and deletes the old ones; a check-in waiting offline survives it"
    )
    func pulledAgain() async throws {
        try await DeviceLab.run { lab in
            let (app, pages) = try await Self.pagedDevice(lab)
            let eventId = lab.world.event.id
            let waiting = try Self.guestOn(app, page: pages[1].id)
            app.update { $0.online = false }
            app.choose(guestId: waiting)
            await app.confirm(replayAfter: false)
            #expect(app.pendingCount == 1)

            try await app.store.queue.write { db in
                try db.execute(sql: "UPDATE sync_state SET cursor = NULL WHERE event_id = ?", arguments: [eventId.wire])
            }
            app.update { $0.online = true }
            // The outbox is held back, so the pulled page does not know of the check-in yet.
            try await #require(app.checkInModule).pull(event: lab.world.event)

            let after = try await Self.pages(app)
            #expect(after.map(\.live) == [128, 128, 44])
            #expect(Set(after.map(\.id)).isDisjoint(with: pages.map(\.id)), "the old pages are gone")
            let (_, guests) = try app.checkInStore.guestsForIndex(eventId: eventId)
            #expect(guests.count == 300)
            let kept = try #require(try app.checkInStore.guest(eventId: eventId, id: waiting))
            #expect(kept.checkIn?.pending == true, "the waiting check-in is kept")
        }
    }

    @Test(
        "roster-pages-row-sealed-migration: the 2026-11-26 store (guests sealed one by one), with 300 more guests written as that code wrote them and one damaged row, opens with every guest on pages and equal to what it was; the damaged row keeps its own box; the search index's version does not move"
    )
    @MainActor
    func migratedFromRows() throws {
        let (home, keyStore, sealer) = try Self.fixtureStore()
        defer { try? FileManager.default.removeItem(at: home) }
        let damagedId = GuestID(UUID())
        let (eventId, before, version) = try DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path)
            .write { db in
                var before: [GuestID: LocalGuest] = [:]
                for box in try Data.fetchAll(db, sql: "SELECT sealed FROM guests") {
                    let guest = try sealer.openGuest(box)
                    before[guest.id] = guest
                }
                let first = try #require(before.values.first)
                #expect(before.values.contains { $0.checkIn?.pending == true }, "the fixture has a pending check-in")
                for index in 0..<300 {
                    let guest = LocalGuest(
                        id: GuestID(UUID()), eventId: first.eventId, accessTypeId: first.accessTypeId,
                        name: "Row Guest \(index)", email: "row\(index)@example.org", code: "ROW\(index)",
                        notes: index % 3 == 0 ? "note \(index)" : "", status: index == 7 ? .cancelled : .confirmed,
                        checkIn: index % 50 == 0
                            ? LocalCheckIn(
                                at: Date(millisecondsSince1970: 1_790_000_000_000 + Int64(index)), byName: "Alex",
                                deviceId: "door-1", pending: false) : nil)
                    // The row as the code of 2026-11-26 wrote it: one box per guest.
                    try db.execute(
                        sql: """
                            INSERT INTO guests (event_id, id, code_index, email_index, keys_digest, status, checked_in_at,
                                local_pending, sealed)
                            VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)
                            """,
                        arguments: [
                            guest.eventId.wire, guest.id.wire, sealer.blind(guest.code), sealer.blind(guest.email),
                            sealer.digest([guest.name, guest.email, guest.code]), guest.status.rawValue,
                            guest.checkIn?.at.millisecondsSince1970, try sealer.seal(guest: guest),
                        ])
                    before[guest.id] = guest
                }
                try db.execute(
                    sql: """
                        INSERT INTO guests (event_id, id, code_index, email_index, status, sealed)
                        VALUES (?, ?, ?, ?, 'confirmed', ?)
                        """,
                    arguments: [
                        first.eventId.wire, damagedId.wire, sealer.blind("DAMAGED"), sealer.blind("d@example.org"),
                        Data(repeating: 7, count: 90),
                    ])
                let version = try Int.fetchOne(
                    db, sql: "SELECT version FROM roster_versions WHERE event_id = ?", arguments: [first.eventId.wire])
                return (first.eventId, before, version)
            }
        #expect(before.count == 304)

        let app = try Self.launchOffline(home: home, keyStore: keyStore)
        let store = app.checkInStore
        for (id, guest) in before {
            #expect(try store.guest(eventId: eventId, id: id) == guest, "\(guest.name)")
        }
        let (onPages, ownBoxes, pages, live) = try app.store.queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM guests WHERE sealed IS NULL AND page IS NOT NULL"),
                try Data.fetchAll(db, sql: "SELECT id FROM guests WHERE sealed IS NOT NULL"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM roster_pages"),
                try Int.fetchOne(db, sql: "SELECT SUM(live) FROM roster_pages")
            )
        }
        #expect(onPages == 304, "every guest that opened is on a page")
        #expect(ownBoxes == [damagedId.data], "the damaged row is kept as it was")
        #expect(pages == 3)
        #expect(live == 304)
        #expect(throws: SealError.self) { try store.guest(eventId: eventId, id: damagedId) }
        #expect(try store.rosterVersion(eventId: eventId) == version, "the snapshot of the search index stays current")
        #expect(try store.guestCount(eventId: eventId) == 305)
    }

    @Test(
        "guests-keyed-migration: the 2026-11-26 store opens with its guests' table keyed by event and id alone (WITHOUT ROWID, no second index of the ids, each id and the roster versions' event in 16 bytes), every guest equal to what it was, and the table's indexes and triggers made again: the count, the search index's version and the pages' live counts follow an insert and a delete"
    )
    @MainActor
    func guestsKeyed() throws {
        let (home, keyStore, sealer) = try Self.fixtureStore()
        defer { try? FileManager.default.removeItem(at: home) }
        let before = try DatabaseQueue(path: home.appendingPathComponent("device.sqlite").path).read { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM guests").map { try sealer.openGuest($0) }
        }
        let first = try #require(before.first)
        let app = try Self.launchOffline(home: home, keyStore: keyStore)
        let store = app.checkInStore
        for guest in before {
            #expect(try store.guest(eventId: guest.eventId, id: guest.id) == guest, "\(guest.name)")
        }
        let (table, indexes, triggers) = try app.store.queue.read { db in
            (
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'guests'"),
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'guests' ORDER BY name"
                ),
                try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'guests' ORDER BY name")
            )
        }
        #expect(table?.hasSuffix("WITHOUT ROWID") == true, "\(table ?? "no table")")
        let idForms = try app.store.queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT typeof(event_id) || ' ' || length(event_id) || ', ' || typeof(id) || ' ' || length(id)
                    FROM guests UNION SELECT DISTINCT 'versions ' || typeof(event_id) || ' ' || length(event_id)
                    FROM roster_versions
                    """)
        }
        #expect(Set(idForms) == ["blob 16, blob 16", "versions blob 16"], "ids as their 16 bytes")
        #expect(indexes == ["guests_block", "guests_pending"], "no index of the key beside the table")
        #expect(
            triggers == [
                "guests_added", "guests_left_page", "guests_moved", "guests_rekeyed", "guests_removed",
                "guests_removed_from_page",
            ])
        let count = try store.guestCount(eventId: first.eventId)
        let version = try store.rosterVersion(eventId: first.eventId)
        let added = LocalGuest(
            id: .random(), eventId: first.eventId, accessTypeId: first.accessTypeId, name: "Keyed Guest",
            email: "keyed@example.org", code: "KEYED1", notes: "", status: .confirmed, checkIn: nil)
        try store.queue.write { db in _ = try store.writeRosterPages(db, eventId: first.eventId, guests: [added]) }
        #expect(try store.guest(eventId: first.eventId, id: added.id) == added)
        #expect(try store.guestCount(eventId: first.eventId) == count + 1)
        #expect(try store.rosterVersion(eventId: first.eventId) == version + 1)
        let page = try #require(
            try app.store.queue.read { db in
                try Int64.fetchOne(db, sql: "SELECT page FROM guests WHERE id = ?", arguments: [added.id.data])
            })
        try store.queue.write { db in
            try db.execute(sql: "DELETE FROM guests WHERE id = ?", arguments: [added.id.data])
        }
        #expect(try store.guestCount(eventId: first.eventId) == count)
        #expect(try store.rosterVersion(eventId: first.eventId) == version + 2)
        let left = try app.store.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM roster_pages WHERE id = ?", arguments: [page])
        }
        #expect(left == 0, "the page of the removed guest alone is deleted with it")
    }
}
