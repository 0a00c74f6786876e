import Foundation
import OutpostCore

/// Exactly once per Idempotency-Key, for every route that takes one (check-ins, walk-ins): the
/// first request claims its key in its transaction and keeps its answer there; a retry gets
/// that answer byte for byte, and another request under the same key gets nothing.
extension Store {
    /// Claims `key` for a request with `hash` inside the caller's transaction: true when this
    /// request is the first with it (a concurrent holder is waited for, then this is false).
    static func claimKey(
        _ connection: any SQLConnection, tenantId: TenantID, key: String, hash: [UInt8], now: Date
    ) async throws -> Bool {
        try await connection.queryOne(
            """
            INSERT INTO idempotency_keys (tenant_id, key, request_hash, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT DO NOTHING RETURNING key
            """,
            [.id(tenantId), .text(key), .blob(hash), .date(now)]) != nil
    }

    /// The answer kept under `key` when the earlier request was this one (`hash`); nil when the
    /// key was used for another request.
    static func earlierAnswer(
        _ connection: any SQLConnection, tenantId: TenantID, key: String, hash: [UInt8]
    ) async throws -> StoredAnswer? {
        guard
            let stored = try await connection.queryOne(
                "SELECT request_hash, status, body FROM idempotency_keys WHERE tenant_id = ? AND key = ?",
                [.id(tenantId), .text(key)])
        else { throw StoreError.notFound }
        guard try stored.blob("request_hash") == hash else { return nil }
        guard let status = try stored.optionalInt("status"), let body = try stored.optionalBlob("body") else {
            throw StoreError.notFound
        }
        return StoredAnswer(status: Int(status), body: body)
    }

    /// Keeps `answer` under the key this transaction claimed.
    static func keepAnswer(
        _ connection: any SQLConnection, tenantId: TenantID, key: String, answer: StoredAnswer
    ) async throws {
        try await connection.execute(
            "UPDATE idempotency_keys SET status = ?, body = ? WHERE tenant_id = ? AND key = ?",
            [.int(Int64(answer.status)), .blob(answer.body), .id(tenantId), .text(key)])
    }
}
