import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostShell

/// A store write that fails while the app runs (a full disk, a damaged page) is not swallowed:
/// it is kept in the app's faults and shown as a banner over every screen, and nothing already
/// confirmed is lost. The failures are real SQLite errors: a trigger that aborts the write.
@Suite("Storage faults while running")
struct StorageFaultTests {
    static func failWrites(to table: String, in store: DeviceStore) throws {
        try store.queue.write { db in
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(
                    sql: """
                        CREATE TRIGGER fail_\(table)_\(event.lowercased()) BEFORE \(event) ON \(table)
                        BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END
                        """)
            }
        }
    }

    static func healWrites(to table: String, in store: DeviceStore) throws {
        try store.queue.write { db in
            for event in ["insert", "update", "delete"] { try db.execute(sql: "DROP TRIGGER fail_\(table)_\(event)") }
        }
    }

    @Test("storage-fault-banner: a state save that fails shows the banner, keeps the entries, and is not silent")
    @MainActor
    func stateSaveFails() async throws {
        try await ShellLab.run { lab in
            let app = try await lab.notesDevice("faults")
            let notes = try #require(app.module(NotesProbeModule.self))
            app.update { $0.online = false }
            try notes.add("Room 4 needs a chair")
            app.commit()
            #expect(app.tree().element(UIIdentifier.storageFaultBanner) == nil)

            try Self.failWrites(to: "meta", in: app.store)
            notes.drafts = ["half a thought"]
            app.commit()
            let banner = try #require(app.tree().element(UIIdentifier.storageFaultBanner), "\(app.tree().elements)")
            #expect(banner.text.contains("could not save where the app is"), "\(banner.text)")
            #expect(banner.attributes["error"]?.contains("disk is full") == true)
            #expect(app.faults.all.map(\.what).contains("save where the app is"))
            #expect(app.pendingCount == 1, "the confirmed note is kept")

            // The disk has room again: the next action saves; the next launch starts clean.
            try Self.healWrites(to: "meta", in: app.store)
            app.commit()
            let relaunched = try lab.launch("faults", modules: ProbeModuleTests.notesOnly)
            #expect(relaunched.tree().element(UIIdentifier.storageFaultBanner) == nil)
            #expect(try #require(relaunched.module(NotesProbeModule.self)).drafts == ["half a thought"])
            #expect(relaunched.pendingCount == 1)
        }
    }

    @Test("storage-fault-banner: answers that cannot be stored leave the entry queued and show the banner")
    @MainActor
    func answerStoreFails() async throws {
        try await ShellLab.run { lab in
            let app = try await lab.notesDevice("answers")
            app.update { $0.online = false }
            try #require(app.module(NotesProbeModule.self)).add("Wheelchair at row 1")
            app.commit()

            try Self.failWrites(to: "outbox", in: app.store)
            app.update { $0.online = true }
            await app.sync()
            #expect(app.pendingCount == 1, "the answer was not stored: the entry waits")
            #expect(app.faults.all.map(\.what).contains("store the server's answers"), "\(app.faults.all)")
            #expect(app.tree().element(UIIdentifier.storageFaultBanner) != nil)

            try Self.healWrites(to: "outbox", in: app.store)
            await app.sync()
            #expect(app.pendingCount == 0, "sent again, answered from the server's stored answer")
        }
    }

    @Test(
        "shared-phone-ended-session-forgotten: a session the server ended whose stored copy cannot be cleared shows the fault and is cleared by the next action once the store takes writes; the next launch is signed out"
    )
    @MainActor
    func endedSessionForgotten() async throws {
        try await ShellLab.run { lab in
            let app = try await lab.notesDevice("ended")
            #expect(app.session != nil)
            try Self.failWrites(to: "meta", in: app.store)
            app.handle(APIClientError.sessionEnded(code: nil))
            app.commit()
            #expect(app.session == nil, "gone from memory at once")
            #expect(app.faults.all.map(\.what).contains("forget the ended session"), "\(app.faults.all)")
            #expect(app.tree().element(UIIdentifier.storageFaultBanner) != nil)
            // Launched now, the phone would still find the session in the store.
            #expect(try app.store.sealedMeta("session", as: SessionState.self) != nil)

            try Self.healWrites(to: "meta", in: app.store)
            app.commit()
            #expect(try app.store.sealedMeta("session", as: SessionState.self) == nil, "cleared by the next action")
            let relaunched = try lab.launch("ended", modules: ProbeModuleTests.notesOnly)
            #expect(relaunched.session == nil, "the next person finds the phone signed out")
        }
    }
}
