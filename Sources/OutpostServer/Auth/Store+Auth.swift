import Foundation
import OutpostCore

/// What presenting a refresh token led to.
enum RefreshOutcome: Sendable {
    /// The token was current: it is now rotated; here is its successor's owner.
    case rotated(userId: UserID, familyId: SignInID, deviceId: String)
    /// The token was rotated moments ago and its successor is still unused (the grace window):
    /// the same successor is answered again; nothing changed.
    case replayed(userId: UserID, familyId: SignInID, deviceId: String)
    /// The token had been rotated before: its whole family is now revoked.
    case reused
    /// Unknown, expired or revoked.
    case invalid
}

extension Store {
    func insertRefreshToken(
        hash: [UInt8], familyId: SignInID, userId: UserID, deviceId: String, issuedAt: Date, expiresAt: Date
    ) async throws {
        try await database.transaction { connection in
            try await Self.insertRefreshToken(
                connection, hash: hash, familyId: familyId, userId: userId, deviceId: deviceId, issuedAt: issuedAt,
                expiresAt: expiresAt)
        }
    }

    private static func insertRefreshToken(
        _ connection: any SQLConnection, hash: [UInt8], familyId: SignInID, userId: UserID, deviceId: String,
        issuedAt: Date, expiresAt: Date
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO refresh_tokens (token_hash, family_id, user_id, device_id, issued_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [.blob(hash), .id(familyId), .id(userId), .text(deviceId), .date(issuedAt), .date(expiresAt)])
    }

    /// Revokes every token of a family still live (reuse of a rotated token, a sign-out), and
    /// the mesh certificates of that sign-in's device.
    private static func revokeFamily(_ connection: any SQLConnection, familyId: SignInID, now: Date) async throws {
        try await connection.execute(
            "UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL",
            [.date(now), .id(familyId)])
        try await revokeMeshCertificates(connection, familyId: familyId, now: now)
    }

    /// Rotates a refresh token in one transaction: the presented token is marked rotated and its
    /// successor (hash `successorHash`) joins the same family. A token presented a second time
    /// revokes the family, so a stolen token is useless once either holder refreshes, with one
    /// exception: presented again within `graceWindow` of its rotation while its successor is
    /// still unused, it is answered as before (`successorHash` is derived from the token, so the
    /// caller hands out the same successor). That is a device whose refresh answer was lost in
    /// transit; the window is short, and using the successor closes it.
    ///
    /// Rotation is one conditional `UPDATE ... WHERE rotated_at IS NULL`: of two presentations
    /// at once, exactly one rotates. On PostgreSQL the second waits on the row lock, finds the
    /// condition false once the first commits, and takes the already-rotated path; on SQLite
    /// write transactions are serial anyway.
    func rotateRefreshToken(
        hash: [UInt8], successorHash: [UInt8], now: Date, lifetime: TimeInterval, graceWindow: TimeInterval
    ) async throws -> RefreshOutcome {
        try await database.transaction { connection in
            if let rotated = try await connection.queryOne(
                """
                UPDATE refresh_tokens SET rotated_at = ?
                WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > ?
                RETURNING family_id, user_id, device_id
                """,
                [.date(now), .blob(hash), .date(now)])
            {
                let familyId = try rotated.id("family_id", as: SignInID.self)
                let userId = try rotated.id("user_id", as: UserID.self)
                let deviceId = try rotated.text("device_id")
                try await Self.insertRefreshToken(
                    connection, hash: successorHash, familyId: familyId, userId: userId, deviceId: deviceId,
                    issuedAt: now, expiresAt: now + lifetime)
                return .rotated(userId: userId, familyId: familyId, deviceId: deviceId)
            }
            guard
                let row = try await connection.queryOne(
                    "SELECT family_id, user_id, device_id, rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = ?",
                    [.blob(hash)]),
                try row.optionalInt("revoked_at") == nil,
                let rotatedAt = try row.optionalDate("rotated_at")
            else { return .invalid }  // unknown, revoked, or expired before it was ever used
            let familyId = try row.id("family_id", as: SignInID.self)
            if graceWindow > 0, now.timeIntervalSince(rotatedAt) <= graceWindow,
                let successor = try await connection.queryOne(
                    "SELECT rotated_at, revoked_at FROM refresh_tokens WHERE token_hash = ? AND family_id = ?",
                    [.blob(successorHash), .id(familyId)]),
                try successor.optionalInt("rotated_at") == nil, try successor.optionalInt("revoked_at") == nil
            {
                return .replayed(
                    userId: try row.id("user_id"), familyId: familyId, deviceId: try row.text("device_id"))
            }
            try await Self.revokeFamily(connection, familyId: familyId, now: now)
            return .reused
        }
    }

    /// Revokes the family of a refresh token (sign-out), and the mesh certificates of its
    /// device. Unknown tokens are ignored.
    func revokeFamily(ofTokenHash hash: [UInt8], now: Date) async throws {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT family_id FROM refresh_tokens WHERE token_hash = ?", [.blob(hash)])
            else { return }
            try await Self.revokeFamily(connection, familyId: try row.id("family_id"), now: now)
        }
    }

    /// Reserves one sign-in attempt against each subject (`email:...`, `addr:...`) before the
    /// password is checked: in one transaction, each subject's failures within the window are
    /// counted and, if every subject is under its limit, an attempt row is written for each, so
    /// parallel attempts cannot all read the same count. The row counts as a failure until
    /// ``releaseSignInAttempt(_:clearing:)`` removes it after a correct password; an attempt whose
    /// server died mid-check stays counted. PostgreSQL serializes the subjects with transaction
    /// advisory locks (taken in a fixed order); SQLite write transactions are serial already.
    func reserveSignInAttempt(
        subjects: [(subject: String, limit: Int)], now: Date, window: TimeInterval
    ) async throws -> SignInReservation {
        try await database.transaction { connection in
            if database.dialect == .postgres {
                for subject in subjects.map(\.subject).sorted() {
                    try await connection.execute(
                        "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text(subject)])
                }
            }
            for (subject, limit) in subjects {
                let row = try await connection.queryOne(
                    "SELECT COUNT(*) AS failures, MIN(at) AS oldest FROM signin_failures WHERE subject = ? AND at >= ?",
                    [.text(subject), .date(now - window)])
                if Int(try row?.int("failures") ?? 0) >= limit, let oldest = try row?.optionalDate("oldest") {
                    return .limited(until: oldest + window)
                }
            }
            var ids: [Int64] = []
            for (subject, _) in subjects {
                let row = try await connection.queryOne(
                    "INSERT INTO signin_failures (subject, at) VALUES (?, ?) RETURNING id",
                    [.text(subject), .date(now)])
                if let row { ids.append(try row.int("id")) }
            }
            // Keep the table small: nothing older than a day matters.
            try await connection.execute("DELETE FROM signin_failures WHERE at < ?", [.date(now - 86_400)])
            return .reserved(ids)
        }
    }

    /// Removes an attempt's own rows (a correct password, or an attempt never checked) and, with
    /// `subject`, every failure of it (the e-mail after a correct password; the address keeps
    /// its other failures). Clearing a subject deletes other attempts' rows, so on PostgreSQL it
    /// first takes the subject's advisory lock, as a reservation does: two correct sign-ins of
    /// one user each holding its own row and waiting for the other's were a deadlock (40P01).
    func releaseSignInAttempt(_ ids: [Int64], clearing subject: String?) async throws {
        try await database.transaction { connection in
            if database.dialect == .postgres, let subject {
                try await connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [.text(subject)])
            }
            for id in ids {
                try await connection.execute("DELETE FROM signin_failures WHERE id = ?", [.int(id)])
            }
            if let subject {
                try await connection.execute("DELETE FROM signin_failures WHERE subject = ?", [.text(subject)])
            }
        }
    }

    /// Replaces a user's password hash (an old-form hash upgraded after a correct sign-in).
    func updatePasswordHash(userId: UserID, from old: String, to new: String) async throws {
        try await database.transaction { connection in
            try await connection.execute(
                "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?",
                [.text(new), .id(userId), .text(old)])
        }
    }
}

/// What reserving a sign-in attempt found.
enum SignInReservation: Sendable {
    /// Under every limit: the attempt is counted (these rows) until a correct password releases it.
    case reserved([Int64])
    /// A subject is at its limit until this moment.
    case limited(until: Date)

    /// The reserved rows; at a limit, 429 `rate_limited` with `Retry-After` and "`refusal`; try
    /// again in N seconds."
    func attempt(now: Date, refusal: String) throws -> [Int64] {
        switch self {
        case .reserved(let ids): return ids
        case .limited(let until):
            let retryAfter = max(1, Int(until.timeIntervalSince(now).rounded(.up)))
            throw APIError(
                .tooManyRequests, .rateLimited, "\(refusal); try again in \(retryAfter) seconds.",
                headers: [.retryAfter: String(retryAfter)])
        }
    }
}
