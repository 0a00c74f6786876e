import Foundation
import GRDB
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

@Suite("The device shell hosts modules")
struct ShellModuleTests {
    /// Every SQL statement the app's store connection runs from now on, as GRDB traces it.
    @MainActor
    static func traceStatements(_ app: DeviceApp) -> LockedBox<[String]> {
        let statements = LockedBox<[String]>([])
        app.store.queue.inDatabase { db in
            db.trace { event in statements.value.append("\(event)") }
        }
        return statements
    }

    @Test("shell-tree-reads-no-store: every screen renders from its models without one SQL statement")
    @MainActor
    func treeReadsNoStore() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let guest = lab.world.guests[0]
            _ = try await lab.readyDevice("t")
            let scenarios: [(String, @MainActor (DeviceApp) async -> Void)] = [
                ("event shell", { _ in }),
                ("manual entry with suggestions", { $0.lookup(String(guest.name.prefix(3))) }),
                ("confirmation", { $0.choose(guestId: guest.id) }),
                (
                    "result card, offline, pending",
                    { app in
                        app.update { $0.online = false }
                        app.choose(guestId: guest.id)
                        await app.confirm()
                    }
                ),
                ("event picker", { await $0.showEvents() }),
                ("sign-out warning", { await $0.signOut() }),
            ]
            for (name, act) in scenarios {
                // Each on a fresh launch of the same home, whose store is then closed under it.
                let app = try lab.launch("t")
                await act(app)
                // A search builds the index and writes its snapshot on another thread; that
                // write is not the render's, so it ends before the count starts.
                await app.indexSnapshotWritten()
                // Every SQL statement the store's connection runs from here on is counted.
                let statements = Self.traceStatements(app)
                let tree = app.tree()
                #expect(statements.value == [], "rendering \(name) (\(tree.screen)) read the store")
                #expect(!tree.elements.isEmpty)
            }
        }
    }

    @Test(
        "shell-state-one-transaction: an action keeps the states that changed in one transaction; one that changes nothing writes none"
    )
    @MainActor
    func stateOneTransaction() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let app = try await lab.readyDevice("s")
            app.update { $0.online = false }
            let statements = Self.traceStatements(app)
            // Write transactions (GRDB begins them IMMEDIATE; reads are DEFERRED).
            func commits() -> Int {
                defer { statements.value = [] }
                return statements.value.filter { $0.hasPrefix("BEGIN IMMEDIATE") }.count
            }
            app.choose(guestId: lab.world.guests[0].id)
            #expect(commits() == 1, "the confirmation screen's state")
            await app.confirm(replayAfter: false)
            #expect(commits() == 2, "the check-in with its outbox entry, then the states")
            app.cancel()
            _ = commits()
            app.cancel()
            #expect(commits() == 0, "nothing changed")
        }
    }

    @Test(
        "shell-state-one-transaction: states skipped as unchanged are still restored after a sign-out, a sign-in and a relaunch"
    )
    @MainActor
    func statesAfterSignOut() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let guest = lab.world.guests[0]
            let app = try await lab.readyDevice("s")
            app.choose(guestId: guest.id)
            await app.signOut()
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await app.openEvent(lab.world.event.id)
            app.choose(guestId: guest.id)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            let relaunched = try lab.launch("s")
            #expect(relaunched.tree().screen == UIIdentifier.confirmationScreen)
        }
    }

    /// A state that counts how often it is encoded.
    struct CountedState: Encodable, Equatable {
        static let encodes = LockedBox(0)
        var screen: String
        func encode(to encoder: any Encoder) throws {
            Self.encodes.value += 1
            var container = encoder.singleValueContainer()
            try container.encode(screen)
        }
    }

    @Test(
        "shell-state-encoded-when-changed: a module's state is encoded again only when it changed, and a changed state's bytes are its own"
    )
    func stateEncodedWhenChanged() throws {
        var kept = EncodedState<CountedState>()
        let first = try kept.data(for: CountedState(screen: "search"))
        #expect(try kept.data(for: CountedState(screen: "search")) == first)
        #expect(CountedState.encodes.value == 1, "an equal state is not encoded again")
        let changed = try kept.data(for: CountedState(screen: "confirm"))
        #expect(String(decoding: changed, as: UTF8.self) == #""confirm""#)
        #expect(try kept.data(for: CountedState(screen: "search")) == first, "back to the first state: its bytes again")
        #expect(CountedState.encodes.value == 3)
    }

    @Test(
        "shell-reload-reads-outbox-by-index: a screen reload with a long offline queue reads the queue by its state index, never all of it"
    )
    @MainActor
    func reloadReadsOutboxByIndex() async throws {
        try await DeviceLab.run(guests: 30) { lab in
            let app = try await lab.readyDevice("q")
            app.update { $0.online = false }
            for guest in lab.world.guests.dropLast() {
                app.choose(guestId: guest.id)
                await app.confirm()
            }
            app.choose(guestId: lab.world.guests[29].id)
            // The confirm writes, so the reload after it counts the queue again.
            let statements = Self.traceStatements(app)
            await app.confirm()
            #expect(app.pendingCount == 30)
            let outboxReads = statements.value.filter { $0.hasPrefix("SELECT") && $0.contains("FROM outbox") }
            #expect(!outboxReads.isEmpty)
            for sql in outboxReads {
                let plan = try await app.store.queue.read { db in
                    try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql.replacingOccurrences(of: "?", with: "NULL"))
                        .map { $0["detail"] as String }
                }
                #expect(!plan.contains { $0.hasPrefix("SCAN outbox") }, "\(sql): \(plan)")
            }
        }
    }

    @Test(
        "shell-reload-reads-after-writes: an action that writes no record (a scan, a cancel) reads no outbox count and no roster figure again; after one that does, and after another connection's commit, the counts are read again and right"
    )
    @MainActor
    func reloadReadsAfterWrites() async throws {
        try await DeviceLab.run(guests: 3) { lab in
            let app = try await lab.readyDevice("r")
            app.update { $0.online = false }
            let statements = Self.traceStatements(app)
            // (Reads of the check-in's figures and the outbox; cleared each time.)
            func reads() -> [String] {
                defer { statements.value = [] }
                return statements.value.filter {
                    $0.hasPrefix("SELECT") && ($0.contains("FROM outbox") || $0.contains("FROM sync_state"))
                }
            }
            let ticket = try await lab.ticket(lab.world.guests[0])
            app.scan(ticket)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            #expect(
                statements.value.filter { $0.contains("FROM guests") }.count == 1,
                "the confirmation screen shows the guest the scan read")
            #expect(reads() == [], "a scan writes no record (its screen's state is not one)")
            app.cancel()
            #expect(reads() == [], "nor does a cancel")
            app.scan(ticket)
            #expect(
                statements.value.filter { $0.contains("FROM event_keys") || $0.contains("FROM guests") } == [],
                "the ticket keys and the guest are as the last scan read them")
            app.cancel()
            _ = reads()
            app.choose(guestId: lab.world.guests[1].id)
            await app.confirm(replayAfter: false)
            #expect(
                statements.value.filter { $0.contains("FROM walkin_leases") || $0.contains("FROM walkins") } == [],
                "a check-in writes no walk-in table, so they are not read again")
            #expect(
                statements.value.filter { $0.contains("FROM access_types") } == [],
                "a check-in writes no access type, so they are not read again")
            let afterConfirm = reads()
            #expect(afterConfirm.contains { $0.contains("FROM outbox") }, "a confirm wrote the outbox")
            #expect(!afterConfirm.contains { $0.contains("FROM sync_state") }, "but not the roster's sync state")
            #expect(app.tree().pending == 1)
            app.cancel()
            #expect(reads() == [])
            // Another connection (another process on this store) takes the entry away.
            let other = try DatabaseQueue(path: lab.home("r").appendingPathComponent("device.sqlite").path)
            try await other.write { try $0.execute(sql: "DELETE FROM outbox") }
            try other.close()
            app.cancel()
            #expect(!reads().isEmpty, "another connection's commit moved the store's stamp")
            #expect(app.tree().pending == 0)
        }
    }
}
