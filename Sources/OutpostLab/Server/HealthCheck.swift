import Foundation
import OutpostDevice
import OutpostProtocol

/// The one wait for a server to come up, shared by the demo, the bench, the soak and the tests:
/// `GET /health` until it answers 200, as long as the server can still come up (its process
/// runs) and at most `limit`. Each attempt is a real request; there is no fixed sleep to wait out.
package enum HealthCheck {
    package struct NotHealthy: Error, CustomStringConvertible {
        package var server: URL
        package var reason: String
        package var description: String { "the server at \(server.absoluteString) \(reason)" }
    }

    /// Returns the body of the first 200 answer.
    @discardableResult
    package static func wait(
        for server: URL, while alive: () -> Bool = { true }, limit: Duration = .seconds(120)
    ) async throws -> String {
        let transport = LiveTransport.make(baseURL: server, timeout: 5)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            // A failure is the answer "not yet": the server is still starting.
            // The probe keeps no connection open: a server with a connection cap (serve
            // --max-connections) must not spend a slot on it.
            if let response = try? await transport.send(
                TransportRequest(API.health.line(), headers: ["Connection": "close"])),
                response.status == 200
            {
                return String(decoding: response.body, as: UTF8.self)
            }
            guard alive() else { throw NotHealthy(server: server, reason: "exited before it answered /health") }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NotHealthy(server: server, reason: "did not answer /health within \(limit)")
    }
}
