import Foundation

/// The one way the lab starts processes: `outpost` itself (servers, bootstraps, device commands,
/// soak workers) through Foundation's `Process`, and foreign daemons through `posix_spawn`.
package enum LabProcess {
    /// The `outpost` executable this process runs as.
    package static var binary: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    }

    /// Where a child's stdout and stderr go.
    package enum Output {
        /// Discarded.
        case discard
        /// Appended to a file (created if missing), kept across restarts.
        case append(URL)
    }

    /// Starts `outpost ARGUMENTS` with stdout to `stdout` (or `output`) and stderr to `output`,
    /// stdin from `stdin` when given; through `launcher` when given (a command that runs the rest
    /// of its line elsewhere: `ip netns exec NS`, in a network namespace).
    package static func start(
        _ arguments: [String], output: Output, stdout: Pipe? = nil, stdin: Pipe? = nil, through launcher: [String] = []
    ) throws -> Process {
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [binary.path] + arguments
        }
        if let stdin { process.standardInput = stdin }
        switch output {
        case .discard:
            process.standardOutput = stdout ?? FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        case .append(let url):
            let handle = try appending(url)
            process.standardOutput = stdout ?? handle
            process.standardError = handle
        }
        try process.run()
        return process
    }

    /// Runs `outpost ARGUMENTS` to its end: its stdout and exit status (stderr to `output`).
    package static func run(
        _ arguments: [String], output: Output = .discard, through launcher: [String] = []
    ) throws -> (
        stdout: String, status: Int32
    ) {
        let pipe = Pipe()
        let process = try start(arguments, output: output, stdout: pipe, through: launcher)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    /// Runs `work`, which blocks (a child's pipes read to their end, its exit waited for), on a
    /// thread of its own: Swift concurrency's pool has one thread per core (two here), and a test
    /// that blocked one of them to wait for a process, beside another doing the same, left no
    /// thread for anything else in the process: every in-process server stalled, and requests to
    /// them ran into their timeouts (whole seconds of an idle machine in the parallel test run).
    package static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.start()
        }
    }

    /// SIGKILLs `process` (no drain, no clean shutdown) and waits for it to be gone; true when
    /// it was running.
    @discardableResult
    package static func kill(_ process: Process) -> Bool {
        guard process.isRunning else { return false }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return true
    }

    /// A file handle appending to `url` (created if missing).
    package static func appending(_ url: URL) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CleanFailure("could not create \(url.path)")
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        return handle
    }

    /// Runs a program with its output to a file and waits for it. posix_spawn, not Foundation's
    /// Process: a script that leaves a daemon running (the pretix peer's `serve.sh start` leaves
    /// gunicorn) hands it whatever the parent handed down, and Foundation's Process waits until
    /// every inheritor of its end-of-process channel is gone (so it would wait for the daemon).
    package static func spawnAndWait(
        _ arguments: [String], environment: [String: String], output: String
    ) throws
        -> Int32
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw CleanFailure("could not start \(arguments[0]) (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS by hand (the C macros are not imported).
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs a program on this terminal (standard input, output and error inherited) and waits
    /// for it: posix_spawn for the same reason as ``spawnAndWait(_:environment:output:)`` (tmux
    /// starts its server as a daemon). Its exit status.
    package static func spawnOnTerminal(_ arguments: [String], environment: [String: String]) throws -> Int32 {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], nil, nil, argv, envp)
        guard spawned == 0 else { throw CleanFailure("could not start \(arguments[0]) (error \(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
