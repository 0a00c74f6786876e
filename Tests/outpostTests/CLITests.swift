import Foundation
import OutpostLab
import Testing

@testable import outpost

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `outpost` binary driven as a user would: help, exit statuses, bootstrap, serve.
@Suite("outpost command line")
struct CLITests {
    @Test("--help lists every command; each subcommand's help describes its options")
    func help() async throws {
        let root = try await CLI.run(["--help"])
        #expect(root.status == 0)
        for command in ["serve", "admin"] { #expect(root.stdout.contains(command)) }
        let serve = try await CLI.run(["serve", "--help"])
        for option in ["--sqlite", "--postgres", "--host", "--port", "--dedupe-window"] {
            #expect(serve.stdout.contains(option), "serve --help lacks \(option)")
        }
        let bootstrap = try await CLI.run(["admin", "bootstrap", "--help"])
        for option in ["--sqlite", "--postgres", "--tenant", "--email", "--password", "--name"] {
            #expect(bootstrap.stdout.contains(option), "bootstrap --help lacks \(option)")
        }
        #expect(try await CLI.run(["admin", "--help"]).stdout.contains("bootstrap"))
    }

    @Test("a wrong flag is a usage error: exit 2, a clear message, no stack trace")
    func wrongFlag() async throws {
        for arguments in [
            ["serve", "--bogus"], ["serve", "--port", "http"], ["serve", "--sqlite", "a", "--postgres", "b"],
            ["nonsense"], ["serve", "--postgres-pool", "0"],
        ] {
            let result = try await CLI.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains("Error:"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack"))
        }
        let pool = try await CLI.run(["serve", "--postgres-pool", "5000"])
        #expect(pool.status == 2 && pool.stderr.contains("--postgres-pool must be from 1 to 1000"), "\(pool.stderr)")
    }

    @Test("an unreachable PostgreSQL is one sentence and exit 1")
    func unreachablePostgres() async throws {
        let port = try CLI.freePort()
        for arguments in [
            ["serve", "--postgres", "postgres://outpost@127.0.0.1:\(port)/outpost"],
            [
                "admin", "bootstrap", "--postgres", "postgres://outpost@127.0.0.1:\(port)/outpost", "--tenant", "T",
                "--email", "a@b.co", "--password", "password1", "--name", "A",
            ],
        ] {
            let result = try await CLI.run(arguments)
            #expect(result.status == 1)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("Cannot connect to PostgreSQL at 127.0.0.1:\(port)"))
        }
        let badURL = try await CLI.run(["serve", "--postgres", "mysql://nope"])
        #expect(badURL.status == 1)
        #expect(badURL.stderr.contains("is not a PostgreSQL URL"))
    }

    @Test("bootstrap prints tenantId and userId, and refuses an existing e-mail")
    func bootstrap() async throws {
        let directory = try CLI.temporaryDirectory()
        let arguments = [
            "admin", "bootstrap", "--sqlite", directory + "/o.sqlite", "--tenant", "Acme", "--email", "ann@acme.test",
            "--password", "correct horse", "--name", "Ann", "--bcrypt-cost", "4",
        ]
        let first = try await CLI.run(arguments)
        #expect(first.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: String]
        #expect(json?["tenantId"]?.count == 36 && json?["userId"]?.count == 36)
        let second = try await CLI.run(arguments)
        #expect(second.status == 1)
        #expect(second.stderr.contains("already exists"))
    }

    @Test("serve answers on its port, keeps data in the SQLite file, and stops cleanly on SIGTERM")
    func serveAndStop() async throws {
        let directory = try CLI.temporaryDirectory()
        let database = directory + "/data/outpost.sqlite"
        let port = try CLI.freePort()
        let server = try CLI.start(["serve", "--sqlite", database, "--port", String(port), "--bcrypt-cost", "4"])
        defer { if server.isRunning { server.terminate() } }
        let health = try await CLI.waitForHealth(port: port)
        #expect(health == #"{"status":"ok"}"#)
        #expect(FileManager.default.fileExists(atPath: database))
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        #expect(server.terminationReason == .exit)
        #expect(server.terminationStatus == 0)
    }
}

/// Runs the built `outpost` binary.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary beside the test bundle in the build directory.
    static var binary: URL {
        if let explicit = ProcessInfo.processInfo.environment["OUTPOST_BIN"] { return URL(fileURLWithPath: explicit) }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("outpost")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../.build/debug/outpost")
    }

    /// Runs `outpost ARGUMENTS` (or `executable`) to its end, waiting off Swift concurrency's
    /// pool (``LabProcess/blocking(_:)``).
    static func run(_ arguments: [String], executable: URL? = nil) async throws -> Result {
        let binary = executable ?? binary
        return try await LabProcess.blocking { try runBlocking(arguments, executable: binary) }
    }

    private static func runBlocking(_ arguments: [String], executable: URL) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits until the server on `port` answers /health (the one wait `outpost` itself uses).
    static func waitForHealth(port: Int) async throws -> String {
        try await HealthCheck.wait(for: URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// Waits until something accepts TCP connections on the loopback `port`.
    static func waitForListening(port: Int) async throws {
        for _ in 0..<600 {
            if let socket = try? RawSocket(port: port) {
                close(socket.fd)
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw POSIXError(.ETIMEDOUT)
    }

    /// Runs the binary as a device whose system trust store is `bundle` (a PEM file): in a
    /// private mount namespace the bundle is mounted over Debian's CA file, which libcurl (and so
    /// URLSession on Linux) reads, as installing a CA profile does on a phone. Needs root.
    static func run(_ arguments: [String], trusting bundle: String) async throws -> Result {
        try await run(
            [
                "--mount", "sh", "-c", #"mount --bind "$0" /etc/ssl/certs/ca-certificates.crt && exec "$@""#, bundle,
                binary.path,
            ] + arguments, executable: URL(fileURLWithPath: "/usr/bin/unshare"))
    }

    /// A free loopback port: the same helper `outpost bench` and `outpost soak` use.
    static func freePort() throws -> Int { try ServerHandle.freePort() }

    static func temporaryDirectory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }
}
