import Foundation
import GRDB
import Testing

@testable import OutpostShell

/// ``StoreChanges``: which tables each commit may have written, as generations the screens'
/// reloads compare (a real SQLite database, the observer as the device store installs it).
@Suite("Store changes per table")
struct StoreChangesTests {
    struct Abort: Error {}

    @Test(
        "store-changes-per-table: a commit moves the generation of the tables it wrote (a trigger's too) and of no other; a rolled-back transaction moves none; another connection's commit moves every one"
    )
    func perTable() throws {
        let queue = try DatabaseQueue()
        let changes = StoreChanges()
        queue.add(transactionObserver: changes, extent: .databaseLifetime)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE counts (n); INSERT INTO counts VALUES (0);
                    CREATE TRIGGER a_counted AFTER INSERT ON a BEGIN UPDATE counts SET n = n + 1; END;
                    """)
        }
        func generations() -> [Int] {
            [changes.generation(of: ["a"]), changes.generation(of: ["b"]), changes.generation(of: ["counts"])]
        }
        let start = generations()
        try queue.write { try $0.execute(sql: "INSERT INTO a VALUES (1)") }
        let afterA = generations()
        #expect(afterA[0] > start[0], "a was written")
        #expect(afterA[1] == start[1], "b was not")
        #expect(afterA[2] > start[2], "the trigger wrote counts")

        #expect(throws: Abort.self) {
            try queue.write { db in
                try db.execute(sql: "INSERT INTO b VALUES (1)")
                throw Abort()
            }
        }
        #expect(generations() == afterA, "a rolled-back write changed nothing")

        let notA = changes.generation(excluding: ["a", "counts"])
        try queue.write { try $0.execute(sql: "INSERT INTO a VALUES (2)") }
        #expect(changes.generation(excluding: ["a", "counts"]) == notA)
        try queue.write { try $0.execute(sql: "UPDATE b SET x = 3") }
        #expect(changes.generation(excluding: ["a", "counts"]) > notA)

        // SQLite's data_version as the device store reads it before a reload.
        changes.noteDataVersion(7)
        let seen = generations()
        changes.noteDataVersion(7)
        #expect(generations() == seen, "no other connection committed")
        changes.noteDataVersion(8)
        let moved = generations()
        #expect(zip(moved, seen).allSatisfy { $0 > $1 }, "another connection's commit may have written anything")
        changes.noteDataVersion(nil)
        #expect(zip(generations(), moved).allSatisfy { $0 > $1 }, "an unread version counts as a change")
    }
}
