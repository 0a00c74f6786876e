import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// One device of the soak, driven in its own process (`outpost soak-worker`) until it is killed.
///
/// It scans tickets (half of the time the guest every worker picks in the same 300 ms slot, so
/// devices often scan one guest at nearly the same time), confirms, syncs now and then, and
/// switches its own network off and on. A third of the scans carry a scanner's framing. After
/// every local commit it prints `confirmed KEY` on stdout, so the soak knows exactly what the
/// device promised, and `suffixed` after each framed scan. ``drain(_:)`` instead syncs until the
/// outbox is empty and reports the device's ledger. Now and then it adds a walk-in of the
/// soak's capped access type (``Soak/walkInType``) and prints `walkin KEY` once it is committed.
@MainActor
package struct SoakWorker {
    package let app: DeviceApp

    package init(app: DeviceApp) throws {
        guard app.isSignedIn, app.currentEventId != nil else {
            throw CleanFailure("the device is not signed in with an event open")
        }
        self.app = app
    }

    /// How scanners frame what they read: suffixes (Enter, Tab, CR LF), an AIM symbology
    /// identifier, STX/ETX, stray spaces.
    package static let scannerFramings: [(prefix: String, suffix: String)] = [
        ("", "\n"), ("", "\r\n"), ("", "\t"), ("", " "), ("]Q1", "\r"), ("\u{02}", "\u{03}\r"), (" ", " \n"),
    ]

    /// What a drain reports (one JSON line on stdout).
    package struct Report: Codable {
        package var deviceId: String
        package var signedIn: Bool
        package var pending: Int
        package var ledger: [CheckInLedgerEntry]
        /// Outbox entries waiting when the drain began, and how long it took.
        package var pendingAtStart = 0
        package var drainSeconds = 0.0

        package init(deviceId: String, signedIn: Bool, pending: Int, ledger: [CheckInLedgerEntry]) {
            self.deviceId = deviceId
            self.signedIn = signedIn
            self.pending = pending
            self.ledger = ledger
        }
    }

    /// Closes the door for walk-ins (the places left go back), then syncs until the outbox is
    /// empty (at most 200 rounds) with the network on.
    package func drain() async -> Report {
        app.update { $0.online = true }
        await app.closeWalkInDoor()
        let pendingAtStart = app.pendingCount
        let started = ContinuousClock.now
        for _ in 0..<200 where app.pendingCount > 0 && app.isSignedIn {
            await app.sync()
        }
        var report = Report(
            deviceId: app.deviceId, signedIn: app.isSignedIn, pending: app.pendingCount, ledger: app.ledger)
        report.pendingAtStart = pendingAtStart
        report.drainSeconds = (ContinuousClock.now - started).seconds
        return report
    }

    /// Scans `scans` times from `texts`, printing what the soak counts.
    package func scan(texts: [String], seed: UInt64, hotSeed: UInt64, scans: Int) async throws {
        guard !texts.isEmpty else { throw CleanFailure("no tickets to scan") }
        var random = SeededRandom(seed: seed)
        func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
        for _ in 0..<scans {
            if chance(0.02) { app.update { $0.online.toggle() } }
            let index: Int
            if chance(0.5) {
                var hot = SeededRandom(seed: hotSeed ^ UInt64(Date().timeIntervalSince1970 * 1000 / 300))
                index = Int(hot.next() % UInt64(texts.count))
            } else {
                index = Int.random(in: 0..<texts.count, using: &random)
            }
            // A third of the scans arrive the way keyboard-wedge and serial scanners send them.
            if chance(0.3) {
                let framing = Self.scannerFramings[Int.random(in: 0..<Self.scannerFramings.count, using: &random)]
                app.scan(framing.prefix + texts[index] + framing.suffix)
                FileHandle.standardOutput.write(Data("suffixed\n".utf8))
            } else {
                app.scan(texts[index])
            }
            let visible = app.tree().visible
            if visible.contains(UIIdentifier.confirmationScreen) {
                // A guest this device already saw checked in is re-confirmed only now and then.
                if visible.contains(UIIdentifier.alreadyCheckedIn), !chance(0.1) {
                    app.cancel()
                } else {
                    await app.confirm(replayAfter: false)
                    if let key = app.lastConfirmedKey {
                        FileHandle.standardOutput.write(Data("confirmed \(key)\n".utf8))
                    }
                }
            }
            if chance(0.05) { await addWalkIn(&random) }
            if chance(0.3) { await app.sync() }
        }
    }

    /// A walk-in of the capped access type, paid or not; `walkin KEY` once committed (refused
    /// when the device holds no place: offline, or the pool is empty).
    func addWalkIn(_ random: inout SeededRandom) async {
        app.openWalkIn()
        let paid = Bool.random(using: &random)
        app.updateWalkIn(
            name: "Soak Walk-in \(UInt16.random(in: 0...UInt16.max, using: &random))", accessType: Soak.walkInType,
            amount: paid ? "12.50" : "", method: Bool.random(using: &random) ? .cash : .card)
        await app.addWalkIn(replayAfter: false)
        if app.refusal == nil, let key = app.lastWalkInKey {
            FileHandle.standardOutput.write(Data("walkin \(key)\n".utf8))
        } else {
            app.cancelWalkIn()
        }
    }
}
