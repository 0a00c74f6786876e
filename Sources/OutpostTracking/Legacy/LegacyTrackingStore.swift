import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// The previous app's on-device store (seed 003's schema: `locations`, `tracking_sessions`),
/// as an update finds it in the app's container: `previous-app.sqlite` in the device home. The
/// time-tracking module's migration "v3" imports it once, repaired; the first worker to sign in
/// takes the hours (they belonged to the phone's one user), and the file is deleted then.
package enum LegacyTrackingStore {
    package static let fileName = "previous-app.sqlite"

    package struct LegacyLocation: Sendable, Hashable {
        package var id: String
        package var name: String
        package var latitude: Double
        package var longitude: Double
        package var radius: Double
    }

    /// What an import did, sealed beside the hours (shown once, and part of the export).
    package struct Report: Codable, Sendable, Hashable {
        package struct Repaired: Codable, Sendable, Hashable {
            package var legacyId: String
            package var repairs: [LegacyRepair]
        }

        package var locations: Int
        package var sessions: Int
        package var repaired: [Repaired]
        /// Rows no day could be given to (no readable start or location), kept as they were.
        package var unreadable: [LegacySessionRow]
    }

    /// The frozen shape of a work location as this migration writes it (the app's own type may
    /// change later; a migration must not).
    private struct FrozenLocation: Encodable {
        package struct Center: Encodable {
            package var latitude: Double
            package var longitude: Double
        }
        package struct FrozenFence: Encodable {
            package var center: Center
            package var radius: Double
        }
        package var id: String
        package var name: String
        package var fence: FrozenFence
    }

    /// Reads the previous app's file (read-only, its own connection).
    package static func read(_ url: URL) throws -> (locations: [LegacyLocation], sessions: [LegacySessionRow]) {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        return try queue.read { db in
            let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
            let locations =
                tables.contains("locations")
                ? try Row.fetchAll(db, sql: "SELECT id, name, latitude, longitude, radius FROM locations").compactMap {
                    row -> LegacyLocation? in
                    guard let id = row["id"] as String?, let latitude = row["latitude"] as Double?,
                        let longitude = row["longitude"] as Double?
                    else { return nil }
                    return LegacyLocation(
                        id: id, name: (row["name"] as String?) ?? "Work location", latitude: latitude,
                        longitude: longitude, radius: (row["radius"] as Double?) ?? WorkLocation.defaultRadius)
                } : []
            let sessions =
                tables.contains("tracking_sessions")
                ? try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, location_id, clock_in, clock_out, duration_minutes, tracking_method, state,
                            pending_exit_at, exit_accuracy, checkin_accuracy, updated_at
                        FROM tracking_sessions
                        """
                ).map { row in
                    LegacySessionRow(
                        id: (row["id"] as String?) ?? "", locationId: row["location_id"], clockIn: row["clock_in"],
                        clockOut: row["clock_out"], durationMinutes: row["duration_minutes"],
                        method: row["tracking_method"], state: row["state"], pendingExitAt: row["pending_exit_at"],
                        exitAccuracy: row["exit_accuracy"], checkinAccuracy: row["checkin_accuracy"],
                        updatedAt: row["updated_at"])
                } : []
            return (locations, sessions)
        }
    }

    /// The migration: imports the previous app's file, if the home has one, unowned (owner '').
    package static func importFile(_ db: Database, _ sealer: Sealer) throws {
        guard let path = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'"),
            !path.isEmpty
        else { return }
        let url = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let (locations, rows) = try read(url)
        var ids: [String: String] = [:]
        for (position, location) in locations.enumerated() {
            let id = UUID().uuidString.lowercased()
            ids[location.id] = id
            let frozen = FrozenLocation(
                id: id, name: location.name,
                fence: .init(
                    center: .init(latitude: location.latitude, longitude: location.longitude),
                    radius: min(
                        max(location.radius, WorkLocation.radiusRange.lowerBound), WorkLocation.radiusRange.upperBound))
            )
            try db.execute(
                sql: "INSERT INTO track_locations (id, owner, position, sealed) VALUES (?, '', ?, ?)",
                arguments: [id, position + 1, try sealer.seal(json: frozen)])
        }
        let (sessions, unreadable) = LegacySessionRepair.repair(rows)
        for session in sessions {
            let location =
                ids[session.location]
                ?? {
                    let made = UUID().uuidString.lowercased()
                    ids[session.location] = made
                    return made
                }()
            try db.execute(
                sql: """
                    INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method,
                        pending_exit_at, checkin_accuracy, exit_accuracy, end_reason, short)
                    VALUES (?, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    UUID().uuidString, location, session.clockIn.millisecondsSince1970,
                    session.clockOut?.millisecondsSince1970, session.state.rawValue, session.method.rawValue,
                    session.pendingExitAt?.millisecondsSince1970, session.checkInAccuracy, session.exitAccuracy,
                    session.repairs.isEmpty ? "imported" : "imported_repaired", session.short,
                ])
        }
        let report = Report(
            locations: locations.count, sessions: sessions.count,
            repaired: sessions.filter { !$0.repairs.isEmpty }.map { .init(legacyId: $0.legacyId, repairs: $0.repairs) },
            unreadable: unreadable)
        try db.execute(
            sql: "INSERT INTO track_imports (owner, imported_at, sealed) VALUES ('', ?, ?)",
            arguments: [Date().millisecondsSince1970, try sealer.seal(json: report)])
    }
}

extension ModuleStore where Owner == TrackingModule {
    /// Gives the previous app's imported hours to `owner` (the first worker to sign in) and
    /// returns what the import did; nil when there is nothing unowned.
    package func adoptLegacyTracking(owner: UserID) throws -> LegacyTrackingStore.Report? {
        let sealer = sealer
        return try queue.write { db in
            guard let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM track_imports WHERE owner = ''") else {
                return nil
            }
            for table in ["track_locations", "track_sessions", "track_imports"] {
                try db.execute(sql: "UPDATE \(table) SET owner = ? WHERE owner = ''", arguments: [owner.wire])
            }
            return try sealer.open(json: sealed, as: LegacyTrackingStore.Report.self)
        }
    }

    /// The imports of the previous app's store `owner` took.
    package func legacyImports(owner: UserID) throws -> [LegacyTrackingStore.Report] {
        let sealer = sealer
        return try queue.read { db in
            try Data.fetchAll(db, sql: "SELECT sealed FROM track_imports WHERE owner = ?", arguments: [owner.wire])
                .map { try sealer.open(json: $0, as: LegacyTrackingStore.Report.self) }
        }
    }
}
