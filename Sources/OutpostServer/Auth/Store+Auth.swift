import Foundation
import OutpostCore

/// What presenting a refresh token led to.
enum RefreshOutcome: Sendable {
    /// The token was current: it is now rotated; here is its successor's owner. Also the answer
    /// to a token rotated moments ago whose successor is still unused (the grace window).
    case rotated(userId: UUID, familyId: UUID, deviceId: String)
    /// The token had been rotated before: its whole family is now revoked.
    case reused
    /// Unknown, expired or revoked.
    case invalid
}

extension Store {
    func insertRefreshToken(
        hash: [UInt8], familyId: UUID, userId: UUID, deviceId: String, issuedAt: Date, expiresAt: Date
    ) async throws {
        try await database.transaction { connection in
            try await Self.insertRefreshToken(
                connection, hash: hash, familyId: familyId, userId: userId, deviceId: deviceId, issuedAt: issuedAt,
                expiresAt: expiresAt)
        }
    }

    /// Inserts a refresh token row. With `ifAbsent`, a row already holding `hash` is left as it is
    /// and false comes back; without it, that is a constraint error.
    @discardableResult
    private static func insertRefreshToken(
        _ connection: any SQLConnection, hash: [UInt8], familyId: UUID, userId: UUID, deviceId: String,
        issuedAt: Date, expiresAt: Date, ifAbsent: Bool = false
    ) async throws -> Bool {
        let insert = """
            INSERT INTO refresh_tokens (token_hash, family_id, user_id, device_id, issued_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """
        let binds: [SQLValue] = [
            .blob(hash), .uuid(familyId), .uuid(userId), .text(deviceId), .date(issuedAt), .date(expiresAt),
        ]
        guard ifAbsent else {
            try await connection.execute(insert, binds)
            return true
        }
        return try await connection.queryOne(
            insert + " ON CONFLICT (token_hash) DO NOTHING RETURNING family_id", binds) != nil
    }

    /// Revokes every token of a family still live (reuse of a rotated token).
    private static func revokeFamily(_ connection: any SQLConnection, familyId: UUID, now: Date) async throws {
        try await connection.execute(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
            [.date(now), .uuid(familyId)])
    }

    /// Rotates a refresh token in one transaction: the presented token is marked rotated and its
    /// successor (hash `successorHash`) joins the same family. A token presented a second time
    /// revokes the family, so a stolen token is useless once either holder refreshes, with one
    /// exception: presented again within `graceWindow` of its rotation while its successor is
    /// still unused, it is answered as before (`successorHash` is derived from the token, so the
    /// caller hands out the same successor). That is a device whose refresh answer was lost in
    /// transit; the window is short, and using the successor closes it.
    func rotateRefreshToken(
        hash: [UInt8], successorHash: [UInt8], now: Date, lifetime: TimeInterval, graceWindow: TimeInterval
    ) async throws -> RefreshOutcome {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    """
                    SELECT family_id, user_id, device_id, expires_at, rotated_at, revoked_at
                    FROM refresh_tokens WHERE token_hash = ?
                    """,
                    [.blob(hash)])
            else { return .invalid }
            let familyId = try row.uuid("family_id")
            if try row.optionalInt("revoked_at") != nil { return .invalid }
            if let rotatedAt = try row.optionalDate("rotated_at") {
                if now.timeIntervalSince(rotatedAt) <= graceWindow,
                    let successor = try await connection.queryOne(
                        "SELECT rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = ? AND family_id = ?",
                        [.blob(successorHash), .uuid(familyId)]),
                    try successor.optionalInt("rotated_at") == nil, try successor.optionalInt("revoked_at") == nil
                {
                    return .rotated(
                        userId: try row.uuid("user_id"), familyId: familyId, deviceId: try row.text("device_id"))
                }
                try await Self.revokeFamily(connection, familyId: familyId, now: now)
                return .reused
            }
            if try row.date("expires_at") <= now { return .invalid }
            let userId = try row.uuid("user_id")
            let deviceId = try row.text("device_id")
            try await connection.execute(
                "UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ?", [.date(now), .blob(hash)])
            // The successor is derived from the token, so the same token presented twice at once
            // (a duplicating proxy, a retry racing its original) derives the same successor: the
            // one that commits second finds it inserted. Within the grace window that is the
            // same answer again; without a window it is reuse.
            let inserted = try await Self.insertRefreshToken(
                connection, hash: successorHash, familyId: familyId, userId: userId, deviceId: deviceId, issuedAt: now,
                expiresAt: now + lifetime, ifAbsent: true)
            if !inserted, graceWindow <= 0 {
                try await Self.revokeFamily(connection, familyId: familyId, now: now)
                return .reused
            }
            return .rotated(userId: userId, familyId: familyId, deviceId: deviceId)
        }
    }

    /// Revokes the family of a refresh token (sign-out). Unknown tokens are ignored.
    func revokeFamily(ofTokenHash hash: [UInt8], now: Date) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                """
                UPDATE refresh_tokens SET revoked_at = ?
                WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = ?)
                """,
                [.date(now), .blob(hash)])
        }
    }

    /// Records a failed sign-in against each subject (`email:...`, `addr:...`).
    func recordSignInFailure(subjects: [String], at: Date) async throws {
        try await database.transaction { connection in
            for subject in subjects {
                try await connection.execute(
                    "INSERT INTO signin_failures (subject, at) VALUES (?, ?)", [.text(subject), .date(at)])
            }
            // Keep the table small: nothing older than a day matters.
            try await connection.execute(
                "DELETE FROM signin_failures WHERE at < ?", [.date(at - 86_400)])
        }
    }

    /// Failures of a subject since `since`: how many, and the oldest one's time.
    func signInFailures(subject: String, since: Date) async throws -> (count: Int, oldest: Date?) {
        try await database.read { connection in
            let row = try await connection.queryOne(
                "SELECT COUNT(*) AS failures, MIN(at) AS oldest FROM signin_failures WHERE subject = ? AND at >= ?",
                [.text(subject), .date(since)])
            return (Int(try row?.int("failures") ?? 0), try row?.optionalDate("oldest"))
        }
    }

    func clearSignInFailures(subject: String) async throws {
        try await database.transaction { connection in
            try await connection.execute("DELETE FROM signin_failures WHERE subject = ?", [.text(subject)])
        }
    }
}
