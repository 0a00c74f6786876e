import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// How a code presented for sign-in ended.
enum EmailCodeCheck: Sendable, Equatable {
    case valid
    /// Wrong, expired, used, burned after too many wrong tries, or never sent: one answer.
    case invalid
}

extension Store {
    /// A code may be tried this many times before it is burned.
    static let emailCodeAttempts = 5

    /// The HMAC of a code for an e-mail under the server's secret.
    func emailCodeHash(email: String, code: String) async throws -> [UInt8] {
        let secret = try await secret(named: "email-code-hmac")
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array("\(Self.normalizedEmail(email))|\(code)".utf8))
        return Array(hmac.finalize())
    }

    /// Queues a code asked for (``EmailCodeMail`` makes it when the sender takes it).
    func queueCodeRequest(_ request: OutgoingMail, now: Date) async throws {
        try await database.transaction { connection in
            _ = try await Self.enqueueMail(connection, request, now: now)
        }
    }

    /// Stores a new code for `email` (valid `lifetime`) and, in the same transaction, makes the
    /// queued request `mailId` the mail that carries it; earlier unused codes of the e-mail stop
    /// working, so only the newest mail counts.
    func storeEmailCode(
        email: String, hash: [UInt8], now: Date, lifetime: TimeInterval, mailId: Int64, to: String, rendered: String
    ) async throws {
        try await database.transaction { connection in
            let email = Self.normalizedEmail(email)
            try await connection.execute(
                "UPDATE email_codes SET used_at = ? WHERE email = ? AND used_at IS NULL", [.date(now), .text(email)])
            try await connection.execute(
                "INSERT INTO email_codes (email, code_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [.text(email), .blob(hash), .date(now), .date(now + lifetime)])
            try await connection.execute(
                "UPDATE mail_queue SET rcpt_to = ?, message = ?, expires_at = ? WHERE id = ?",
                [.text(to), .text(rendered), .date(now + lifetime), .int(mailId)])
        }
    }

    /// Checks a code against the e-mail's newest live one and, when it matches, uses it up (one
    /// conditional UPDATE, so two simultaneous presentations cannot both succeed). A wrong code
    /// counts against the live one, which is burned after ``emailCodeAttempts`` tries.
    /// Checks a code and, when `consume`, uses it up; a wrong one counts against the code either way.
    func useEmailCode(email: String, hash: [UInt8], now: Date, consume: Bool = true) async throws -> EmailCodeCheck {
        try await database.transaction { connection in
            let email = Self.normalizedEmail(email)
            guard
                let live = try await connection.queryOne(
                    """
                    SELECT id, code_hash FROM email_codes
                    WHERE email = ? AND used_at IS NULL AND expires_at > ? AND attempts < ?
                    ORDER BY id DESC LIMIT 1
                    """, [.text(email), .date(now), .int(Int64(Self.emailCodeAttempts))])
            else { return .invalid }
            let id = try live.int("id")
            let stored = try live.blob("code_hash")
            guard stored.count == hash.count, zip(stored, hash).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
                try await connection.execute("UPDATE email_codes SET attempts = attempts + 1 WHERE id = ?", [.int(id)])
                return .invalid
            }
            guard consume else { return .valid }
            let used = try await connection.queryOne(
                "UPDATE email_codes SET used_at = ? WHERE id = ? AND used_at IS NULL RETURNING id",
                [.date(now), .int(id)])
            return used == nil ? .invalid : .valid
        }
    }

    /// Creates a worker who registered with an e-mail code: a tenant of their own, the user,
    /// and the consent they gave, in one transaction. Nil when the e-mail exists meanwhile.
    func registerWorker(
        email: String, name: String, consentVersion: String, passwordHash: String, now: Date
    ) async throws -> UserRecord? {
        let user = UserRecord(
            id: .random(), tenantId: .random(), email: Self.normalizedEmail(email), name: name, role: .worker,
            passwordHash: passwordHash)
        return try await database.transaction { connection in
            if try await connection.queryOne("SELECT 1 FROM users WHERE email = ?", [.text(user.email)]) != nil {
                return nil
            }
            try await connection.execute(
                "INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)",
                [.id(user.tenantId), .text(name), .date(now)])
            try await connection.execute(
                """
                INSERT INTO users (id, tenant_id, email, name, role, password_hash, created_at, consent_version, consent_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(user.id), .id(user.tenantId), .text(user.email), .text(name), .text(user.role.rawValue),
                    .text(passwordHash), .date(now), .text(consentVersion), .date(now),
                ])
            return user
        }
    }

    func consent(userId: UserID) async throws -> ConsentRecord {
        try await database.read { connection in
            let row = try await connection.queryOne(
                "SELECT consent_version, consent_at FROM users WHERE id = ?", [.id(userId)])
            return ConsentRecord(
                version: try row?.optionalText("consent_version"), acceptedAt: try row?.optionalDate("consent_at"))
        }
    }

    func setConsent(userId: UserID, version: String, now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE users SET consent_version = ?, consent_at = ? WHERE id = ?",
                [.text(version), .date(now), .id(userId)])
        }
    }
}
