import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Records a ticket mail's outcome for a guest (one row per guest; each try counts).
    func recordTicketMail(
        eventId: UUID, guestId: UUID, email: String, state: TicketMailState, error: String?, at: Date
    ) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO ticket_mails (event_id, guest_id, email, status, attempts, error, updated_at)
                VALUES (?, ?, ?, ?, 1, ?, ?)
                ON CONFLICT (event_id, guest_id) DO UPDATE
                SET email = excluded.email, status = excluded.status, attempts = ticket_mails.attempts + 1,
                    error = excluded.error, updated_at = excluded.updated_at
                """,
                [.uuid(eventId), .uuid(guestId), .text(email), .text(state.rawValue), .optionalText(error), .date(at)])
        }
    }

    /// Every guest's last ticket mail of the event, by the guest's name.
    func ticketMails(eventId: UUID) async throws -> [TicketMailDelivery] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT m.guest_id, g.name, m.email, m.status, m.attempts, m.error, m.updated_at
                FROM ticket_mails m JOIN guests g ON g.id = m.guest_id
                WHERE m.event_id = ? ORDER BY g.name, g.id
                """,
                [.uuid(eventId)]
            ).map {
                TicketMailDelivery(
                    guestId: try $0.id("guest_id"), guestName: try $0.text("name"), email: try $0.text("email"),
                    state: try $0.enumeration("status", as: TicketMailState.self),
                    attempts: Int(try $0.int("attempts")),
                    error: try $0.optionalText("error"), at: try $0.date("updated_at"))
            }
        }
    }
}
