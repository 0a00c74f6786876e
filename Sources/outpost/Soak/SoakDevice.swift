import Foundation
import NIOConcurrencyHelpers
import OutpostProtocol

/// One soak device: its state directory and the `outpost soak-worker` process now running on it.
/// It collects the keys the worker printed after each local commit.
final class SoakDevice: @unchecked Sendable {
    let index: Int
    let home: URL
    let tickets: URL
    let log: URL
    private let hotSeed: UInt64
    private var process: Process?
    private var launches = 0
    private let confirmedKeys = NIOLockedValueBox<Set<String>>([])
    /// Entered per launch, left when that worker's stdout reaches its end.
    private let readers = DispatchGroup()
    /// Worker exits the soak did not cause (a crash), with their status.
    private(set) var unexpectedExits: [String] = []

    init(index: Int, home: URL, tickets: URL, log: URL, hotSeed: UInt64) {
        self.index = index
        self.home = home
        self.tickets = tickets
        self.log = log
        self.hotSeed = hotSeed
    }

    /// Every key a worker on this device reported as committed.
    var confirmed: Set<String> { confirmedKeys.withLockedValue { $0 } }

    /// Waits (bounded) until every worker's output has been read to its end.
    func finishReading() {
        _ = readers.wait(timeout: .now() + 10)
    }

    func start(seed: UInt64) throws {
        launches += 1
        let process = Process()
        process.executableURL = ServerHandle.binary
        process.arguments = [
            "soak-worker", "--home", home.path, "--tickets", tickets.path, "--seed",
            String(seed &+ UInt64(launches) &* 7919), "--hot-seed", String(hotSeed),
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try Self.appending(log)
        let keys = confirmedKeys
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
        }
        try process.run()
        self.process = process
    }

    /// SIGKILLs the worker; true when it was running (a kill landed). A worker that had already
    /// ended on its own is recorded as an unexpected exit.
    @discardableResult
    func kill() -> Bool {
        guard let process else { return false }
        self.process = nil
        guard process.isRunning else {
            process.waitUntilExit()
            unexpectedExits.append("device \(index): exited with status \(process.terminationStatus)")
            return false
        }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .exit {
            unexpectedExits.append("device \(index): exited with status \(process.terminationStatus) before the kill")
            return false
        }
        return true
    }

    /// Runs `soak-worker --drain` to the end and returns its report.
    func drain() throws -> SoakWorkerCommand.Report {
        let process = Process()
        process.executableURL = ServerHandle.binary
        process.arguments = ["soak-worker", "--home", home.path, "--drain"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try Self.appending(log)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last
        else {
            throw CleanFailure("device \(index) could not drain its outbox (see \(log.path))")
        }
        return try OutpostJSON.decode(SoakWorkerCommand.Report.self, from: Data(line.utf8))
    }

    static func appending(_ url: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: url.path) {
            FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        return handle
    }
}
