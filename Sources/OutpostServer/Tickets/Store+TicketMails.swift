import Foundation
import OutpostCore
import OutpostProtocol

extension Store {
    /// Queues a guest's ticket mail and records it as theirs, in one transaction (one row per
    /// guest; the tries of the mail it replaces are carried into its count).
    func queueTicketMail(eventId: EventID, guestId: GuestID, email: String, mail: OutgoingMail, now: Date) async throws
    {
        try await database.transaction { connection in
            let mailId = try await Self.enqueueMail(connection, mail, now: now)
            try await connection.execute(
                """
                INSERT INTO ticket_mails (event_id, guest_id, email, status, attempts, error, updated_at, mail_id)
                VALUES (?, ?, ?, 'queued', 0, NULL, ?, ?)
                ON CONFLICT (event_id, guest_id) DO UPDATE
                SET email = excluded.email, status = excluded.status,
                    attempts = ticket_mails.attempts
                        + COALESCE((SELECT q.attempts FROM mail_queue q WHERE q.id = ticket_mails.mail_id), 0),
                    error = NULL, updated_at = excluded.updated_at, mail_id = excluded.mail_id
                """,
                [.id(eventId), .id(guestId), .text(email), .date(now), .int(mailId)])
        }
    }

    /// Records a ticket mail that could not be made (so never queued), with why.
    func recordUnsendableTicketMail(
        eventId: EventID, guestId: GuestID, email: String, error: String, at: Date
    ) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                INSERT INTO ticket_mails (event_id, guest_id, email, status, attempts, error, updated_at, mail_id)
                VALUES (?, ?, ?, 'failed', 0, ?, ?, NULL)
                ON CONFLICT (event_id, guest_id) DO UPDATE
                SET email = excluded.email, status = excluded.status,
                    attempts = ticket_mails.attempts
                        + COALESCE((SELECT q.attempts FROM mail_queue q WHERE q.id = ticket_mails.mail_id), 0),
                    error = excluded.error, updated_at = excluded.updated_at, mail_id = NULL
                """,
                [.id(eventId), .id(guestId), .text(email), .text(error), .date(at)])
        }
    }

    /// Every guest's last ticket mail of the event, by the guest's name, with where its queued
    /// mail stands now; and the queued mail's id for those still waiting.
    func ticketMails(eventId: EventID) async throws -> [(delivery: TicketMailDelivery, waitingMail: Int64?)] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT m.guest_id, g.name, m.email, m.status, m.attempts, m.error, m.updated_at, m.mail_id,
                    q.state AS mail_state, q.attempts AS mail_attempts, q.last_error, q.next_attempt_at,
                    q.settled_at
                FROM ticket_mails m JOIN guests g ON g.id = m.guest_id
                LEFT JOIN mail_queue q ON q.id = m.mail_id
                WHERE m.event_id = ? ORDER BY g.name, g.id
                """,
                [.id(eventId)]
            ).map { row in
                var delivery = TicketMailDelivery(
                    guestId: try row.id("guest_id"), guestName: try row.text("name"), email: try row.text("email"),
                    state: try row.enumeration("status", as: TicketMailState.self),
                    attempts: Int(try row.int("attempts")),
                    error: try row.optionalText("error"), at: try row.date("updated_at"))
                var waiting: Int64?
                if let state = try row.optionalText("mail_state").flatMap(MailQueueState.init(rawValue:)) {
                    delivery.attempts += Int(try row.optionalInt("mail_attempts") ?? 0)
                    delivery.error = try row.optionalText("last_error")
                    switch state {
                    case .queued:
                        delivery.state = .queued
                        delivery.nextAttemptAt = try row.optionalDate("next_attempt_at")
                        waiting = try row.optionalInt("mail_id")
                    case .sent:
                        delivery.state = .sent
                        delivery.error = nil
                    case .failed, .expired, .dropped:
                        delivery.state = .failed
                    }
                    delivery.at = try row.optionalDate("settled_at") ?? delivery.at
                }
                return (delivery, waiting)
            }
        }
    }
}
