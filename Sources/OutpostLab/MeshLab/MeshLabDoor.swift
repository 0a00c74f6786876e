import Foundation
import NIOConcurrencyHelpers
import OutpostCore
import OutpostProtocol

/// One door of the mesh lab: its state directory, and `outpost device mesh` running in its
/// network namespace, fed commands on standard input and read one answer a line.
package final class MeshLabDoor: @unchecked Sendable {
    package let index: Int
    package let home: URL
    let log: URL
    private let lab: NetworkLab
    private let lock = NSLock()
    private var _process: Process?
    private var _input: FileHandle?
    private var process: Process? {
        get { lock.withLock { _process } }
        set { lock.withLock { _process = newValue } }
    }
    private var input: FileHandle? {
        get { lock.withLock { _input } }
        set { lock.withLock { _input = newValue } }
    }
    private let lines = LineQueue()

    /// The door's answer to one command (the fields of `outpost device mesh --json` the lab reads).
    package struct Answer: Decodable, Sendable {
        package var command: String?
        package var screen: String?
        package var confirming: Bool?
        package var alreadyCheckedIn: String?
        package var confirmed: String?
        package var refusal: String?
        package var peers: [String: Double]?
        package var entries: Int?
        package var pending: Int?
        package var at: Int64?
    }

    init(index: Int, home: URL, log: URL, lab: NetworkLab) {
        self.index = index
        self.home = home
        self.log = log
        self.lab = lab
    }

    package var isRunning: Bool { process?.isRunning ?? false }

    /// Runs `outpost device ARGUMENTS --home HOME --json` in the door's namespace to its end; the
    /// tree's JSON (its last line) and the exit status.
    func device(_ arguments: [String]) throws -> (tree: String, status: Int32) {
        let (output, status) = try LabProcess.run(
            ["device"] + arguments + ["--home", home.path, "--json"], output: .append(log),
            through: lab.launcher(door: index))
        return (output.split(separator: "\n").last.map(String.init) ?? "", status)
    }

    /// Signs in through `server`, opens the event and syncs (which brings the mesh credentials),
    /// retrying a few times; throws when it never held.
    func prepare(server: String, email: String, password: String, eventId: EventID) throws {
        for _ in 0..<5 {
            _ = try device([
                "signin", "--server", server, "--email", email, "--password", password, "--allow-insecure-http",
            ])
            _ = try device(["open", eventId.wire])
            let (tree, status) = try device(["sync"])
            if status == 0, tree.contains(eventId.wire) { return }
        }
        throw CleanFailure("door \(index + 1) could not sign in, open the event and sync (\(log.path))")
    }

    /// Starts `outpost device mesh` (listening on the lab's default port, keeping `joins` joined,
    /// discovering peers with DNS-SD when `discover`).
    func start(joins: [String], discover: Bool) throws {
        var arguments = ["device", "mesh", "--home", home.path, "--json"]
        for join in joins { arguments += ["--join", join] }
        if discover { arguments.append("--discover") }
        let stdin = Pipe()
        let stdout = Pipe()
        lines.reset()
        let queue = lines
        let partial = NIOLockedValueBox("")
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                queue.finish()
                return
            }
            let complete = partial.withLockedValue { rest -> [Substring] in
                var pieces = (rest + String(decoding: data, as: UTF8.self)).split(
                    separator: "\n", omittingEmptySubsequences: false)
                rest = String(pieces.removeLast())
                return pieces
            }
            for piece in complete { queue.push(String(piece)) }
        }
        process = try LabProcess.start(
            arguments, output: .append(log), stdout: stdout, stdin: stdin, through: lab.launcher(door: index))
        input = stdin.fileHandleForWriting
    }

    /// Sends one command and waits (up to `timeout`) for its answer; nil when the door died or
    /// did not answer.
    package func send(_ command: String, timeout: Duration = .seconds(20)) async -> Answer? {
        guard let input, isRunning else { return nil }
        do {
            try input.write(contentsOf: Data((command + "\n").utf8))
        } catch {
            return nil
        }
        guard let line = await lines.next(timeout: timeout) else { return nil }
        return try? OutpostJSON.decode(Answer.self, from: Data(line.utf8))
    }

    /// SIGKILLs the door's process (a force-quit, a pulled battery).
    package func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input?.close()
        input = nil
    }

    /// Ends the door's process: standard input closed, as a person quitting.
    package func stop() {
        try? input?.close()
        input = nil
        guard let process else { return }
        let deadline = Date() + 10
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill() }
    }
}

/// Lines read from a door's output, taken one at a time by whoever waits for the next.
final class LineQueue: @unchecked Sendable {
    private let state = NIOLockedValueBox<(lines: [String], finished: Bool)>(([], false))

    func reset() { state.withLockedValue { $0 = ([], false) } }
    func push(_ line: String) { state.withLockedValue { $0.lines.append(line) } }
    func finish() { state.withLockedValue { $0.finished = true } }

    /// The next line, polled every 2 ms; nil at the end or after `timeout`.
    func next(timeout: Duration) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let taken = state.withLockedValue { state -> (String?, Bool) in
                if state.lines.isEmpty { return (nil, state.finished) }
                return (state.lines.removeFirst(), false)
            }
            if let line = taken.0 { return line }
            if taken.1 { return nil }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return nil
    }
}
