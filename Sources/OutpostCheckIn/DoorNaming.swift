import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import OutpostShell

/// A ticket of a block named at the door, as the outbox keeps it until the server has it.
package struct DoorNaming: Codable, Sendable, Hashable {
    package var blockId: TicketBlockID
    package var guestId: GuestID
    package var naming: TicketNaming
}

extension OutboxKind {
    /// A block's unnamed ticket named at the door:
    /// `PUT /v1/ticket-blocks/{blockId}/tickets/{guestId}`.
    package static let doorNaming = OutboxKind(rawValue: "door-naming")
}

extension ModuleStore where Owner == CheckInModule {
    /// Names `guest` at the door: the guest's name here and the naming's outbox entry, in one
    /// transaction (the check-in that follows is queued after it, so the server has the name
    /// first).
    /// `changes` keeps the new name for the search index.
    package func nameAtDoor(
        _ guest: LocalGuest, naming: DoorNaming, owner: UserID, now: Date, changes: LocalRosterChanges
    ) throws -> LocalGuest {
        try queue.write { db in
            var named = guest
            named.name = naming.naming.name
            named.email = naming.naming.email
            try changes.track(db, eventId: guest.eventId, changed: [named]) { try upsert(db, named) }
            _ = try enqueue(
                db, kind: .doorNaming, eventId: guest.eventId,
                idempotencyKey: "door-naming:\(naming.guestId.wire):\(now.millisecondsSince1970)", request: naming,
                owner: owner, now: now)
            return named
        }
    }
}

/// The door's namings: each `PUT` with the name staff typed. The server keeps a naming that
/// found the ticket named meanwhile, flagged for the organizer; the next roster page shows the
/// name that stands.
@MainActor
package struct DoorNamingOutbox: OutboxEntryHandler {
    package let store: ModuleStore<CheckInModule>

    package var kind: OutboxKind { .doorNaming }
    package var noun: ShellStatus.Noun { ShellStatus.Noun(one: "door naming", many: "door namings") }

    package func request(for row: OutboxRow) throws -> TransportRequest {
        let entry = try store.request(of: row, as: DoorNaming.self)
        return TransportRequest(
            API.nameBlockTicket.line(entry.blockId, entry.guestId), headers: ["Content-Type": "application/json"],
            body: try OutpostJSON.encode(entry.naming))
    }

    package func accepts(_ response: TransportResponse) -> Bool { decodes(response, as: TicketNamed.self) }

    package func store(
        _ response: TransportResponse, refusal: String?, for row: OutboxRow, now: Date, in db: Database
    ) throws -> OutboxNotice? {
        try store.recordAnswer(db, row, status: response.status, body: response.body, rejection: refusal, now: now)
        return nil
    }
}
