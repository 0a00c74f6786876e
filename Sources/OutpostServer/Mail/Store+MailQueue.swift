import Foundation
import OutpostCore

/// What a queued mail is for (its status is read back by what queued it).
enum MailPurpose: String, Sendable, CaseIterable {
    /// A code to sign in with, asked for an e-mail that may have no account (then nothing goes).
    case signInCode = "sign-in-code"
    /// A code to create an account with (or to sign in, when the e-mail has one).
    case registrationCode = "registration-code"
    case ticket
    /// A link to set a new password, sent by an organizer.
    case passwordLink = "password-link"
}

/// Where a queued mail stands.
enum MailQueueState: String, Sendable, CaseIterable {
    /// Waiting for its next try (or being sent now).
    case queued
    /// The relay accepted it.
    case sent
    /// The relay refused it for good, or every try failed.
    case failed
    /// Its content stopped being useful before it could be sent (a sign-in code's ten minutes).
    case expired
    /// Nothing to send: a sign-in code asked for an e-mail no account has.
    case dropped
}

/// A mail to queue: rendered once (``MailMessage/rendered(date:messageID:)``), so every try
/// sends the same bytes with the same Message-ID; or, with `rendered` empty, a request the
/// sender makes into a mail (``MailQueue/Preparer``).
struct OutgoingMail: Sendable, Equatable {
    var purpose: MailPurpose
    var from: String
    var to: String
    var rendered: String
    /// After this the mail is not sent.
    var expiresAt: Date?

    /// A request for a mail the sender makes (a sign-in code for `to`).
    init(request purpose: MailPurpose, from: String, to: String, expiresAt: Date?) {
        self.purpose = purpose
        self.from = from
        self.to = to
        self.rendered = ""
        self.expiresAt = expiresAt
    }

    init(purpose: MailPurpose, message: MailMessage, messageID: String, now: Date, expiresAt: Date? = nil) throws {
        self.purpose = purpose
        self.from = message.from
        self.to = message.to
        self.rendered = try message.rendered(date: now, messageID: messageID)
        self.expiresAt = expiresAt
    }
}

/// A mail in the queue, as the sender reads it.
struct QueuedMail: Sendable, Equatable {
    /// Whether this is a request the sender still has to make into a mail.
    var isRequest: Bool { rendered.isEmpty }

    var id: Int64
    var purpose: MailPurpose
    var from: String
    var to: String
    var rendered: String
    var attempts: Int
    var nextAttemptAt: Date
    var expiresAt: Date?
}

extension Store {
    /// Queues `mail` inside the caller's transaction (so a sign-in code and its mail, or a
    /// ticket mail and its record, are stored together or not at all); returns its id.
    static func enqueueMail(_ connection: any SQLConnection, _ mail: OutgoingMail, now: Date) async throws -> Int64 {
        let row = try await connection.queryOne(
            """
            INSERT INTO mail_queue (purpose, mail_from, rcpt_to, message, state, attempts, next_attempt_at,
                expires_at, created_at)
            VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?) RETURNING id
            """,
            [
                .text(mail.purpose.rawValue), .text(mail.from), .text(mail.to), .text(mail.rendered), .date(now),
                .optionalDate(mail.expiresAt), .date(now),
            ])
        return try row?.int("id") ?? 0
    }

    /// Queued mails due at `now`, the longest waiting first.
    func dueMails(now: Date, limit: Int) async throws -> [QueuedMail] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT id, purpose, mail_from, rcpt_to, message, attempts, next_attempt_at, expires_at
                FROM mail_queue WHERE state = 'queued' AND next_attempt_at <= ?
                ORDER BY next_attempt_at, id LIMIT ?
                """, [.date(now), .int(Int64(limit))]
            ).map {
                QueuedMail(
                    id: try $0.int("id"), purpose: try $0.enumeration("purpose", as: MailPurpose.self),
                    from: try $0.text("mail_from"), to: try $0.text("rcpt_to"), rendered: try $0.text("message"),
                    attempts: Int(try $0.int("attempts")), nextAttemptAt: try $0.date("next_attempt_at"),
                    expiresAt: try $0.optionalDate("expires_at"))
            }
        }
    }

    /// Takes a due mail for one try: counts the try and pushes its due time `lease` ahead, only
    /// if nobody took it since it was read (one conditional UPDATE, so two instances never both
    /// send it). False when another sender has it.
    func claimMail(_ mail: QueuedMail, now: Date, lease: TimeInterval) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.queryOne(
                """
                UPDATE mail_queue SET attempts = attempts + 1, next_attempt_at = ?
                WHERE id = ? AND state = 'queued' AND next_attempt_at = ? RETURNING id
                """, [.date(now + lease), .int(mail.id), .date(mail.nextAttemptAt)]) != nil
        }
    }

    /// Ends a mail's life in the queue; its text is dropped (a code is not kept after it went).
    func settleMail(id: Int64, state: MailQueueState, error: String?, now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                UPDATE mail_queue SET state = ?, message = '', last_error = COALESCE(?, last_error), settled_at = ?
                WHERE id = ?
                """, [.text(state.rawValue), .optionalText(error), .date(now), .int(id)])
        }
    }

    /// A failed try: the mail waits until `until`, with the reason kept.
    func deferMail(id: Int64, error: String, until: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE mail_queue SET next_attempt_at = ?, last_error = ? WHERE id = ? AND state = 'queued'",
                [.date(until), .text(error), .int(id)])
        }
    }

    /// Makes a queued mail due now (a resend asked for while it waits).
    func retryMailNow(id: Int64, now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE mail_queue SET next_attempt_at = ? WHERE id = ? AND state = 'queued' AND next_attempt_at > ?",
                [.date(now), .int(id), .date(now)])
        }
    }

    /// How many mails are in each state.
    func mailQueueCounts() async throws -> [MailQueueState: Int] {
        try await database.read { connection in
            var counts: [MailQueueState: Int] = [:]
            for row in try await connection.query("SELECT state, COUNT(*) AS n FROM mail_queue GROUP BY state", []) {
                counts[try row.enumeration("state", as: MailQueueState.self)] = Int(try row.int("n"))
            }
            return counts
        }
    }
}
