import Foundation
import OutpostDevice

/// A captive portal or an interfering proxy: while `active`, every request is answered by the
/// portal (nothing reaches the server), with the given status and an HTML page.
final class CaptivePortalTransport: Transport, @unchecked Sendable {
    let inner: any Transport
    private let lock = NSLock()
    private var status: Int?
    private(set) var answered = 0

    init(_ inner: any Transport) { self.inner = inner }

    /// Starts answering as a portal with `status`; nil lets requests through again.
    func portal(_ status: Int?) { lock.withLock { self.status = status } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if let status = lock.withLock({ self.status }) {
            lock.withLock { answered += 1 }
            let page = "<!DOCTYPE html><html><body><h1>Welcome to Hotel Wi-Fi</h1>Please log in.</body></html>"
            return TransportResponse(status: status, body: Data(page.utf8))
        }
        return try await inner.send(request)
    }
}

/// Passes every request on, except that it fails requests chosen by `shouldFail` (given the
/// request and whether a refresh succeeded before it), after or instead of sending them.
final class ScriptedFaultTransport: Transport, @unchecked Sendable {
    enum Fault {
        /// The request never leaves.
        case dropRequest
        /// The server applies it; the answer is lost.
        case dropResponse
    }

    let inner: any Transport
    private let lock = NSLock()
    private var script: [(matches: @Sendable (TransportRequest, Int) -> Bool, fault: Fault)]
    /// Successful refreshes so far.
    private(set) var refreshes = 0
    private(set) var faults = 0

    init(_ inner: any Transport) {
        self.inner = inner
        script = []
    }

    /// The next request matching `matches` (given the number of refreshes so far) fails once.
    func failOnce(_ fault: Fault, where matches: @escaping @Sendable (TransportRequest, Int) -> Bool) {
        lock.withLock { script.append((matches, fault)) }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let fault: Fault? = lock.withLock {
            guard let index = script.firstIndex(where: { $0.matches(request, refreshes) }) else { return nil }
            faults += 1
            return script.remove(at: index).fault
        }
        if fault == .dropRequest { throw TransportError.connectionFailed("request dropped") }
        let response = try await inner.send(request)
        if request.path == "/v1/auth/refresh", response.status == 200 { lock.withLock { refreshes += 1 } }
        if fault == .dropResponse { throw TransportError.timedOut }
        return response
    }
}
