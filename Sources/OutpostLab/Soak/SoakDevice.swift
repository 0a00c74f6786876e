import Foundation
import NIOConcurrencyHelpers
import OutpostCore
import OutpostProtocol

/// One soak device: its state directory and the `outpost soak-worker` process now running on it.
/// It collects the keys the worker printed after each local commit.
package final class SoakDevice: @unchecked Sendable {
    package let index: Int
    package let home: URL
    package let tickets: URL
    package let log: URL
    private let hotSeed: UInt64
    private var process: Process?
    private var launches = 0
    private let confirmedKeys = NIOLockedValueBox<Set<String>>([])
    private let walkInKeys = NIOLockedValueBox<Set<String>>([])
    private let suffixed = NIOLockedValueBox(0)
    /// The staff who share this device (one, or two taking turns with sign-out --keep).
    package let users: [String]
    /// Whose session the device holds now.
    package private(set) var currentUser = 0
    /// Sign-outs with --keep followed by the other user's sign-in.
    package private(set) var userSwitches = 0
    /// Entered per launch, left when that worker's stdout reaches its end.
    private let readers = DispatchGroup()
    /// Worker exits the soak did not cause (a crash), with their status.
    package private(set) var unexpectedExits: [String] = []
    /// Crashes inside FoundationNetworking: URLSession on Linux traps when an answer is cut after
    /// its status line (swift-corelibs-foundation issue 5285, fixed upstream by pull request 5286,
    /// not in Swift 6.3.1). The device no longer uses URLSession on Linux, so one of these means
    /// it came back; reported on their own line, and failing the soak like any other crash.
    package private(set) var platformCrashes: [String] = []
    /// Where this launch's output starts in the log.
    private var logOffset: UInt64 = 0

    /// The trap of swift-corelibs-foundation issue 5285, as it appears in a crashed worker's log.
    package static let foundationNetworkingTrap = "Fatal error: Transfer completed, but there's no response."

    /// True when `log` (one launch's output) ends in the known FoundationNetworking trap.
    package static func isPlatformCrash(log: String) -> Bool {
        log.contains("FoundationNetworking/NativeProtocol.swift") && log.contains(foundationNetworkingTrap)
    }

    /// Records an exit the soak did not cause: the platform's known trap, or a crash of ours.
    private func recordExit(_ description: String) {
        var text = ""
        if let handle = try? FileHandle(forReadingFrom: log) {
            try? handle.seek(toOffset: logOffset)
            text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            try? handle.close()
        }
        if Self.isPlatformCrash(log: text) {
            platformCrashes.append(description + " (FoundationNetworking: \(Self.foundationNetworkingTrap))")
        } else {
            unexpectedExits.append(description)
        }
    }

    package init(index: Int, home: URL, tickets: URL, log: URL, hotSeed: UInt64, users: [String]) {
        self.index = index
        self.users = users
        self.home = home
        self.tickets = tickets
        self.log = log
        self.hotSeed = hotSeed
    }

    /// Every key a worker on this device reported as committed.
    package var confirmed: Set<String> { confirmedKeys.withLockedValue { $0 } }

    /// Every walk-in a worker on this device reported as committed (its Idempotency-Key).
    package var walkIns: Set<String> { walkInKeys.withLockedValue { $0 } }

    /// Scans the workers sent with a scanner's prefix or suffix.
    package var suffixedScans: Int { suffixed.withLockedValue { $0 } }

    /// Signs `users[user]` in through `server` and opens the event, retrying while the network
    /// is faulty (each attempt is a real `outpost device` process); true once both held.
    package func signIn(user: Int, server: String, eventId: EventID, attempts: Int = 60) throws -> Bool {
        for _ in 0..<attempts {
            let tree = try outpost([
                "device", "signin", "--server", server, "--email", users[user], "--password", ServerHandle.password,
            ])
            if tree?.user == users[user] { break }
        }
        for _ in 0..<attempts {
            if try outpost(["device", "open", eventId.wire])?.event == eventId.wire {
                currentUser = user
                return true
            }
            _ = try outpost(["device", "events"])
        }
        return false
    }

    /// The other user takes the device: sign-out keeping pending entries, then their sign-in.
    package func switchUser(server: String, eventId: EventID) throws -> Bool {
        guard users.count > 1 else { return false }
        _ = try outpost(["device", "signout", "--keep"])
        userSwitches += 1
        return try signIn(user: (currentUser + 1) % users.count, server: server, eventId: eventId)
    }

    /// The simulator's damaged disk: the newest pending entry becomes unreadable. Its key.
    package func damageOutboxEntry() throws -> String? {
        let output = try run(["device", "sim", "damage-outbox-row", "--home", home.path])
        let line = output.split(separator: "\n").first { $0.hasPrefix("damaged-outbox-entry ") }
        let key = line.map { String($0.dropFirst("damaged-outbox-entry ".count)) }
        return key == "none" ? nil : key
    }

    /// Runs an `outpost device` command on this home with `--json`; the tree it printed last.
    private func outpost(_ arguments: [String]) throws -> UITreeSummary? {
        let output = try run(arguments + ["--home", home.path, "--json"])
        guard let line = output.split(separator: "\n").last else { return nil }
        return try? OutpostJSON.decode(UITreeSummary.self, from: Data(line.utf8))
    }

    /// Runs `outpost ARGUMENTS` to its end, its stderr appended to the device's log; its stdout.
    private func run(_ arguments: [String]) throws -> String {
        try LabProcess.run(arguments, output: .append(log)).stdout
    }

    /// The parts of a printed UI tree the soak reads.
    package struct UITreeSummary: Decodable {
        var user: String?
        var event: String?
    }

    /// Waits (bounded) until every worker's output has been read to its end.
    package func finishReading() {
        _ = readers.wait(timeout: .now() + 10)
    }

    package func start(seed: UInt64) throws {
        launches += 1
        logOffset =
            ((try? FileManager.default.attributesOfItem(atPath: log.path)[.size]) as? NSNumber)?.uint64Value ?? 0
        let output = Pipe()
        let keys = confirmedKeys
        let walkIns = walkInKeys
        let suffixed = suffixed
        let readers = readers
        // A line cut short by a kill stays in this launch's `partial` and is never reported.
        let partial = NIOLockedValueBox("")
        readers.enter()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                readers.leave()
                return
            }
            let complete = partial.withLockedValue { rest -> [Substring] in
                var lines = (rest + String(decoding: data, as: UTF8.self)).split(
                    separator: "\n", omittingEmptySubsequences: false)
                rest = String(lines.removeLast())
                return lines
            }
            keys.withLockedValue { keys in
                for line in complete where line.hasPrefix("confirmed ") {
                    keys.insert(String(line.dropFirst("confirmed ".count)))
                }
            }
            walkIns.withLockedValue { keys in
                for line in complete where line.hasPrefix("walkin ") {
                    keys.insert(String(line.dropFirst("walkin ".count)))
                }
            }
            suffixed.withLockedValue { $0 += complete.filter { $0 == "suffixed" }.count }
        }
        process = try LabProcess.start(
            [
                "soak-worker", "--home", home.path, "--tickets", tickets.path, "--seed",
                String(seed &+ UInt64(launches) &* 7919), "--hot-seed", String(hotSeed),
            ], output: .append(log), stdout: output)
    }

    /// SIGKILLs the worker; true when it was running (a kill landed). A worker that had already
    /// ended on its own is recorded as an unexpected exit.
    @discardableResult
    package func kill() -> Bool {
        guard let process else { return false }
        self.process = nil
        guard process.isRunning else {
            process.waitUntilExit()
            recordExit("device \(index): exited with status \(process.terminationStatus)")
            return false
        }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .exit {
            recordExit("device \(index): exited with status \(process.terminationStatus) before the kill")
            return false
        }
        return true
    }

    /// Drains every user's entries: the signed-in user's, then, on a shared device, the other
    /// user's after they sign in again (faults are off by now). One report with both ledgers.
    package func drain(server: String, eventId: EventID) throws -> SoakWorker.Report {
        var report = try drainOnce()
        for _ in 1..<users.count {
            guard try switchUser(server: server, eventId: eventId) else {
                throw CleanFailure("device \(index): \(users[(currentUser + 1) % users.count]) could not sign in again")
            }
            let next = try drainOnce()
            // The later drain knows better about every key it holds (the other user's entries were
            // pending before); the earlier one alone still has the answers sign-out forgot.
            let later = Set(next.ledger.map(\.idempotencyKey))
            report.ledger = report.ledger.filter { !later.contains($0.idempotencyKey) } + next.ledger
            report.pending = next.pending
            report.signedIn = report.signedIn && next.signedIn
            report.pendingAtStart += next.pendingAtStart
            report.drainSeconds += next.drainSeconds
        }
        return report
    }

    /// Runs `soak-worker --drain` to the end and returns its report.
    private func drainOnce() throws -> SoakWorker.Report {
        let (output, status) = try LabProcess.run(
            ["soak-worker", "--home", home.path, "--drain"], output: .append(log))
        guard status == 0, let line = output.split(separator: "\n").last else {
            throw CleanFailure("device \(index) could not drain its outbox (see \(log.path))")
        }
        return try OutpostJSON.decode(SoakWorker.Report.self, from: Data(line.utf8))
    }
}
