import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost soak-worker`: one device of the soak, as its own process, until it is killed.
///
/// It scans tickets (half of the time the guest every worker picks in the same 300 ms slot, so
/// devices often scan one guest at nearly the same time), confirms, syncs now and then, and
/// switches its own network off and on. A third of the scans carry a scanner's framing. After
/// every local commit it prints `confirmed KEY` on stdout, so the soak knows exactly what the
/// device promised, and `suffixed` after each framed scan. `--drain` instead syncs
/// until the outbox is empty and prints the device's ledger as one JSON line.
struct SoakWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak-worker",
        abstract: "One device of `outpost soak` (started and killed by the soak).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The device's state directory (signed in, event open).", valueName: "dir"))
    var home: String

    @Option(help: ArgumentHelp("A file with one ticket text per line (QR contents).", valueName: "path"))
    var tickets: String?

    @Option(help: "Seed of this worker's choices.")
    var seed: UInt64 = 1

    @Option(name: .customLong("hot-seed"), help: "Seed shared by all workers for the guest they all scan at once.")
    var hotSeed: UInt64 = 1

    @Option(help: "Stop after this many scans (the soak kills workers long before).")
    var scans = 1_000_000

    @Flag(help: "Sync until the outbox is empty, then print the ledger as JSON.")
    var drain = false

    func validate() throws {
        if !drain, tickets == nil { throw ValidationError("--tickets is required unless --drain is given.") }
    }

    /// How scanners frame what they read: suffixes (Enter, Tab, CR LF), an AIM symbology
    /// identifier, STX/ETX, stray spaces.
    static let scannerFramings: [(prefix: String, suffix: String)] = [
        ("", "\n"), ("", "\r\n"), ("", "\t"), ("", " "), ("]Q1", "\r"), ("\u{02}", "\u{03}\r"), (" ", " \n"),
    ]

    /// What `--drain` prints.
    struct Report: Codable {
        var deviceId: String
        var signedIn: Bool
        var pending: Int
        var ledger: [CheckInLedgerEntry]
        /// Outbox entries waiting when the drain began, and how long it took.
        var pendingAtStart = 0
        var drainSeconds = 0.0
    }

    @MainActor
    func run() async throws {
        let device = try DeviceOptions.parse(["--home", home])
        let app = try device.launch()
        guard app.isSignedIn, app.currentEventId != nil else {
            throw CleanFailure("the device at \(home) is not signed in with an event open")
        }
        if drain {
            app.update { $0.online = true }
            let pendingAtStart = app.pendingCount
            let started = ContinuousClock.now
            for _ in 0..<200 where app.pendingCount > 0 && app.isSignedIn {
                await app.sync()
            }
            let elapsed = ContinuousClock.now - started
            let report = Report(
                deviceId: app.deviceId, signedIn: app.isSignedIn, pending: app.pendingCount, ledger: app.ledger,
                pendingAtStart: pendingAtStart, drainSeconds: elapsed.seconds)
            print(String(decoding: try OutpostJSON.encode(report), as: UTF8.self))
            return
        }
        let texts = try String(contentsOfFile: tickets ?? "", encoding: .utf8).split(separator: "\n").map(String.init)
        guard !texts.isEmpty else { throw CleanFailure("no tickets in \(tickets ?? "")") }
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
            if chance(0.3) { await app.sync() }
        }
    }
}
