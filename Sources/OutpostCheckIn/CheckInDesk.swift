import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// What the check-in module offers other modules (kiosk mode admits attendees through it): the
/// offline verification of a ticket, the roster's guests, the event's kiosk settings, and a
/// check-in committed locally and queued like any other. A module finds it through
/// ``ModuleContext/service(_:)``; the roster's tables stay check-in's.
@MainActor
package protocol CheckInDesk: AnyObject {
    /// A scanned text verified for the open event: the ticket as it will be sent and its payload
    /// or why it failed; nil without an open event and a session.
    func verify(_ scanned: String) -> (ticket: String, payload: Result<TicketPayload, TicketError>)?
    /// The guest `id` of `eventId`, if the roster has them.
    func guest(eventId: EventID, id: GuestID) -> LocalGuest?
    /// The guests of `eventId` with this e-mail.
    func guests(eventId: EventID, email: String) -> [LocalGuest]
    /// The event's kiosk settings as the roster brought them.
    func kioskSettings(eventId: EventID) -> KioskInfo?
    /// Commits a check-in of `guest` locally and queues it (one transaction).
    @discardableResult
    func commit(guest: LocalGuest, method: CheckInMethod, ticket: String?, note: String?) throws -> CheckInEntry
    /// The roster's row of a guest, read inside another module's transaction `db` (a walk-in's
    /// answer updates the guest it added).
    func guest(_ db: Database, eventId: EventID, id: GuestID) throws -> LocalGuest?
    /// Writes a guest's roster row (sealed, with its blind indexes) inside `db`: a walk-in is on
    /// the roster, checked in, in the same transaction as its place and its outbox entry.
    func write(_ db: Database, guest: LocalGuest) throws
    /// Takes a guest off the roster inside `db` (a walk-in the server refused for good).
    func removeGuest(_ db: Database, eventId: EventID, id: GuestID) throws
    /// The event's access types as the roster brought them.
    func accessTypes(eventId: EventID) -> [AccessTypeInfo]
}

extension CheckInModule: CheckInDesk {
    /// As the door decides on them: a guest another door admitted (over the venue mesh) is
    /// already checked in here too, at the kiosk as at the station.
    package func guest(eventId: EventID, id: GuestID) -> LocalGuest? {
        // An unreadable roster is no guest here, and a storage fault on the staff's banner.
        (readRoster { try store.guest(eventId: eventId, id: id) } ?? nil).map(withPeerAdmission)
    }

    package func guests(eventId: EventID, email: String) -> [LocalGuest] {
        (lookUp(eventId: eventId, .email, email) ?? []).map(withPeerAdmission)
    }

    package func guest(_ db: Database, eventId: EventID, id: GuestID) throws -> LocalGuest? {
        try store.guest(db, eventId: eventId, id: id)
    }

    package func write(_ db: Database, guest: LocalGuest) throws {
        try localChanges.track(db, eventId: guest.eventId, changed: [guest]) { try store.upsert(db, guest) }
    }

    package func removeGuest(_ db: Database, eventId: EventID, id: GuestID) throws {
        try localChanges.track(db, eventId: eventId, removed: [id]) {
            try db.execute(
                sql: "DELETE FROM guests WHERE event_id = ? AND id = ?", arguments: [eventId.data, id.data])
        }
    }

    package func accessTypes(eventId: EventID) -> [AccessTypeInfo] {
        context.surfacing("read the access types") { try store.accessTypes(eventId: eventId) } ?? []
    }

    package func kioskSettings(eventId: EventID) -> KioskInfo? {
        // Unreadable settings are no settings: kiosk set-up says so, and the banner says why.
        context.surfacing("read the kiosk settings") { try store.kiosk(eventId: eventId) } ?? nil
    }
}
