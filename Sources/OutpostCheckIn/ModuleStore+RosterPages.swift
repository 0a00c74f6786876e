import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// A roster page that cannot be read: its box does not open (a byte changed, the box was cut
/// short or moved to another page's place), its plaintext is not a page, or it does not hold
/// the guest its row points to. The guests on it are unreadable until the roster is pulled
/// again; what this device confirmed is in its outbox, not on the page.
package struct RosterPageDamaged: Error, Equatable, CustomStringConvertible {
    package var eventId: EventID
    package var page: Int64
    package var reason: String

    package var description: String { "roster page \(page) of event \(eventId.wire) \(reason)" }
}

/// The roster as the device keeps it: the server's guests sealed a page at a time
/// (``RosterPageCoding``, one AES-GCM box for up to 128 guests, bound to its event and page
/// number), and a row per guest with what is read in plain (its keys digest, status, check-in time,
/// its page and slot). A guest this device changed (a check-in, a walk-in, a name given at the
/// door) is sealed alone in its row's `sealed`, which then wins over its page; the next roster
/// page that carries the guest moves it back onto a page.
///
/// `live` counts the rows that point to a page; triggers keep it, and a page no row points to
/// any more (its guests came again on later pages, or were removed) is deleted.
extension ModuleStore where Owner == CheckInModule {
    /// The columns and join every guest read uses (``openGuest(row:eventId:pages:)``).
    static let guestColumns = "g.id, g.sealed, g.page, g.slot, p.sealed AS page_box"
    static let guestSource = "guests g LEFT JOIN roster_pages p ON p.id = g.page"

    /// What a page's box is bound to: a box opens only as the page it was sealed as.
    static func pageContext(eventId: String, page: Int64) -> Data {
        var bytes = Array("outpost roster page v1".utf8)
        ByteLayout.append(eventId, to: &bytes)
        ByteLayout.append(bigEndian: UInt64(bitPattern: page), to: &bytes)
        return Data(bytes)
    }

    static let insertPageSQL = "INSERT INTO roster_pages (id, event_id, live, sealed) VALUES (?, ?, ?, ?)"

    /// The number the next new page gets.
    static func nextPage(_ db: Database) throws -> Int64 {
        (try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM roster_pages")) ?? 0) + 1
    }

    /// Seals `builder`'s page as a new page of the event and returns its number.
    static func insertPage(
        _ db: Database, sealer: Sealer, eventId: EventID, builder: RosterPageCoding.Builder
    ) throws -> Int64 {
        let page = try nextPage(db)
        let box = try sealer.seal(
            Data(builder.bytes(eventId: eventId)), authenticating: pageContext(eventId: eventId.wire, page: page))
        try db.cachedStatement(sql: insertPageSQL).execute(arguments: [page, eventId.wire, builder.count, box])
        return page
    }

    /// One page ready to write: its box, and each guest's keys digest.
    private struct SealedPage: Sendable {
        var page: Int64
        var box: Data
        var digests: [Data]
    }

    /// Writes the server's guests of one roster page: sealed in pages of
    /// ``RosterPageCoding/capacity``, each guest's row pointing to its page and slot. Each guest
    /// once (the caller keeps the last of repeats), so each page's `live` is exact. The pages are
    /// encoded and sealed, and the keys digests computed, on every core; only the inserts are
    /// one at a time. Returns each guest's keys digest, in the guests' order.
    @discardableResult
    func writeRosterPages(_ db: Database, eventId: EventID, guests: [LocalGuest]) throws -> [Data] {
        let first = try Self.nextPage(db)
        let starts = Array(stride(from: 0, to: guests.count, by: RosterPageCoding.capacity))
        let sealer = sealer
        let sealed = try ParallelMap.map(starts, minimumChunk: 4) { start -> SealedPage in
            let chunk = guests[start..<min(start + RosterPageCoding.capacity, guests.count)]
            let page = first + Int64(start / RosterPageCoding.capacity)
            let box = try sealer.seal(
                Data(RosterPageCoding.encode(chunk, eventId: eventId)),
                authenticating: Self.pageContext(eventId: eventId.wire, page: page))
            let digests = chunk.map { sealer.digest([$0.name, $0.email, $0.code]) }
            return SealedPage(page: page, box: box, digests: digests)
        }
        let insertPage = try db.cachedStatement(sql: Self.insertPageSQL)
        let row = try db.cachedStatement(
            sql: """
                INSERT INTO guests (event_id, id, keys_digest, status, checked_in_at, local_pending, sealed, block_id,
                    page, slot)
                VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
                ON CONFLICT (event_id, id) DO UPDATE SET keys_digest = excluded.keys_digest, status = excluded.status,
                    checked_in_at = excluded.checked_in_at, local_pending = excluded.local_pending, sealed = NULL,
                    block_id = excluded.block_id, page = excluded.page, slot = excluded.slot
                """)
        let event = eventId.data
        for (start, page) in zip(starts, sealed) {
            try insertPage.execute(arguments: [page.page, eventId.wire, page.digests.count, page.box])
            for (slot, digest) in page.digests.enumerated() {
                let guest = guests[start + slot]
                try row.execute(arguments: [
                    event, guest.id.data, digest, guest.status.rawValue,
                    guest.checkIn?.at.millisecondsSince1970, guest.checkIn?.pending == true ? 1 : 0,
                    guest.blockId?.wire, page.page, slot,
                ])
            }
        }
        return sealed.flatMap(\.digests)
    }

    /// Opens a page's box as page `page` of the event.
    func openPage(eventId: EventID, page: Int64, box: Data) throws -> RosterPageCoding.Page {
        let plaintext: Data
        do {
            plaintext = try sealer.open(box, authenticating: Self.pageContext(eventId: eventId.wire, page: page))
        } catch {
            throw RosterPageDamaged(
                eventId: eventId, page: page, reason: "does not open: damaged, cut short or moved from another place")
        }
        do {
            let opened = try RosterPageCoding.Page(plaintext)
            guard opened.eventId == eventId else { throw ByteLayout.Failure.malformed("eventId") }
            return opened
        } catch {
            throw RosterPageDamaged(eventId: eventId, page: page, reason: "is not a roster page (\(error))")
        }
    }

    /// A guest's row: its own box when this device changed it, else its slot on its page, which
    /// `opened` finds by number (nil: no such page). Every read of a guest comes here, one row
    /// at a time or the whole roster on every core.
    static func guest(
        id: Data, own: Data?, page: Int64?, slot: Int?, eventId: EventID, sealer: Sealer,
        opened: (Int64) throws -> RosterPageCoding.Page?
    ) throws -> LocalGuest {
        if let own { return try sealer.openGuest(own) }
        guard let page else { throw SealError.cannotOpen }
        guard let onPage = try opened(page) else {
            throw RosterPageDamaged(eventId: eventId, page: page, reason: "is missing")
        }
        let slot = slot ?? -1
        let guest: LocalGuest
        do {
            guest = try onPage.guest(at: slot)
        } catch {
            throw RosterPageDamaged(eventId: eventId, page: page, reason: "has no readable guest in slot \(slot)")
        }
        guard guest.id.data == id else {
            throw RosterPageDamaged(eventId: eventId, page: page, reason: "holds another guest in slot \(slot)")
        }
        return guest
    }

    /// The guest of a row read with ``guestColumns``. `pages` keeps the pages opened by earlier
    /// rows of one read.
    func openGuest(row: Row, eventId: EventID, pages: inout [Int64: RosterPageCoding.Page]) throws -> LocalGuest {
        try Self.guest(
            id: row["id"], own: row["sealed"], page: row["page"], slot: row["slot"], eventId: eventId, sealer: sealer
        ) { page in
            if let known = pages[page] { return known }
            guard let box = row["page_box"] as Data? else { return nil }
            let opened = try openPage(eventId: eventId, page: page, box: box)
            pages[page] = opened
            return opened
        }
    }

    /// One guest's row, read inside `db`.
    func openGuest(row: Row, eventId: EventID) throws -> LocalGuest {
        try Self.guest(
            id: row["id"], own: row["sealed"], page: row["page"], slot: row["slot"], eventId: eventId, sealer: sealer
        ) { page in try (row["page_box"] as Data?).map { try openPage(eventId: eventId, page: page, box: $0) } }
    }

    /// The roster tables of the page layout, and every guest sealed alone until now moved onto
    /// pages. A row's fields after its ids are the same bytes in a page's record, so they are
    /// copied, not decoded; a row that does not open, or was sealed as JSON by an early version,
    /// keeps its own box and is read as before.
    static var rosterPagesMigration: DeviceMigration {
        DeviceMigration("roster pages") { db, sealer in
            try db.execute(
                sql: """
                    CREATE TABLE roster_pages (
                        id INTEGER PRIMARY KEY, event_id TEXT NOT NULL, live INTEGER NOT NULL, sealed BLOB NOT NULL);
                    CREATE TABLE guests_paged (
                        event_id TEXT NOT NULL, id TEXT NOT NULL, code_index BLOB NOT NULL, email_index BLOB NOT NULL,
                        status TEXT NOT NULL, checked_in_at INTEGER, local_pending INTEGER NOT NULL DEFAULT 0,
                        keys_digest BLOB, block_id TEXT, sealed BLOB, page INTEGER, slot INTEGER,
                        PRIMARY KEY (event_id, id));
                    INSERT INTO guests_paged (event_id, id, code_index, email_index, status, checked_in_at,
                        local_pending, keys_digest, block_id, sealed)
                        SELECT event_id, id, code_index, email_index, status, checked_in_at, local_pending, keys_digest,
                            block_id, sealed FROM guests;
                    DROP TABLE guests;
                    ALTER TABLE guests_paged RENAME TO guests;
                    CREATE INDEX guests_pending ON guests (event_id) WHERE local_pending = 1;
                    CREATE INDEX guests_code ON guests (code_index);
                    CREATE INDEX guests_email ON guests (email_index);
                    CREATE INDEX guests_block ON guests (event_id, block_id) WHERE block_id IS NOT NULL;
                    CREATE TRIGGER guests_added AFTER INSERT ON guests BEGIN
                        INSERT INTO roster_versions (event_id, version, guests) VALUES (NEW.event_id, 1, 1)
                        ON CONFLICT (event_id) DO UPDATE SET version = version + 1, guests = guests + 1;
                    END;
                    CREATE TRIGGER guests_removed AFTER DELETE ON guests BEGIN
                        UPDATE roster_versions SET version = version + 1, guests = guests - 1
                        WHERE event_id = OLD.event_id;
                    END;
                    CREATE TRIGGER guests_moved AFTER UPDATE OF event_id ON guests
                    WHEN OLD.event_id IS NOT NEW.event_id BEGIN
                        UPDATE roster_versions SET version = version + 1, guests = guests - 1
                        WHERE event_id = OLD.event_id;
                        INSERT INTO roster_versions (event_id, version, guests) VALUES (NEW.event_id, 1, 1)
                        ON CONFLICT (event_id) DO UPDATE SET version = version + 1, guests = guests + 1;
                    END;
                    CREATE TRIGGER guests_rekeyed AFTER UPDATE OF keys_digest, id ON guests
                    WHEN OLD.keys_digest IS NOT NEW.keys_digest OR OLD.id IS NOT NEW.id BEGIN
                        UPDATE roster_versions SET version = version + 1 WHERE event_id = NEW.event_id;
                    END;
                    CREATE TRIGGER guests_left_page AFTER UPDATE OF page ON guests
                    WHEN OLD.page IS NOT NULL AND OLD.page IS NOT NEW.page BEGIN
                        UPDATE roster_pages SET live = live - 1 WHERE id = OLD.page;
                        DELETE FROM roster_pages WHERE id = OLD.page AND live <= 0;
                    END;
                    CREATE TRIGGER guests_removed_from_page AFTER DELETE ON guests WHEN OLD.page IS NOT NULL BEGIN
                        UPDATE roster_pages SET live = live - 1 WHERE id = OLD.page;
                        DELETE FROM roster_pages WHERE id = OLD.page AND live <= 0;
                    END;
                    """)
            let place = try db.makeStatement(
                sql: "UPDATE guests SET sealed = NULL, page = ?, slot = ? WHERE event_id = ? AND id = ?")
            for eventText in try String.fetchAll(db, sql: "SELECT DISTINCT event_id FROM guests") {
                // An event id that is not one keeps its rows' own boxes, as a row that does not open.
                guard let eventId = EventID(wire: eventText) else { continue }
                var builder = RosterPageCoding.Builder()
                var ids: [String] = []
                func flush() throws {
                    guard builder.count > 0 else { return }
                    let page = try insertPage(db, sealer: sealer, eventId: eventId, builder: builder)
                    for (slot, id) in ids.enumerated() { try place.execute(arguments: [page, slot, eventText, id]) }
                    builder = RosterPageCoding.Builder()
                    ids = []
                }
                // In parts by id, so a large roster is never in memory at once.
                var after = ""
                while true {
                    let rows = try Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, sealed FROM guests WHERE event_id = ? AND id > ? AND sealed IS NOT NULL
                            ORDER BY id LIMIT 4096
                            """, arguments: [eventText, after])
                    guard let last = rows.last else { break }
                    after = last["id"]
                    for row in rows {
                        let id: String = row["id"]
                        // A row that does not open stays as it is: shown as damaged, never dropped.
                        guard let plaintext = try? sealer.open(row["sealed"] as Data),
                            plaintext.first == GuestCoding.tag,
                            let fields = try? Self.rowIds(plaintext), fields.id == id, fields.eventId == eventText,
                            let guestId = GuestID(wire: id), let accessTypeId = AccessTypeID(wire: fields.accessTypeId)
                        else { continue }
                        builder.append(id: guestId, accessTypeId: accessTypeId) {
                            $0.append(contentsOf: plaintext.dropFirst(fields.detailsAt))
                        }
                        ids.append(id)
                        if builder.count == RosterPageCoding.capacity { try flush() }
                    }
                }
                try flush()
            }
        }
    }

    /// The ids at the start of a guest sealed alone (``GuestCoding``'s binary form), and where
    /// its remaining fields start.
    private static func rowIds(
        _ plaintext: Data
    ) throws -> (
        id: String, eventId: String, accessTypeId: String, detailsAt: Int
    ) {
        try plaintext.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            return (try reader.string(), try reader.string(), try reader.string(), reader.offset)
        }
    }
}
