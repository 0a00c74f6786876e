import Foundation
import OutpostCore
import OutpostProtocol

/// How a lease request ended.
enum WalkInLeaseGrant: Sendable, Equatable {
    case granted(WalkInLease)
    /// Nothing is free to lease (the last places are taken or leased to other doors).
    case full(accessType: String)
    /// The device already holds ``WalkInLeasePolicy/maxOpenPerDevice`` open leases of the type.
    case enoughOpen
    /// The access type does not admit walk-ins, or has no capacity (its walk-ins need no lease).
    case noCapacity
    case notFound
}

/// How a seal ended.
enum WalkInSealOutcome: Sendable, Equatable {
    case sealed(WalkInLease)
    /// Sealed before with another count.
    case sealedWith(Int)
    case tooMany(granted: Int)
    case notFound
}

/// Walk-in places as escrow. Per access type, `walk_in_reserved` R counts every open lease whole
/// and every sealed lease at its final count, and only a conditional update (R + g ≤ C) raises
/// it; a seal lowers it by the places not used. A device admits only through the places of its
/// leases and takes none after it seals, so the walk-ins really admitted never exceed R, and R
/// never exceeds the capacity, whatever the order, delay or duplication of the messages.
extension Store {
    static let leaseColumns =
        "id, access_type_id, device_id, granted, used, granted_at, expires_at"

    static func lease(from row: SQLRow) throws -> WalkInLease {
        WalkInLease(
            id: try row.id("id"), accessTypeId: try row.id("access_type_id"), deviceId: try row.text("device_id"),
            granted: Int(try row.int("granted")), expiresAt: try row.date("expires_at"),
            grantedAt: try row.date("granted_at"), used: try row.optionalInt("used").map(Int.init))
    }

    /// Leases the caller's device a block of places of an access type with a capacity, sized by
    /// ``WalkInLeasePolicy/grant(free:otherDoors:)``.
    func leaseWalkIns(
        caller: Caller, eventId: EventID, request: WalkInLeaseRequest, now: Date
    ) async throws -> WalkInLeaseGrant {
        try await database.transaction { connection in
            guard let event = try await Self.event(connection, eventId, visibleTo: caller) else { return .notFound }
            guard
                let type = try await connection.queryOne(
                    """
                    SELECT name, walk_in_allowed, walk_in_capacity, walk_in_reserved FROM access_types
                    WHERE id = ? AND event_id = ?
                    """,
                    [.id(request.accessTypeId), .id(eventId)])
            else { return .notFound }
            guard try type.bool("walk_in_allowed"), let capacity = try type.optionalInt("walk_in_capacity") else {
                return .noCapacity
            }
            let open = try await connection.queryOne(
                """
                SELECT COUNT(*) AS mine,
                    (SELECT COUNT(DISTINCT device_id) FROM walkin_leases
                     WHERE access_type_id = ? AND sealed_at IS NULL AND device_id <> ?) AS others
                FROM walkin_leases WHERE access_type_id = ? AND sealed_at IS NULL AND device_id = ?
                """,
                [
                    .id(request.accessTypeId), .text(request.deviceId), .id(request.accessTypeId),
                    .text(request.deviceId),
                ])
            guard try open?.int("mine") ?? 0 < WalkInLeasePolicy.maxOpenPerDevice else { return .enoughOpen }
            let free = Int(capacity - (try type.int("walk_in_reserved")))
            let granted = WalkInLeasePolicy.grant(free: free, otherDoors: Int(try open?.int("others") ?? 0))
            guard granted > 0,
                try await connection.queryOne(
                    """
                    UPDATE access_types SET walk_in_reserved = walk_in_reserved + ?
                    WHERE id = ? AND walk_in_reserved + ? <= walk_in_capacity RETURNING walk_in_reserved
                    """,
                    [.int(Int64(granted)), .id(request.accessTypeId), .int(Int64(granted))]) != nil
            else { return .full(accessType: try type.text("name")) }
            let lease = WalkInLease(
                id: .random(), accessTypeId: request.accessTypeId, deviceId: request.deviceId, granted: granted,
                expiresAt: WalkInLeasePolicy.expiry(grantedAt: now, eventEnds: event.endsAt), grantedAt: now,
                used: nil)
            try await connection.execute(
                """
                INSERT INTO walkin_leases (id, tenant_id, event_id, access_type_id, device_id, user_id, granted,
                    granted_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .id(lease.id), .id(caller.tenantId), .id(eventId), .id(lease.accessTypeId), .text(lease.deviceId),
                    .id(caller.userId), .int(Int64(granted)), .date(now), .date(lease.expiresAt),
                ])
            return .granted(lease)
        }
    }

    /// Seals a lease at `used` places: the rest go back to the pool. Sealing again with the same
    /// count answers the same; with another count it is refused. Places the server already saw
    /// used beyond `used` (a device that broke its promise) stay counted, so R never falls below
    /// the walk-ins admitted.
    func sealWalkInLease(
        caller: Caller, eventId: EventID, leaseId: WalkInLeaseID, used: Int, now: Date
    ) async throws -> WalkInSealOutcome {
        try await database.transaction { connection in
            guard try await Self.event(connection, eventId, visibleTo: caller) != nil,
                let row = try await connection.queryOne(
                    "SELECT \(Self.leaseColumns), sealed_at FROM walkin_leases WHERE id = ? AND event_id = ? AND tenant_id = ?",
                    [.id(leaseId), .id(eventId), .id(caller.tenantId)])
            else { return .notFound }
            var lease = try Self.lease(from: row)
            if let sealed = lease.used {
                return sealed == used ? .sealed(lease) : .sealedWith(sealed)
            }
            guard used >= 0, used <= lease.granted else { return .tooMany(granted: lease.granted) }
            let highest =
                try await connection.queryOne(
                    "SELECT MAX(slot) AS highest FROM walkins WHERE lease_id = ? AND over_capacity = 0", [.id(leaseId)]
                )?.optionalInt("highest") ?? 0
            let counted = max(used, Int(highest))
            try await connection.execute(
                "UPDATE walkin_leases SET used = ?, sealed_at = ? WHERE id = ?",
                [.int(Int64(counted)), .date(now), .id(leaseId)])
            try await connection.execute(
                "UPDATE access_types SET walk_in_reserved = walk_in_reserved - ? WHERE id = ?",
                [.int(Int64(lease.granted - counted)), .id(lease.accessTypeId)])
            lease.used = counted
            return .sealed(lease)
        }
    }

    /// Each access type's walk-in places: capacity, reserved, admitted, over capacity, open leases.
    func walkInCapacities(eventId: EventID) async throws -> [WalkInCapacity] {
        try await database.read { connection in
            try await connection.query(
                """
                SELECT t.id, t.name, t.walk_in_capacity, t.walk_in_reserved,
                    (SELECT COUNT(*) FROM walkins w WHERE w.access_type_id = t.id) AS admitted,
                    (SELECT COUNT(*) FROM walkins w WHERE w.access_type_id = t.id AND w.over_capacity = 1) AS over,
                    (SELECT COUNT(*) FROM walkin_leases l WHERE l.access_type_id = t.id AND l.sealed_at IS NULL)
                        AS open_leases
                FROM access_types t WHERE t.event_id = ? AND t.walk_in_allowed = 1 ORDER BY t.created_at, t.id
                """,
                [.id(eventId)]
            ).map { row in
                WalkInCapacity(
                    accessTypeId: try row.id("id"), name: try row.text("name"),
                    capacity: try row.optionalInt("walk_in_capacity").map(Int.init),
                    reserved: Int(try row.int("walk_in_reserved")), admitted: Int(try row.int("admitted")),
                    overCapacity: Int(try row.int("over")), openLeases: Int(try row.int("open_leases")))
            }
        }
    }
}
