import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OutpostCore

/// A loopback HTTP/1.1 proxy that forwards requests to one or more servers and, by seeded
/// probabilities, drops, delays, duplicates, truncates and resets them (``ChaosFaults``).
///
/// Every exchange uses its own connections and ends with `Connection: close`, so a fault on one
/// request never leaks into the next. The servers' 5xx answers are counted apart from the
/// injected faults: the proxy itself never answers with a status code.
public final class ChaosProxy: Sendable {
    /// A server the proxy forwards to.
    public struct Upstream: Sendable, Hashable {
        public var host: String
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }
    }

    private struct State {
        var faults: ChaosFaults
        var random: SeededRandom
        var stats = ChaosStats()
        var offline = false
        var nextUpstream = 0
        var upstreams: [Upstream]
    }

    /// The largest request or response the proxy buffers (bigger ones are reset).
    static let maxMessage = 64 * 1024 * 1024

    /// The port the proxy listens on (loopback only).
    public let port: Int
    private let listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let group: any EventLoopGroup
    private let state: NIOLockedValueBox<State>

    private init(
        listener: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, group: any EventLoopGroup,
        state: State
    ) {
        self.listener = listener
        self.group = group
        self.state = NIOLockedValueBox(state)
        port = listener.channel.localAddress?.port ?? 0
    }

    /// Binds to `127.0.0.1:port` (0 picks a free port); call ``run()`` to serve.
    public static func bind(
        port: Int = 0, upstreams: [Upstream], faults: ChaosFaults, seed: UInt64,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ChaosProxy {
        precondition(!upstreams.isEmpty, "a proxy needs at least one upstream")
        let listener = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return ChaosProxy(
            listener: listener, group: group,
            state: State(faults: faults, random: SeededRandom(seed: seed), upstreams: upstreams))
    }

    /// Accepts and serves connections until the calling task is cancelled.
    public func run() async {
        try? await listener.executeThenClose { connections in
            try await withThrowingDiscardingTaskGroup { group in
                for try await connection in connections {
                    group.addTask { await self.serve(connection) }
                }
            }
        }
    }

    /// The fault mix for requests from now on.
    public var faults: ChaosFaults {
        get { state.withLockedValue { $0.faults } }
        set { state.withLockedValue { $0.faults = newValue } }
    }

    /// While true the network is "off": every connection is reset at once.
    public var offline: Bool {
        get { state.withLockedValue { $0.offline } }
        set { state.withLockedValue { $0.offline = newValue } }
    }

    /// What the proxy did so far.
    public var stats: ChaosStats { state.withLockedValue { $0.stats } }

    // MARK: - One exchange

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        try? await connection.executeThenClose { inbound, outbound in
            if offline {
                count { $0.offline += 1 }
                abort(connection.channel)
                return
            }
            guard let (frame, request) = try await Self.readMessage(inbound, stopAtEOF: false) else {
                return
            }
            guard !frame.chunked else {
                abort(connection.channel)
                return
            }
            let isRefresh = frame.lines.first?.contains(" /v1/auth/refresh") == true
            let plan = state.withLockedValue { state in
                state.stats.requests += 1
                if isRefresh { state.stats.refreshRequests += 1 }
                return ChaosPlan.draw(state.faults, using: &state.random)
            }
            let body = Array(request[frame.headLength...])
            switch plan.before {
            case .portal(let status):
                count { $0.portalAnswers += 1 }
                try await outbound.write(ByteBuffer(bytes: Self.portalPage(status: status)))
                return
            case .reset:
                count { $0.resets += 1 }
                abort(connection.channel)
                return
            case .dropRequest:
                count { $0.droppedRequests += 1 }
                return
            case .truncateRequest:
                count { $0.truncatedRequests += 1 }
                let partial = Array(request[..<(frame.headLength + body.count / 2)])
                _ = await exchange(
                    body.isEmpty ? Array(request.prefix(frame.headLength / 2)) : partial, complete: false)
                return
            case .forward:
                break
            }
            if plan.delayMilliseconds > 0 {
                count { $0.delayed += 1 }
                try await Task.sleep(for: .milliseconds(plan.delayMilliseconds))
            }
            let forwarded = frame.headClosingConnection() + body
            let response: [UInt8]?
            if plan.duplicate {
                count { $0.duplicated += 1 }
                async let first = exchange(forwarded, complete: true)
                async let second = exchange(forwarded, complete: true)
                let answers = await [first, second]
                response = answers.compactMap { $0 }.first
            } else {
                response = await exchange(forwarded, complete: true)
            }
            guard let response, let answer = try HTTPFrame.parse(response) else {
                count { $0.upstreamUnavailable += 1 }
                abort(connection.channel)
                return
            }
            let head = answer.headClosingConnection()
            let answerBody = Array(response[answer.headLength...])
            if isRefresh, plan.after != .deliver { count { $0.refreshAnswersLost += 1 } }
            switch plan.after {
            case .reset:
                count { $0.resets += 1 }
                abort(connection.channel)
            case .dropResponse:
                count { $0.droppedResponses += 1 }
            case .truncateResponse:
                count { $0.truncatedResponses += 1 }
                let partial =
                    answerBody.isEmpty
                    ? Array(head.prefix(head.count / 2)) : head + answerBody.prefix(answerBody.count / 2)
                try await outbound.write(ByteBuffer(bytes: partial))
            case .deliver:
                try await outbound.write(ByteBuffer(bytes: head + answerBody))
                count { $0.delivered += 1 }
            }
        }
    }

    /// What a hotel or conference Wi-Fi answers instead of the server: its login page as HTML,
    /// with a redirect to it for 302.
    public static func portalPage(status: Int) -> [UInt8] {
        let reason = [200: "OK", 302: "Found", 403: "Forbidden"][status] ?? "OK"
        let body =
            "<!DOCTYPE html><html><head><title>Welcome to Hotel Wi-Fi</title></head>"
            + "<body><form action=\"/login\"><input name=\"room\"><button>Connect</button></form></body></html>"
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/html; charset=utf-8\r\n"
        if status == 302 { head += "Location: http://portal.hotel.example/login\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// Sends `bytes` to the next server that accepts a connection. With `complete` it returns the
    /// whole answer (nil if the server died first); otherwise it hangs up right after sending.
    private func exchange(_ bytes: [UInt8], complete: Bool) async -> [UInt8]? {
        let candidates = state.withLockedValue { state -> [Upstream] in
            let start = state.nextUpstream
            state.nextUpstream = (start + 1) % state.upstreams.count
            return (0..<state.upstreams.count).map { state.upstreams[(start + $0) % state.upstreams.count] }
        }
        for upstream in candidates {
            let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
            do {
                channel = try await ClientBootstrap(group: group)
                    .connectTimeout(.seconds(2))
                    .connect(host: upstream.host, port: upstream.port) { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                        }
                    }
            } catch {
                continue  // this instance is down: the request never reached it, so try the next
            }
            let answer = try? await channel.executeThenClose { inbound, outbound -> [UInt8]? in
                try await outbound.write(ByteBuffer(bytes: bytes))
                guard complete, let (frame, response) = try await Self.readMessage(inbound, stopAtEOF: true) else {
                    return nil
                }
                count { stats in
                    if let status = frame.status {
                        stats.statuses[status, default: 0] += 1
                        if status >= 500 { stats.serverErrors += 1 }
                    }
                }
                return response
            }
            return answer ?? nil
        }
        return nil
    }

    /// Reads one message: its head and, by `Content-Length`, its body. Without a length a
    /// response runs to the end of the stream (`stopAtEOF`). Nil when the peer hung up early.
    private static func readMessage(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, stopAtEOF: Bool
    ) async throws -> (HTTPFrame, [UInt8])? {
        var bytes: [UInt8] = []
        var frame: HTTPFrame?
        var iterator = inbound.makeAsyncIterator()
        while true {
            if let frame {
                if let length = frame.contentLength, bytes.count >= frame.headLength + length {
                    return (frame, Array(bytes.prefix(frame.headLength + length)))
                }
                if frame.contentLength == nil, !stopAtEOF, !frame.chunked {
                    return (frame, Array(bytes.prefix(frame.headLength)))  // a request without a body
                }
                if frame.chunked, !stopAtEOF { return (frame, bytes) }
            }
            guard var chunk = try await iterator.next() else {
                if stopAtEOF, let frame, frame.contentLength == nil { return (frame, bytes) }
                return nil
            }
            bytes += chunk.readBytes(length: chunk.readableBytes) ?? []
            if frame == nil { frame = try HTTPFrame.parse(bytes) }
            if bytes.count > maxMessage { return nil }
        }
    }

    private func count(_ update: (inout ChaosStats) -> Void) {
        state.withLockedValue { update(&$0.stats) }
    }

    /// Closes with a TCP reset (SO_LINGER 0), as a crashing middlebox would.
    private func abort(_ channel: any Channel) {
        guard let provider = channel as? any SocketOptionProvider else {
            channel.close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in channel.close(promise: nil) }
    }
}
