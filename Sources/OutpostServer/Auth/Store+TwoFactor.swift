import Foundation
import OutpostCore
import OutpostProtocol

/// Two-factor sign-in's rows: the user's sealed TOTP secret (enrolling until its first code,
/// then on), the last step a code was accepted for (a code signs in once), and the recovery
/// codes' hashes with when each was used.
extension Store {
    func twoFactorStatus(userId: UserID) async throws -> (enabled: Bool, enrolling: Bool, recoveryCodesLeft: Int) {
        try await database.read { connection in
            let row = try await connection.queryOne(
                """
                SELECT (SELECT confirmed_at FROM two_factor WHERE user_id = ?) AS confirmed_at,
                    (SELECT COUNT(*) FROM two_factor WHERE user_id = ?) AS rows,
                    (SELECT COUNT(*) FROM recovery_codes WHERE user_id = ? AND used_at IS NULL) AS left_codes
                """,
                [.id(userId), .id(userId), .id(userId)])
            let enabled = try row?.optionalInt("confirmed_at") != nil
            let rows = try row?.int("rows") ?? 0
            return (enabled, !enabled && rows > 0, Int(try row?.int("left_codes") ?? 0))
        }
    }

    func twoFactorEnabled(userId: UserID) async throws -> Bool {
        try await twoFactorStatus(userId: userId).enabled
    }

    /// The tenant's users who sign in with a second factor (turned on, not just enrolling).
    func twoFactorUsers(tenantId: TenantID) async throws -> Set<UserID> {
        try await database.read { connection in
            Set(
                try await connection.query(
                    """
                    SELECT t.user_id FROM two_factor t JOIN users u ON u.id = t.user_id
                    WHERE u.tenant_id = ? AND t.confirmed_at IS NOT NULL
                    """, [.id(tenantId)]
                ).map { try $0.id("user_id", as: UserID.self) })
        }
    }

    /// Turns a user's second factor off for them (a lost phone and lost recovery codes): the
    /// secret and the recovery codes go, and every sign-in of theirs ends, so whoever holds one
    /// signs in again with the password alone. False when the tenant has no such user.
    func turnOffTwoFactor(_ id: UserID, tenantId: TenantID, by actor: UserID, now: Date) async throws -> Bool {
        try await database.transaction { connection in
            guard try await Self.isActiveUser(connection, id, tenantId: tenantId) else { return false }
            try await connection.execute("DELETE FROM two_factor WHERE user_id = ?", [.id(id)])
            try await connection.execute("DELETE FROM recovery_codes WHERE user_id = ?", [.id(id)])
            try await Self.revokeEverySignIn(connection, userId: id, now: now)
            try await Self.recordUserChange(
                connection, tenantId: tenantId, kind: .twoFactorTurnedOff, userId: id, by: actor, now: now)
            return true
        }
    }

    /// Hands out a new secret (sealed) to confirm; false when two-factor sign-in is on already.
    func startTwoFactor(userId: UserID, sealedSecret: [UInt8], now: Date) async throws -> Bool {
        try await database.transaction { connection in
            if try await connection.queryOne(
                "SELECT 1 FROM two_factor WHERE user_id = ? AND confirmed_at IS NOT NULL", [.id(userId)]) != nil
            {
                return false
            }
            try await connection.execute("DELETE FROM two_factor WHERE user_id = ?", [.id(userId)])
            try await connection.execute(
                "INSERT INTO two_factor (user_id, secret, last_step, created_at) VALUES (?, ?, 0, ?)",
                [.id(userId), .blob(sealedSecret), .date(now)])
            return true
        }
    }

    /// Turns two-factor sign-in on when `code` is the pending secret's: the step is used up and
    /// the recovery codes (their hashes) replace any earlier ones. False for a wrong code or no
    /// pending secret.
    func confirmTwoFactor(
        userId: UserID, code: String, now: Date, recoveryHashes: [String], open: ([UInt8]) throws -> [UInt8]
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT secret FROM two_factor WHERE user_id = ? AND confirmed_at IS NULL", [.id(userId)]),
                let step = TOTP.matchingStep(code, secret: try open(try row.blob("secret")), now: now, after: 0)
            else { return false }
            try await connection.execute(
                "UPDATE two_factor SET confirmed_at = ?, last_step = ? WHERE user_id = ?",
                [.date(now), .int(step), .id(userId)])
            try await connection.execute("DELETE FROM recovery_codes WHERE user_id = ?", [.id(userId)])
            for hash in recoveryHashes {
                try await connection.execute(
                    "INSERT INTO recovery_codes (user_id, code_hash) VALUES (?, ?)", [.id(userId), .text(hash)])
            }
            return true
        }
    }

    /// The second factor of a sign-in: a code of the app for a step after the last one used, or
    /// a recovery code not used yet (used up now). False for anything else.
    func acceptSecondFactor(
        userId: UserID, code: String, now: Date, open: ([UInt8]) throws -> [UInt8]
    ) async throws -> Bool {
        try await database.transaction { connection in
            guard
                let row = try await connection.queryOne(
                    "SELECT secret, last_step FROM two_factor WHERE user_id = ? AND confirmed_at IS NOT NULL",
                    [.id(userId)])
            else { return false }
            if let step = TOTP.matchingStep(
                code, secret: try open(try row.blob("secret")), now: now, after: try row.int("last_step"))
            {
                // Two sign-ins racing with one code: the second finds the step used.
                return try await connection.queryOne(
                    "UPDATE two_factor SET last_step = ? WHERE user_id = ? AND last_step < ? RETURNING user_id",
                    [.int(step), .id(userId), .int(step)]) != nil
            }
            guard let hash = TwoFactorSecrets.recoveryHash(code) else { return false }
            return try await connection.queryOne(
                """
                UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL
                RETURNING user_id
                """,
                [.date(now), .id(userId), .text(hash)]) != nil
        }
    }
}
