import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// Everything of one worker the time-tracking module keeps on the device, as their data export
/// carries it (GDPR Art. 20): locations, sessions, confirmed days, and every platform event the
/// engine recorded (with the reason when it ignored one, and the fix it had).
package struct TrackingRecords: Codable, Sendable {
    package struct Event: Codable, Sendable {
        package var location: String
        package var kind: String
        package var at: Date
        package var accuracy: Double?
        package var accuracySource: String?
        package var confidence: String?
        package var ignored: String?
        package var fix: GeoPoint?
    }

    package var locations: [WorkLocation]
    package var sessions: [TrackedSession]
    /// Every correction of a session (deletions too: a deleted session lives on here).
    package var corrections: [SessionCorrectionRecord]
    package var confirmedDays: [ConfirmedDay]
    package var events: [Event]
    /// What the import of the previous app's store did, when this worker took its hours.
    package var imports: [LegacyTrackingStore.Report]
    /// Shift and absence templates, shifts and absences.
    package var plan: ShiftPlan
}

extension ModuleStore where Owner == TrackingModule {
    package func trackingRecords(owner: UserID) throws -> TrackingRecords {
        let sealer = sealer
        let events = try readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT location_id, kind, at, accuracy, accuracy_source, confidence, ignored, fix FROM track_events
                    WHERE owner = ? ORDER BY id
                    """, arguments: [owner.wire]
            ).map { row in
                TrackingRecords.Event(
                    location: row["location_id"], kind: row["kind"], at: Date(millisecondsSince1970: row["at"]),
                    accuracy: row["accuracy"], accuracySource: row["accuracy_source"], confidence: row["confidence"],
                    ignored: row["ignored"],
                    fix: try (row["fix"] as Data?).map { try sealer.open(json: $0, as: GeoPoint.self) })
            }
        }
        return TrackingRecords(
            locations: try locations(owner: owner), sessions: try sessions(owner: owner),
            corrections: try sessionCorrections(owner: owner),
            confirmedDays: try confirmedDays(owner: owner).values.sorted { $0.day < $1.day }, events: events,
            imports: try legacyImports(owner: owner), plan: try plan(owner: owner))
    }

    /// Deletes every time-tracking row of `owner`: the locations (the regions the phone
    /// watches), sessions, confirmed days, the engine's state, pending checks and telemetry.
    package func eraseTracking(owner: UserID) throws {
        try queue.write { db in
            for table in [
                "track_locations", "track_sessions", "track_days", "track_engines", "track_verifications",
                "track_events", "track_imports", "track_plans", "track_accounts", "track_corrections",
            ] {
                try db.execute(sql: "DELETE FROM \(table) WHERE owner = ?", arguments: [owner.wire])
            }
        }
    }
}
