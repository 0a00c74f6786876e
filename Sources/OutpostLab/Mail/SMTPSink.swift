import Foundation

/// A real SMTP server on loopback: aiosmtpd (from PyPI, installed by `scripts/test` into a
/// virtual environment; Debian's python3-aiosmtpd for the demo), storing what it receives in a
/// Maildir that tests (and the demo's user) read.
package final class SMTPSink: @unchecked Sendable {
    package let port: Int
    package let directory: URL
    private let process: Process
    /// Whether `stop()` deletes the Maildir (a test's scratch) or leaves it (the demo's mail).
    private let temporary: Bool

    /// The system Python when it has aiosmtpd (Debian's python3-aiosmtpd); nil otherwise.
    package static var systemPython: String? {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else { return nil }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "import aiosmtpd"]
        check.standardOutput = FileHandle.nullDevice
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return nil }
        check.waitUntilExit()
        return check.terminationStatus == 0 ? python : nil
    }

    /// The Python that has aiosmtpd, as `scripts/test` names it; nil outside it.
    package static var python: String? {
        let python = ProcessInfo.processInfo.environment["OUTPOST_TEST_SMTP_PYTHON"]
        return python?.isEmpty == false ? python : nil
    }

    package static let skipMessage =
        "SMTP case skipped: OUTPOST_TEST_SMTP_PYTHON is not set; scripts/test installs aiosmtpd and sets it."

    /// Starts a sink on `port` (a free loopback port when nil: a relay that comes back is a
    /// sink started on the port a server was given) and waits until it accepts connections; its
    /// mail goes to `directory` (kept), or to a temporary one deleted at `stop()`.
    package static func start(
        python: String, port chosen: Int? = nil, directory kept: URL? = nil
    ) async throws
        -> SMTPSink
    {
        let directory =
            kept
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("outpost-mail-\(UUID().uuidString)")
        // A Maildir: aiosmtpd's Mailbox handler writes into tmp/ and moves into new/.
        for folder in ["tmp", "new", "cur"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // A free port can be taken by another loopback service (an identity provider, a server)
        // between choosing it and aiosmtpd binding it: then aiosmtpd exits, and a connect would
        // reach the other service. Ready means this process holds the listening socket; a sink
        // that lost its free port tries another one.
        for _ in 0..<(chosen == nil ? 5 : 1) {
            let port = try chosen ?? ServerHandle.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [
                "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:\(port)", "-c", "aiosmtpd.handlers.Mailbox",
                directory.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let sink = SMTPSink(port: port, directory: directory, process: process, temporary: kept == nil)
            for _ in 0..<400 where process.isRunning {
                if ListeningSocket.isHeld(port: port, by: process.processIdentifier) { return sink }
                try await Task.sleep(for: .milliseconds(25))
            }
            sink.stop(keepingDirectory: true)
        }
        if kept == nil { try? FileManager.default.removeItem(at: directory) }
        throw CleanFailure("aiosmtpd did not start on \(chosen.map { "port \($0)" } ?? "a free loopback port")")
    }

    private init(port: Int, directory: URL, process: Process, temporary: Bool) {
        self.port = port
        self.directory = directory
        self.process = process
        self.temporary = temporary
    }

    /// `127.0.0.1:PORT`, for `--smtp-relay`.
    package var relay: String { "127.0.0.1:\(port)" }

    /// Ends the sink (bounded: it never waits on a run loop, and gives up after two seconds).
    package func stop() { stop(keepingDirectory: !temporary) }

    private func stop(keepingDirectory: Bool) {
        if process.isRunning {
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
        }
        // A child inherits ignored signals: under a parent that ignores SIGTERM (a service
        // group's signal handling), aiosmtpd never sees the terminate. Then it is killed.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
        }
        if !keepingDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// One received message: its headers (names lower-cased) and its body.
    package struct Message: Sendable {
        package var headers: [String: String]
        package var body: String
        package var to: String { headers["to"] ?? "" }
        /// The body's first line (where a sign-in code is).
        package var firstLine: String {
            body.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
    }

    /// Every message received so far, oldest first.
    package func messages() -> [Message] {
        let new = directory.appendingPathComponent("new")
        // In the order they arrived: Maildir names are not ordered, their modification times are.
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: new.path)) ?? []).map {
            new.appendingPathComponent($0)
        }.map { file -> (URL, Date) in
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
            return (file, modified ?? .distantPast)
        }.sorted { ($0.1, $0.0.lastPathComponent) < ($1.1, $1.0.lastPathComponent) }.map(\.0)
        return files.compactMap { file in
            guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            guard let split = text.range(of: "\n\n") else { return nil }
            var headers: [String: String] = [:]
            for line in text[..<split.lowerBound].split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                    in: .whitespaces)
            }
            return Message(headers: headers, body: String(text[split.upperBound...]))
        }
    }

    /// The code in the newest message to `email`, waiting briefly for the relay to store it.
    /// The code of the first mail to `email` after the first `count` (waits for it to arrive).
    /// The first line of the mail to `email` after the first `count` (waits up to 15 s: the
    /// server's mail queue sends after answering, and retries a relay that was down after 2 s).
    package func code(for email: String, after count: Int) async throws -> String {
        for _ in 0..<600 {
            let mails = messages().filter { $0.to.contains(email) }
            if mails.count > count { return mails[count].firstLine }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw CleanFailure("no new mail to \(email) arrived")
    }

    /// The first line of the newest mail to `email` (waits up to 15 s, as above).
    package func code(for email: String) async throws -> String {
        for _ in 0..<600 {
            if let message = messages().last(where: { $0.to.contains(email) }) { return message.firstLine }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw CleanFailure("no mail to \(email) arrived")
    }
}
