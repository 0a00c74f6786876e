import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// The time-tracking module's tables. The seed's session invariant is the store's own: CHECK
/// constraints refuse a row whose clock-out and state disagree, and at most one session of a
/// location is open. Locations and event fixes are sealed; session times are plain (the
/// constraints need them). Every row belongs to the user who made it (`owner`): two people who
/// share a phone each see only their own locations and hours, and signing out loses nothing.
extension ModuleStore where Owner == TrackingModule {
    package static var trackingMigrations: [DeviceMigration] {
        [
            DeviceMigration("v1 locations, sessions, events, verifications, engines") { db, _ in
                try db.execute(
                    sql: """
                        CREATE TABLE track_locations (
                            id TEXT PRIMARY KEY, owner TEXT NOT NULL, position INTEGER NOT NULL, sealed BLOB NOT NULL);
                        CREATE INDEX track_locations_owner ON track_locations (owner, position);
                        CREATE TABLE track_sessions (
                            id TEXT PRIMARY KEY,
                            owner TEXT NOT NULL,
                            location_id TEXT NOT NULL,
                            clock_in INTEGER NOT NULL,
                            clock_out INTEGER,
                            state TEXT NOT NULL CHECK (state IN ('active', 'pending_exit', 'completed')),
                            method TEXT NOT NULL CHECK (method IN ('geofence_auto', 'manual')),
                            pending_exit_at INTEGER,
                            checkin_accuracy REAL,
                            exit_accuracy REAL,
                            end_reason TEXT,
                            short INTEGER NOT NULL DEFAULT 0,
                            CHECK ((clock_out IS NULL AND state IN ('active', 'pending_exit'))
                                OR (clock_out IS NOT NULL AND state = 'completed')),
                            CHECK (clock_out IS NULL OR clock_out >= clock_in),
                            CHECK ((state = 'pending_exit') = (pending_exit_at IS NOT NULL)));
                        CREATE UNIQUE INDEX track_sessions_open ON track_sessions (location_id) WHERE clock_out IS NULL;
                        CREATE INDEX track_sessions_clock_in ON track_sessions (owner, clock_in);
                        CREATE TABLE track_events (
                            id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, location_id TEXT NOT NULL,
                            kind TEXT NOT NULL, at INTEGER NOT NULL, accuracy REAL, accuracy_source TEXT, confidence TEXT,
                            ignored TEXT, fix BLOB);
                        CREATE TABLE track_verifications (
                            owner TEXT NOT NULL, location_id TEXT NOT NULL, due_at INTEGER NOT NULL,
                            PRIMARY KEY (location_id, due_at));
                        CREATE TABLE track_engines (owner TEXT PRIMARY KEY, sealed BLOB NOT NULL);
                        """)
            },
            DeviceMigration("v2 confirmed days") { db, _ in
                // A confirmed day is locked: its sessions are what was submitted. `status` follows
                // the day's submission: queued in the outbox, submitted (the server stored it), or
                // refused (the server's words in `message`).
                try db.execute(
                    sql: """
                        CREATE TABLE track_days (
                            owner TEXT NOT NULL,
                            day TEXT NOT NULL,
                            time_zone TEXT NOT NULL,
                            submission_id TEXT NOT NULL,
                            confirmed_at INTEGER NOT NULL,
                            status TEXT NOT NULL CHECK (status IN ('queued', 'submitted', 'refused')),
                            code TEXT,
                            message TEXT,
                            submitted_at INTEGER,
                            PRIMARY KEY (owner, day));
                        """)
            },
            DeviceMigration("v3 the previous app's store") { db, sealer in
                // What the import of the previous app's store did (sealed; owner '' until the first
                // worker signs in), then the import itself when the home has that file.
                try db.execute(
                    sql:
                        "CREATE TABLE track_imports (owner TEXT NOT NULL, imported_at INTEGER NOT NULL, sealed BLOB NOT NULL)"
                )
                try LegacyTrackingStore.importFile(db, sealer)
            },
            DeviceMigration("v4 shift plan") { db, _ in
                // Each worker's plan (shift and absence templates, shifts, absences) as one sealed
                // value: the rules live in `ShiftPlan`, the store keeps what they decided.
                try db.execute(sql: "CREATE TABLE track_plans (owner TEXT PRIMARY KEY, sealed BLOB NOT NULL)")
            },
            DeviceMigration("v5 account days") { db, _ in
                // The day a worker first used time tracking on this phone: the dashboard shows the
                // days before it as "—", not as days without work.
                try db.execute(sql: "CREATE TABLE track_accounts (owner TEXT PRIMARY KEY, since TEXT NOT NULL)")
            },
            DeviceMigration("v6 session breaks") { db, _ in
                // The break a worker gives a tracked session (seed 003's UPDATE_TRACKING_BREAK);
                // shared out over the days the session touches in proportion.
                try db.execute(
                    sql:
                        "ALTER TABLE track_sessions ADD COLUMN break_minutes INTEGER NOT NULL DEFAULT 0 CHECK (break_minutes >= 0)"
                )
            },
            DeviceMigration("v7 submit explained") { db, _ in
                // Seed 003's first-time tooltip: shown before a worker's first Submit, then never
                // again for them (per worker, so a colleague on the same phone sees it too).
                try db.execute(
                    sql: "ALTER TABLE track_accounts ADD COLUMN submit_explained INTEGER NOT NULL DEFAULT 0")
            },
            DeviceMigration("v8 corrections") { db, _ in
                // Seed 003's corrections: a session keeps its times as tracked once the worker
                // changes them, and every change (a deletion too) is a row of who, when, before and
                // after; a deleted session lives on in its deletion row.
                try db.execute(
                    sql: """
                        ALTER TABLE track_sessions ADD COLUMN tracked_clock_in INTEGER;
                        ALTER TABLE track_sessions ADD COLUMN tracked_clock_out INTEGER;
                        CREATE TABLE track_corrections (
                            id INTEGER PRIMARY KEY AUTOINCREMENT,
                            owner TEXT NOT NULL,
                            session_id TEXT NOT NULL,
                            location_id TEXT NOT NULL,
                            method TEXT NOT NULL,
                            short INTEGER NOT NULL DEFAULT 0,
                            break_minutes INTEGER NOT NULL DEFAULT 0,
                            before_in INTEGER NOT NULL,
                            before_out INTEGER NOT NULL,
                            after_in INTEGER,
                            after_out INTEGER,
                            by TEXT NOT NULL,
                            at INTEGER NOT NULL,
                            CHECK ((after_in IS NULL) = (after_out IS NULL)),
                            CHECK (after_out IS NULL OR after_out > after_in));
                        CREATE INDEX track_corrections_owner ON track_corrections (owner, session_id, id);
                        """)
            },
        ]
    }

    // MARK: Locations

    package func locations(owner: UserID) throws -> [WorkLocation] {
        let sealer = sealer
        return try readStatement { db in
            try Data.fetchAll(
                db, sql: "SELECT sealed FROM track_locations WHERE owner = ? ORDER BY position", arguments: [owner.wire]
            ).map { try sealer.open(json: $0, as: WorkLocation.self) }
        }
    }

    /// Adds a location (refused past the monitored limit) or replaces one with the same id.
    package func saveLocation(_ location: WorkLocation, owner: UserID) throws {
        try queue.write { db in
            let position = try Int.fetchOne(
                db, sql: "SELECT position FROM track_locations WHERE id = ? AND owner = ?",
                arguments: [location.id.wire, owner.wire])
            if position == nil {
                let count =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM track_locations WHERE owner = ?", arguments: [owner.wire]) ?? 0
                guard count < WorkLocation.monitoredLimit else { throw TrackingError.tooManyLocations }
            }
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM track_locations") ?? 1
            try db.execute(
                sql: """
                    INSERT INTO track_locations (id, owner, position, sealed) VALUES (?, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET sealed = excluded.sealed
                    """,
                arguments: [location.id.wire, owner.wire, position ?? next, try sealer.seal(json: location)])
        }
    }

    /// Removes a location and its pending checks; refused while a session there is open. Its
    /// completed sessions stay (they are the worker's hours).
    package func removeLocation(_ id: LocationID, name: String, owner: UserID) throws {
        try queue.write { db in
            if try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM track_sessions WHERE location_id = ? AND clock_out IS NULL)",
                arguments: [id.wire]) == true
            {
                throw TrackingError.openSession(name)
            }
            try db.execute(
                sql: "DELETE FROM track_locations WHERE id = ? AND owner = ?", arguments: [id.wire, owner.wire])
            try db.execute(sql: "DELETE FROM track_verifications WHERE location_id = ?", arguments: [id.wire])
        }
    }

    // MARK: Sessions

    package static var sessionColumns: String {
        """
        id, location_id, clock_in, clock_out, state, method, pending_exit_at, checkin_accuracy, exit_accuracy, short,
        break_minutes, tracked_clock_in, tracked_clock_out
        """
    }

    package static func session(_ row: Row) throws -> TrackedSession {
        guard let id = UUID(uuidString: row["id"]), let location = LocationID(wire: row["location_id"]),
            let state = TrackedSession.State(rawValue: row["state"]),
            let method = TrackingMethod(rawValue: row["method"])
        else { throw DeviceStoreError.damaged("a tracked session cannot be read") }
        return TrackedSession(
            id: id, location: location, clockIn: Date(millisecondsSince1970: row["clock_in"]),
            clockOut: (row["clock_out"] as Int64?).map(Date.init(millisecondsSince1970:)), state: state, method: method,
            pendingExitAt: (row["pending_exit_at"] as Int64?).map(Date.init(millisecondsSince1970:)),
            checkInAccuracy: row["checkin_accuracy"], exitAccuracy: row["exit_accuracy"], short: row["short"],
            breakMinutes: row["break_minutes"],
            trackedClockIn: (row["tracked_clock_in"] as Int64?).map(Date.init(millisecondsSince1970:)),
            trackedClockOut: (row["tracked_clock_out"] as Int64?).map(Date.init(millisecondsSince1970:)))
    }

    /// The owner's sessions that began in `range` (all when nil), oldest first.
    package func sessions(owner: UserID, in range: Range<Date>? = nil) throws -> [TrackedSession] {
        let range = range ?? Date.distantPast..<Date.distantFuture
        return try readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sessionColumns) FROM track_sessions WHERE owner = ? AND clock_in >= ? AND clock_in < ?
                    ORDER BY clock_in
                    """,
                arguments: [owner.wire, range.lowerBound.millisecondsSince1970, range.upperBound.millisecondsSince1970]
            ).map(Self.session)
        }
    }

    /// One of the owner's sessions by id (nil: none of theirs).
    package static func ownedSession(_ db: Database, _ id: UUID, owner: UserID) throws -> TrackedSession? {
        try Row.fetchOne(
            db, sql: "SELECT \(sessionColumns) FROM track_sessions WHERE id = ? AND owner = ?",
            arguments: [id.uuidString, owner.wire]
        ).map(Self.session)
    }

    package func openSessions(owner: UserID) throws -> [TrackedSession] {
        try readStatement { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sessionColumns) FROM track_sessions WHERE owner = ? AND clock_out IS NULL
                    ORDER BY clock_in
                    """, arguments: [owner.wire]
            ).map(Self.session)
        }
    }

    /// Applies what the engine decided for one event, with the engine's new state and the
    /// event's telemetry row, in one transaction: a kill never leaves the two disagreeing.
    package func applyTracking(_ outcome: GeofenceOutcome, engine: GeofenceEngine, owner: UserID) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO track_engines (owner, sealed) VALUES (?, ?)
                    ON CONFLICT (owner) DO UPDATE SET sealed = excluded.sealed
                    """, arguments: [owner.wire, try sealer.seal(json: engine)])
            if let record = outcome.record {
                try db.execute(
                    sql: """
                        INSERT INTO track_events (owner, location_id, kind, at, accuracy, accuracy_source, confidence,
                            ignored, fix)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        owner.wire, record.location.wire, record.kind.rawValue, record.at.millisecondsSince1970,
                        record.fix?.accuracy, record.accuracySource?.rawValue, record.confidence?.rawValue,
                        record.ignored?.rawValue, try record.fix.map { try sealer.seal(json: $0.point) },
                    ])
            }
            for decision in outcome.decisions { try apply(db, decision, owner: owner) }
        }
    }

    private func apply(_ db: Database, _ decision: GeofenceDecision, owner: UserID) throws {
        switch decision {
        case .clockIn(let location, let at, let accuracy, let method):
            try db.execute(
                sql: """
                    INSERT INTO track_sessions (id, owner, location_id, clock_in, state, method, checkin_accuracy)
                    VALUES (?, ?, ?, ?, 'active', ?, ?)
                    """,
                arguments: [
                    UUID().uuidString, owner.wire, location.wire, at.millisecondsSince1970, method.rawValue, accuracy,
                ])
        case .pendingExit(let location, let at, let accuracy):
            try db.execute(
                sql: """
                    UPDATE track_sessions SET state = 'pending_exit', pending_exit_at = ?, exit_accuracy = ?
                    WHERE location_id = ? AND owner = ? AND clock_out IS NULL
                    """, arguments: [at.millisecondsSince1970, accuracy, location.wire, owner.wire])
        case .exitCancelled(let location, _):
            try db.execute(
                sql: """
                    UPDATE track_sessions SET state = 'active', pending_exit_at = NULL, exit_accuracy = NULL
                    WHERE location_id = ? AND owner = ? AND clock_out IS NULL
                    """, arguments: [location.wire, owner.wire])
        case .clockOut(let location, _, let at, _, let reason, let short):
            try db.execute(
                sql: """
                    UPDATE track_sessions SET state = 'completed', clock_out = ?, pending_exit_at = NULL,
                        end_reason = ?, short = ?
                    WHERE location_id = ? AND owner = ? AND clock_out IS NULL
                    """, arguments: [at.millisecondsSince1970, reason.rawValue, short, location.wire, owner.wire])
        case .scheduleVerification(let location, let dates):
            for date in dates {
                try db.execute(
                    sql: """
                        INSERT INTO track_verifications (owner, location_id, due_at) VALUES (?, ?, ?)
                        ON CONFLICT DO NOTHING
                        """, arguments: [owner.wire, location.wire, date.millisecondsSince1970])
            }
        case .cancelVerification(let location):
            try db.execute(sql: "DELETE FROM track_verifications WHERE location_id = ?", arguments: [location.wire])
        }
    }

    /// The owner's engine state (a fresh one with `policy` before their first event).
    package func trackingEngine(policy: HysteresisPolicy, owner: UserID) throws -> GeofenceEngine {
        let sealed = try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT sealed FROM track_engines WHERE owner = ?", arguments: [owner.wire])
        }
        return try sealed.map { try sealer.open(json: $0, as: GeofenceEngine.self) } ?? GeofenceEngine(policy: policy)
    }

    /// The owner's next verification check due at or before `now`; taking it removes it.
    package func takeDueVerification(now: Date, owner: UserID) throws -> (LocationID, Date)? {
        try queue.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT location_id, due_at FROM track_verifications WHERE owner = ? AND due_at <= ?
                        ORDER BY due_at LIMIT 1
                        """, arguments: [owner.wire, now.millisecondsSince1970]),
                let location = LocationID(wire: row["location_id"])
            else { return nil }
            let due: Int64 = row["due_at"]
            try db.execute(
                sql: "DELETE FROM track_verifications WHERE location_id = ? AND due_at = ?",
                arguments: [location.wire, due])
            return (location, Date(millisecondsSince1970: due))
        }
    }

    /// A session the worker enters by hand: not in the future, ending after it starts, and not
    /// overlapping another session of the same location.
    package func addManualSession(
        location: LocationID, from start: Date, to end: Date, now: Date, owner: UserID, days: [String]
    ) throws {
        guard end > start else { throw TrackingError.endBeforeStart }
        guard end <= now else { throw TrackingError.endInFuture }
        guard end.timeIntervalSince(start) <= TrackedSession.longestManual else { throw TrackingError.sessionTooLong }
        try queue.write { db in
            for day in days where try isConfirmed(db, day: day, owner: owner) {
                throw TrackingError.dayConfirmed(day)
            }
            let overlapping =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS (SELECT 1 FROM track_sessions WHERE location_id = ?
                            AND clock_in < ? AND COALESCE(clock_out, ?) > ?)
                        """,
                    arguments: [location.wire, end.millisecondsSince1970, Int64.max, start.millisecondsSince1970])
                ?? false
            guard !overlapping else { throw TrackingError.overlapping }
            try db.execute(
                sql: """
                    INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method, short)
                    VALUES (?, ?, ?, ?, ?, 'completed', 'manual', ?)
                    """,
                arguments: [
                    UUID().uuidString, owner.wire, location.wire, start.millisecondsSince1970,
                    end.millisecondsSince1970, end.timeIntervalSince(start) < 300,
                ])
        }
    }

    /// Gives a finished session a break (not longer than the session); refused when a day the
    /// session touches is confirmed.
    package func setBreak(_ id: UUID, minutes: Int, days: (TrackedSession) -> [String], owner: UserID) throws {
        try queue.write { db in
            guard let session = try Self.ownedSession(db, id, owner: owner) else { throw TrackingError.noSuchSession }
            guard let length = session.minutes, (0...length).contains(minutes) else {
                throw TrackingError.breakTooLong
            }
            for day in days(session) where try isConfirmed(db, day: day, owner: owner) {
                throw TrackingError.dayConfirmed(day)
            }
            try db.execute(
                sql: "UPDATE track_sessions SET break_minutes = ? WHERE id = ? AND owner = ?",
                arguments: [minutes, id.uuidString, owner.wire])
        }
    }

    /// The owner's telemetry rows, oldest first: (kind, ignored reason, accuracy source).
    package func trackingEvents(owner: UserID) throws -> [(kind: String, ignored: String?, source: String?)] {
        try readStatement { db in
            try Row.fetchAll(
                db, sql: "SELECT kind, ignored, accuracy_source FROM track_events WHERE owner = ? ORDER BY id",
                arguments: [owner.wire]
            ).map { ($0["kind"], $0["ignored"], $0["accuracy_source"]) }
        }
    }
}
