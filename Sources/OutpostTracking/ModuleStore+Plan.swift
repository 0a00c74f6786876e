import Foundation
import GRDB
import OutpostCore
import OutpostShell

extension ModuleStore where Owner == TrackingModule {
    /// The owner's plan (empty before their first template).
    package func plan(owner: UserID) throws -> ShiftPlan {
        let sealed = try readStatement { db in
            try Data.fetchOne(db, sql: "SELECT sealed FROM track_plans WHERE owner = ?", arguments: [owner.wire])
        }
        return try sealed.map { try sealer.open(json: $0, as: ShiftPlan.self) } ?? ShiftPlan()
    }

    /// Changes the owner's plan with `change` (given the confirmed days, which it may not
    /// touch) and stores the result, in one transaction; a refused change stores nothing.
    @discardableResult
    package func changePlan<T>(owner: UserID, _ change: (inout ShiftPlan, Set<String>) throws -> T) throws -> T {
        try queue.write { db in
            var plan =
                try Data.fetchOne(db, sql: "SELECT sealed FROM track_plans WHERE owner = ?", arguments: [owner.wire])
                .map { try sealer.open(json: $0, as: ShiftPlan.self) } ?? ShiftPlan()
            let locked = Set(
                try Row.fetchAll(
                    db, sql: "SELECT \(Self.dayColumns) FROM track_days WHERE owner = ?", arguments: [owner.wire]
                ).map(Self.confirmedDay).filter(\.locked).map(\.day))
            let result = try change(&plan, locked)
            try db.execute(
                sql: """
                    INSERT INTO track_plans (owner, sealed) VALUES (?, ?)
                    ON CONFLICT (owner) DO UPDATE SET sealed = excluded.sealed
                    """, arguments: [owner.wire, try sealer.seal(json: plan)])
            return result
        }
    }

    /// The day `owner` started using time tracking here (the first call records `today`).
    package func accountSince(owner: UserID, today: String) throws -> String {
        if let since = try queue.read({ db in
            try String.fetchOne(db, sql: "SELECT since FROM track_accounts WHERE owner = ?", arguments: [owner.wire])
        }) {
            return since
        }
        return try queue.write { db in
            try db.execute(
                sql: "INSERT INTO track_accounts (owner, since) VALUES (?, ?) ON CONFLICT (owner) DO NOTHING",
                arguments: [owner.wire, today])
            return try String.fetchOne(
                db, sql: "SELECT since FROM track_accounts WHERE owner = ?", arguments: [owner.wire])
                ?? today
        }
    }

    /// Whether `owner` has been told what Submit means (the first-time explanation).
    package func submitExplained(owner: UserID) throws -> Bool {
        try readStatement { db in
            try Bool.fetchOne(
                db, sql: "SELECT submit_explained FROM track_accounts WHERE owner = ?", arguments: [owner.wire])
                ?? false
        }
    }

    package func markSubmitExplained(owner: UserID, today: String) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO track_accounts (owner, since, submit_explained) VALUES (?, ?, 1)
                    ON CONFLICT (owner) DO UPDATE SET submit_explained = 1
                    """, arguments: [owner.wire, today])
        }
    }
}
