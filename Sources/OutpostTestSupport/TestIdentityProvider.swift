import Foundation
import OutpostLab
import Testing

/// A real OpenID Connect provider on loopback for the single sign-on tests: oidc-provider-mock
/// (Authlib and Flask, from PyPI; `scripts/test` installs it into a virtual environment and
/// names its executable in `OUTPOST_TEST_OIDC_PROVIDER`). It signs RS256 ID tokens with a key it
/// makes at each start (so a restart on the same port is a key rotation), requires a nonce, and
/// signs in whoever posts their subject to its authorization page (``Browser``).
package final class TestIdentityProvider: @unchecked Sendable {
    package let port: Int
    private var process: Process
    private let executable: String
    private let options: [String]

    /// The issuer exactly as the provider names itself (it follows the Host it is asked at).
    package var issuer: String { "http://127.0.0.1:\(port)" }

    package static let skipMessage =
        "Identity provider case skipped: OUTPOST_TEST_OIDC_PROVIDER is not set; scripts/test installs oidc-provider-mock and sets it."

    /// A provider for a test; outside `scripts/test` the test is cancelled, saying why.
    /// `tokenMaxAge`: seconds its tokens live (an hour when nil).
    package static func startForTest(tokenMaxAge: Int? = nil) async throws -> TestIdentityProvider {
        guard let executable = ProcessInfo.processInfo.environment["OUTPOST_TEST_OIDC_PROVIDER"],
            !executable.isEmpty
        else {
            print(skipMessage)
            try Test.cancel(Comment(rawValue: skipMessage))
        }
        let options = tokenMaxAge.map { ["--token-max-age", String($0)] } ?? []
        // A provider that exits at once lost its port to another test between the draw and its
        // bind (seen once in a full run): it starts again on another port.
        var failure: (any Error)?
        for _ in 0..<3 {
            let port = try ServerHandle.freePort()
            let provider = TestIdentityProvider(
                port: port, process: try Self.launch(executable, port: port, options: options), executable: executable,
                options: options)
            do {
                try await provider.waitUntilAnswering()
                return provider
            } catch {
                failure = error
            }
        }
        throw failure ?? CleanFailure("oidc-provider-mock did not start")
    }

    private init(port: Int, process: Process, executable: String, options: [String]) {
        self.port = port
        self.process = process
        self.executable = executable
        self.options = options
    }

    private static func launch(_ executable: String, port: Int, options: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--host", "127.0.0.1", "--port", String(port), "--require-nonce", "true"] + options
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits while the provider starts (Python's start-up shares two cores with the whole suite:
    /// up to 60 s), and not at all once it has exited.
    private func waitUntilAnswering() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if (try? await Browser.get(issuer + "/.well-known/openid-configuration").status) == 200 { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        let exited = !process.isRunning
        stop()
        throw CleanFailure(
            "oidc-provider-mock did not start on port \(port)" + (exited ? " (it exited)" : " within 60 s"))
    }

    /// Gives the user `subject` these claims (`email`, `email_verified`, `name`…) from the next sign-in on.
    package func setUser(_ subject: String, claims: [String: any Sendable]) async throws {
        let body = try JSONSerialization.data(withJSONObject: claims)
        let answer = try await Browser.send(
            "PUT", issuer + "/users/" + subject, body: body, contentType: "application/json")
        guard answer.status == 204 else { throw CleanFailure("the provider refused the user: \(answer.status)") }
    }

    /// Stops the provider (a provider that is down).
    package func stop() {
        guard process.isRunning else { return }
        // Flask's development server takes two seconds to honour SIGTERM; a provider that is
        // down needs no grace, so after a moment it is killed.
        process.terminate()
        for _ in 0..<20 where process.isRunning { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Starts it again on the same port: a new signing key (its users are forgotten).
    package func restart() async throws {
        stop()
        process = try Self.launch(executable, port: port, options: options)
        try await waitUntilAnswering()
    }

    deinit { stop() }
}

/// One provider for a whole suite (`.sharedIdentityProvider`): started before its first test
/// and stopped after its last, instead of once per test (starting one costs about two seconds
/// of Python imports). Its tests tell their users apart by subject; a test that stops or
/// restarts a provider starts its own.
package struct SharedIdentityProvider: SuiteTrait, TestScoping {
    @TaskLocal package static var current: TestIdentityProvider?

    package var isRecursive: Bool { false }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Outside scripts/test there is none: each test then cancels itself, saying why.
        guard ProcessInfo.processInfo.environment["OUTPOST_TEST_OIDC_PROVIDER"]?.isEmpty == false else {
            return try await function()
        }
        let provider = try await TestIdentityProvider.startForTest()
        defer { provider.stop() }
        try await Self.$current.withValue(provider) { try await function() }
    }
}

extension Trait where Self == SharedIdentityProvider {
    package static var sharedIdentityProvider: Self { SharedIdentityProvider() }
}
