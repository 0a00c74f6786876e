import Foundation
import OutpostChaos
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

@Suite("chaos proxy: the decisions")
struct ChaosPlanTests {
    @Test("the same seed gives the same plans, and each fault comes at about its probability")
    func seededFrequencies() {
        var first = SeededRandom(seed: 7)
        var second = SeededRandom(seed: 7)
        let faults = ChaosFaults.soak
        let plans = (0..<20_000).map { _ in ChaosPlan.draw(faults, using: &first) }
        #expect(plans == (0..<20_000).map { _ in ChaosPlan.draw(faults, using: &second) })
        func share(_ predicate: (ChaosPlan) -> Bool) -> Double {
            Double(plans.filter(predicate).count) / Double(plans.count)
        }
        // A reset is drawn first; half of them happen before forwarding.
        #expect(abs(share { $0.before == .reset } - 0.025) < 0.006)
        // A dropped request needs no reset before it: 0.975 × 0.30.
        #expect(abs(share { $0.before == .dropRequest } - 0.975 * 0.30) < 0.015)
        let forwarded = plans.filter { $0.before == .forward }
        let duplicated = Double(forwarded.filter(\.duplicate).count) / Double(forwarded.count)
        #expect(abs(duplicated - 0.10) < 0.015)
        let delivered = forwarded.filter { $0.after != .reset }
        let droppedAfter = Double(delivered.filter { $0.after == .dropResponse }.count) / Double(delivered.count)
        #expect(abs(droppedAfter - 0.30) < 0.02)
        #expect(plans.allSatisfy { $0.delayMilliseconds <= faults.maxDelayMilliseconds })
    }

    @Test("no faults means every plan passes through")
    func noneIsPassThrough() {
        var random = SeededRandom(seed: 1)
        #expect((0..<1000).allSatisfy { _ in ChaosPlan.draw(.none, using: &random) == .passThrough })
    }

    @Test("probabilities outside 0...1 are named")
    func invalidFields() {
        #expect(ChaosFaults(dropRequest: 1.5, duplicate: -0.1).invalidFields == ["drop-request", "duplicate"])
        #expect(ChaosFaults.soak.invalidFields.isEmpty)
    }

    @Test("HTTP framing: incomplete heads wait, lengths are read, the head is rewritten to close")
    func framing() throws {
        #expect(try HTTPFrame.parse(Array("POST /x HTTP/1.1\r\nContent-Le".utf8)) == nil)
        let request = Array(
            "POST /x HTTP/1.1\r\nHost: a\r\nconnection: keep-alive\r\ncontent-length: 5\r\n\r\nhello".utf8)
        let frame = try #require(try HTTPFrame.parse(request))
        #expect(frame.contentLength == 5)
        #expect(frame.headLength == request.count - 5)
        #expect(
            String(decoding: frame.headClosingConnection(), as: UTF8.self)
                == "POST /x HTTP/1.1\r\nHost: a\r\ncontent-length: 5\r\nConnection: close\r\n\r\n")
        let response = try #require(try HTTPFrame.parse(Array("HTTP/1.1 503 Busy\r\n\r\n".utf8)))
        #expect(response.status == 503)
        #expect(throws: HTTPFrame.Failure.self) {
            try HTTPFrame.parse(Array("GET / HTTP/1.1\r\ncontent-length: -1\r\n\r\n".utf8))
        }
        #expect(throws: HTTPFrame.Failure.self) { try HTTPFrame.parse(Array("GET / HTTP/1.1\r\nnocolon\r\n\r\n".utf8)) }
        #expect(throws: HTTPFrame.Failure.headTooLarge) {
            try HTTPFrame.parse(Array(repeating: UInt8(ascii: "a"), count: 70_000))
        }
    }
}

@Suite("chaos proxy: in front of a live server")
struct ChaosProxyLiveTests {
    /// Runs `body` with a live server on loopback, a proxy in front of it with `faults`, and one
    /// organizer, event and guest.
    func withProxy(
        _ faults: ChaosFaults,
        _ body: @Sendable (ChaosProxy, World) async throws -> Void
    ) async throws {
        try await withServer(location: .sqliteInMemory, live: true) { api in
            let world = try await World.make(api, guests: 2)
            let port = try #require(api.client.port)
            let proxy = try await ChaosProxy.bind(upstreams: [.init(port: port)], faults: faults, seed: 42)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await proxy.run() }
                defer { group.cancelAll() }
                try await body(proxy, world)
            }
        }
    }

    /// One check-in of the world's first guest, sent through the proxy; the status, or nil when
    /// the client got no complete answer.
    func checkInThroughProxy(
        _ proxy: ChaosProxy, _ world: World, scannedAt millis: Int64 = 1_795_000_000_000
    )
        async -> Int?
    {
        let guest = world.guests[0].id
        let body = try? OutpostJSON.encode(
            CheckInRequest(
                guestId: guest, deviceId: "device-1", scannedAt: Date(millisecondsSince1970: millis), method: .qr))
        let transport = LiveTransport.make(baseURL: URL(string: "http://127.0.0.1:\(proxy.port)")!, timeout: 10)
        let response = try? await transport.send(
            TransportRequest(
                method: "POST", path: "/v1/events/\(world.event.id)/checkins",
                headers: [
                    "Content-Type": "application/json", "Authorization": "Bearer \(world.staff1.accessToken)",
                    "Idempotency-Key": "device-1:\(guest):\(millis)",
                ], body: body))
        return response?.status
    }

    /// How many check-in rows the server holds for the world's first guest (audit `checked_in`).
    func rows(_ world: World) async throws -> Int {
        try await world.api.audit(world.organizer, event: world.event)
            .filter { $0.kind == .checkedIn && $0.guestId == world.guests[0].id }.count
    }

    @Test("with no faults the proxy is transparent")
    func transparent() async throws {
        try await withProxy(.none) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == 201)
            #expect(await checkInThroughProxy(proxy, world) == 201)  // the replay: the stored answer
            #expect(try await rows(world) == 1)
            #expect(proxy.stats.delivered == 2)
            #expect(proxy.stats.statuses[201] == 2)
        }
    }

    @Test("a dropped request never reaches the server")
    func droppedRequest() async throws {
        try await withProxy(ChaosFaults(dropRequest: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == nil)
            #expect(try await rows(world) == 0)
            #expect(proxy.stats.droppedRequests == 1)
        }
    }

    @Test("a captive portal answers in the server's place with an HTML page; the server never sees the request")
    func captivePortal() async throws {
        try await withProxy(ChaosFaults(portal: 1)) { (proxy: ChaosProxy, world: World) async throws in
            for _ in 0..<6 {
                // The portal's status arrives as such: the device follows no redirect.
                let status = await checkInThroughProxy(proxy, world)
                #expect(status == 200 || status == 302 || status == 403)
            }
            #expect(try await rows(world) == 0)
            #expect(proxy.stats.portalAnswers == 6)
            #expect(proxy.stats.statuses.isEmpty, "no request reached the server")
        }
        let page = String(decoding: ChaosProxy.portalPage(status: 302), as: UTF8.self)
        #expect(page.hasPrefix("HTTP/1.1 302 Found\r\n"))
        #expect(page.contains("Location: http://portal.hotel.example/login\r\n"))
        #expect(page.contains("Content-Type: text/html"))
    }

    @Test("a dropped response was applied: the server holds the row the client never heard of")
    func droppedResponse() async throws {
        try await withProxy(ChaosFaults(dropResponse: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == nil)
            #expect(try await rows(world) == 1)
            #expect(proxy.stats.droppedResponses == 1)
            #expect(proxy.stats.statuses[201] == 1)
        }
    }

    @Test("a truncated request body is not applied and causes no server error")
    func truncatedRequest() async throws {
        try await withProxy(ChaosFaults(truncateRequest: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == nil)
            proxy.faults = .none
            #expect(try await rows(world) == 0)
            #expect(await checkInThroughProxy(proxy, world) == 201)
            #expect(proxy.stats.truncatedRequests == 1)
            #expect(proxy.stats.serverErrors == 0)
        }
    }

    @Test("a truncated response leaves the client without an answer, and the row applied")
    func truncatedResponse() async throws {
        try await withProxy(ChaosFaults(truncateResponse: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == nil)
            #expect(try await rows(world) == 1)
            #expect(proxy.stats.truncatedResponses == 1)
        }
    }

    @Test("a duplicated request reaches the server twice and makes one row")
    func duplicated() async throws {
        try await withProxy(ChaosFaults(duplicate: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == 201)
            #expect(try await rows(world) == 1)
            #expect(proxy.stats.duplicated == 1)
            #expect(proxy.stats.statuses.values.reduce(0, +) == 2)
        }
    }

    @Test("resets and a network switched off end the exchange with no answer")
    func resetsAndOffline() async throws {
        try await withProxy(ChaosFaults(reset: 1)) { (proxy: ChaosProxy, world: World) async throws in
            #expect(await checkInThroughProxy(proxy, world) == nil)
            #expect(proxy.stats.resets == 1)
            proxy.faults = .none
            proxy.offline = true
            #expect(await checkInThroughProxy(proxy, world, scannedAt: 1_795_000_000_001) == nil)
            #expect(proxy.stats.offline >= 1)
            proxy.offline = false
            #expect(await checkInThroughProxy(proxy, world, scannedAt: 1_795_000_000_002) != nil)
        }
    }

    @Test("with every server down the client gets no answer and nothing counts as a server error")
    func upstreamDown() async throws {
        let closed = try await ChaosProxy.bind(upstreams: [.init(port: 9)], faults: .none, seed: 1)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await closed.run() }
            defer { group.cancelAll() }
            // Long enough for the proxy to give up on the upstream and close first (it counts the
            // failure before it closes): with 10 s, a loaded machine's client gave up earlier.
            let transport = LiveTransport.make(baseURL: URL(string: "http://127.0.0.1:\(closed.port)")!, timeout: 60)
            #expect((try? await transport.send(TransportRequest(method: "GET", path: "/health"))) == nil)
            #expect(closed.stats.upstreamUnavailable == 1)
            #expect(closed.stats.serverErrors == 0)
        }
    }
}
