import Foundation
import OutpostCore
import Testing

/// The geofence engine's decision table (every event in every state, for both profiles), its
/// named rules, and seeded properties.
@Suite("Geofence engine")
struct GeofenceEngineTests {
    static let office = LocationID(UUID(uuidString: "00000000-0000-0000-0000-0000000000a1")!)
    static let home = LocationID(UUID(uuidString: "00000000-0000-0000-0000-0000000000b2")!)
    static let fence = Fence(center: GeoPoint(latitude: 52.52, longitude: 13.405), radius: 100)
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// A fix `metres` from the fence's centre with `accuracy`.
    static func fix(_ metres: Double, _ accuracy: Double, _ source: AccuracySource = .activeFetch) -> GeoFix {
        GeoFix(fence.center.moved(metres: metres, bearing: 90), accuracy: accuracy, source: source)
    }

    /// The states of the table, each reached by real events from nothing.
    enum Start: String, CaseIterable {
        case none, active, pending, pendingExpired, pendingStale

        /// The engine in this state at `t0`, clocked in 30 h before t0 with a 30 m check-in fix.
        func engine(_ policy: HysteresisPolicy) -> GeofenceEngine {
            var engine = GeofenceEngine(policy: policy)
            guard self != .none else { return engine }
            let clockIn = t0.addingTimeInterval(-3600 * 30)
            _ = engine.handle(.enter(office, fence, fix: GeofenceEngineTests.fix(0, 30)), at: clockIn)
            let exitAt: TimeInterval? =
                switch self {
                case .none, .active: nil
                case .pending: -60
                case .pendingExpired: -400
                case .pendingStale: -25 * 3600
                }
            if let exitAt {
                _ = engine.handle(
                    .exit(office, fence, fix: GeofenceEngineTests.fix(160, 70)), at: t0.addingTimeInterval(exitAt))
            }
            return engine
        }
    }

    /// The events of the table, each at t0.
    static let events: [(String, GeofenceEvent)] = [
        ("enter good", .enter(office, fence, fix: fix(10, 15))),
        ("enter no fix", .enter(office, fence, fix: nil)),
        ("enter outside", .enter(office, fence, fix: fix(400, 30))),
        ("exit good", .exit(office, fence, fix: fix(180, 20))),
        ("exit fair", .exit(office, fence, fix: fix(180, 70))),
        ("exit poor", .exit(office, fence, fix: fix(300, 150))),
        ("exit degraded", .exit(office, fence, fix: fix(250, 95, .event))),
        ("exit no fix", .exit(office, fence, fix: nil)),
        ("verify inside", .verification(office, fence, fix: fix(10, 20))),
        ("verify outside", .verification(office, fence, fix: fix(400, 30))),
        ("verify uncertain", .verification(office, fence, fix: fix(120, 80))),
        ("foreground", .foreground),
        ("timer", .timer),
        ("manual in", .manualClockIn(office)),
        ("manual out", .manualClockOut(office)),
    ]

    /// One outcome in a line: decisions by kind (clock-outs with their reason), or why ignored.
    static func summary(_ outcome: GeofenceOutcome) -> String {
        var parts = outcome.decisions.compactMap { decision -> String? in
            switch decision {
            case .clockIn(_, _, _, let method): method == .manual ? "in(manual)" : "in"
            case .pendingExit: "pending"
            case .exitCancelled: "cancel"
            case .clockOut(_, _, _, _, let reason, _): "out(\(reason.rawValue))"
            case .scheduleVerification, .cancelVerification: nil
            }
        }
        if let ignored = outcome.record?.ignored { parts.append("ignored(\(ignored.rawValue))") }
        return parts.isEmpty ? "-" : parts.joined(separator: " ")
    }

    /// Expected outcome per (state, event) for the seed profile, then where field differs.
    static let seedTable: [Start: [String: String]] = [
        .none: [
            "enter good": "in", "enter no fix": "in", "enter outside": "in", "exit good": "ignored(no_session)",
            "exit fair": "ignored(no_session)", "exit poor": "ignored(no_session)",
            "exit degraded": "ignored(no_session)", "exit no fix": "ignored(no_session)",
            "verify inside": "ignored(no_pending_exit)", "verify outside": "ignored(no_pending_exit)",
            "verify uncertain": "ignored(no_pending_exit)", "foreground": "-", "timer": "-", "manual in": "in(manual)",
            "manual out": "ignored(no_session)",
        ],
        .active: [
            "enter good": "ignored(already_clocked_in)", "enter no fix": "ignored(already_clocked_in)",
            "enter outside": "ignored(already_clocked_in)", "exit good": "out(immediate)", "exit fair": "pending",
            "exit poor": "ignored(poor_accuracy)", "exit degraded": "ignored(signal_degradation)",
            "exit no fix": "pending", "verify inside": "ignored(no_pending_exit)",
            "verify outside": "ignored(no_pending_exit)", "verify uncertain": "ignored(no_pending_exit)",
            "foreground": "-", "timer": "-", "manual in": "ignored(already_clocked_in)", "manual out": "out(manual)",
        ],
        .pending: [
            "enter good": "cancel", "enter no fix": "cancel", "enter outside": "cancel",
            "exit good": "ignored(already_pending)", "exit fair": "ignored(already_pending)",
            "exit poor": "ignored(already_pending)", "exit degraded": "ignored(already_pending)",
            "exit no fix": "ignored(already_pending)", "verify inside": "cancel",
            "verify outside": "ignored(uncertain)",
            "verify uncertain": "ignored(uncertain)", "foreground": "-", "timer": "-", "manual in": "cancel",
            "manual out": "out(manual)",
        ],
        .pendingExpired: [
            "enter good": "out(expired_on_enter) in", "enter no fix": "out(expired_on_enter) in",
            "enter outside": "out(expired_on_enter) in", "exit good": "ignored(already_pending)",
            "exit fair": "ignored(already_pending)", "exit poor": "ignored(already_pending)",
            "exit degraded": "ignored(already_pending)", "exit no fix": "ignored(already_pending)",
            "verify inside": "cancel", "verify outside": "out(verified_outside)",
            "verify uncertain": "ignored(uncertain)",
            "foreground": "out(expired_on_foreground)", "timer": "-", "manual in": "cancel",
            "manual out": "out(manual)",
        ],
        .pendingStale: [
            "enter good": "out(stale) in", "enter no fix": "out(stale) in", "enter outside": "out(stale) in",
            "exit good": "out(stale) ignored(no_session)", "exit fair": "out(stale) ignored(no_session)",
            "exit poor": "out(stale) ignored(no_session)", "exit degraded": "out(stale) ignored(no_session)",
            "exit no fix": "out(stale) ignored(no_session)", "verify inside": "out(stale) ignored(no_pending_exit)",
            "verify outside": "out(stale) ignored(no_pending_exit)",
            "verify uncertain": "out(stale) ignored(no_pending_exit)", "foreground": "out(stale)",
            "timer": "out(stale)",
            "manual in": "out(stale) in(manual)", "manual out": "out(stale) ignored(no_session)",
        ],
    ]

    /// Where the field profile answers differently.
    static let fieldDifferences: [Start: [String: String]] = [
        .none: ["enter no fix": "ignored(no_fix)", "enter outside": "ignored(outside_on_enter)"],
        // An unvalidated ENTER is ignored in every state: it neither clocks in nor cancels a
        // pending exit (it still confirms expired ones, as any ENTER does).
        .active: [
            "exit poor": "pending", "exit degraded": "pending", "enter no fix": "ignored(no_fix)",
            "enter outside": "ignored(outside_on_enter)",
        ],
        .pending: ["enter no fix": "ignored(no_fix)", "enter outside": "ignored(outside_on_enter)"],
        // Field's stale limit is 10 minutes: the 400 s pending is not stale yet, the 25 h one is.
        .pendingExpired: [
            "enter no fix": "out(expired_on_enter) ignored(no_fix)",
            "enter outside": "out(expired_on_enter) ignored(outside_on_enter)",
        ],
        .pendingStale: [
            "enter no fix": "out(stale) ignored(no_fix)", "enter outside": "out(stale) ignored(outside_on_enter)",
        ],
    ]

    @Test(
        "geofence-decision-table: every event in every state, seed and field profiles",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func decisionTable(profile: String) throws {
        let policy = try #require(HysteresisPolicy.named(profile))
        for start in Start.allCases {
            for (name, event) in Self.events {
                var engine = start.engine(policy)
                let got = Self.summary(engine.handle(event, at: Self.t0))
                var expected = Self.seedTable[start]![name]!
                if profile == "field", let differs = Self.fieldDifferences[start]?[name] { expected = differs }
                #expect(got == expected, "\(profile) · \(start.rawValue) · \(name)")
            }
        }
    }

    @Test(
        "geofence-backdated: a confirmed pending exit ends the session when the exit happened; short sessions are flagged"
    )
    func backdated() {
        var engine = GeofenceEngine(policy: .seed)
        _ = engine.handle(.enter(Self.office, Self.fence, fix: Self.fix(0, 30)), at: Self.t0)
        _ = engine.handle(.exit(Self.office, Self.fence, fix: Self.fix(170, 70)), at: Self.t0.addingTimeInterval(120))
        let outcome = engine.handle(.foreground, at: Self.t0.addingTimeInterval(120 + 3600))
        #expect(
            outcome.decisions.contains(
                .clockOut(
                    Self.office, clockIn: Self.t0, at: Self.t0.addingTimeInterval(120), method: .geofence,
                    reason: .expiredOnForeground, short: true)))
        #expect(engine.open.isEmpty)
    }

    @Test("geofence-debounce: a second event of a location within 10 s is ignored and recorded as debounce")
    func debounce() {
        var engine = GeofenceEngine(policy: .seed)
        _ = engine.handle(.enter(Self.office, Self.fence, fix: Self.fix(0, 30)), at: Self.t0)
        let second = engine.handle(
            .exit(Self.office, Self.fence, fix: Self.fix(170, 20)), at: Self.t0.addingTimeInterval(3))
        #expect(second.record?.ignored == .debounce)
        #expect(second.decisions.isEmpty)
        // Another location is not debounced by this one.
        let other = engine.handle(
            .enter(Self.home, Self.fence, fix: Self.fix(0, 30)), at: Self.t0.addingTimeInterval(4))
        #expect(Self.summary(other) == "in")
        #expect(
            Self.summary(
                engine.handle(
                    .exit(Self.office, Self.fence, fix: Self.fix(170, 20)), at: Self.t0.addingTimeInterval(11)))
                == "out(immediate)")
    }

    @Test("geofence-expired-elsewhere: an ENTER anywhere confirms another location's expired pending exit")
    func expiredElsewhere() {
        var engine = GeofenceEngine(policy: .seed)
        _ = engine.handle(.enter(Self.office, Self.fence, fix: Self.fix(0, 30)), at: Self.t0)
        _ = engine.handle(.exit(Self.office, Self.fence, fix: Self.fix(170, 70)), at: Self.t0.addingTimeInterval(3600))
        let atHome = engine.handle(
            .enter(Self.home, Self.fence, fix: Self.fix(0, 30)), at: Self.t0.addingTimeInterval(3600 + 900))
        #expect(Self.summary(atHome) == "out(expired_on_enter) in")
    }

    @Test("geofence-accuracy-source: every record says where its accuracy came from")
    func accuracySource() {
        var engine = GeofenceEngine(policy: .seed)
        let event = engine.handle(.enter(Self.office, Self.fence, fix: Self.fix(0, 30, .event)), at: Self.t0)
        #expect(event.record?.accuracySource == .event)
        let fetched = engine.handle(
            .exit(Self.office, Self.fence, fix: Self.fix(170, 70)), at: Self.t0.addingTimeInterval(60))
        #expect(fetched.record?.accuracySource == .activeFetch)
        let none = engine.handle(.verification(Self.office, Self.fence, fix: nil), at: Self.t0.addingTimeInterval(120))
        #expect(none.record?.accuracySource == nil && none.record?.ignored == .uncertain)
    }

    @Test("geofence-confidence: haversine confidence is inside only when the whole error circle is")
    func confidence() {
        #expect(Self.fence.confidence(of: Self.fix(50, 40)) == .inside)
        #expect(Self.fence.confidence(of: Self.fix(50, 60)) == .uncertain)
        #expect(Self.fence.confidence(of: Self.fix(180, 70)) == .outside)
        #expect(Self.fence.confidence(of: Self.fix(150, 60)) == .uncertain)
        let berlinToPotsdam = GeoPoint(latitude: 52.52, longitude: 13.405).distance(
            to: GeoPoint(latitude: 52.3906, longitude: 13.0645))
        #expect(abs(berlinToPotsdam - 27_000) < 1_000)
    }

    /// Folds decisions into sessions, checking the seed's invariant at every step.
    struct Ledger {
        var closed: [(location: LocationID, clockIn: Date, clockOut: Date)] = []

        mutating func apply(_ decisions: [GeofenceDecision]) {
            for case .clockOut(let location, let clockIn, let at, _, _, _) in decisions {
                closed.append((location, clockIn, at))
            }
        }
    }

    @Test(
        "geofence-properties: random days never leave a pending exit past the stale limit, never overlap sessions of one location, never end a session before it began",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func properties(profile: String) throws {
        let policy = try #require(HysteresisPolicy.named(profile))
        for seed in UInt64(1)...200 {
            var random = SeededRandom(seed: seed)
            var engine = GeofenceEngine(policy: policy)
            var ledger = Ledger()
            var now = Self.t0
            for _ in 0..<120 {
                now.addTimeInterval(Double(Int.random(in: 1...3600, using: &random)))
                let location = Bool.random(using: &random) ? Self.office : Self.home
                let distance = Double.random(in: 0...600, using: &random)
                let accuracy = [5.0, 20, 45, 80, 150, 1400].randomElement(using: &random)!
                let fix: GeoFix? =
                    Int.random(in: 0..<5, using: &random) == 0
                    ? nil
                    : Self.fix(distance, accuracy, Bool.random(using: &random) ? .event : .activeFetch)
                let event: GeofenceEvent =
                    switch Int.random(in: 0..<8, using: &random) {
                    case 0, 1: .enter(location, Self.fence, fix: fix)
                    case 2, 3: .exit(location, Self.fence, fix: fix)
                    case 4: .verification(location, Self.fence, fix: fix)
                    case 5: .foreground
                    case 6: .timer
                    default: Bool.random(using: &random) ? .manualClockIn(location) : .manualClockOut(location)
                    }
                ledger.apply(engine.handle(event, at: now).decisions)
                for (_, session) in engine.open {
                    if let pendingAt = session.pendingExitAt {
                        #expect(now.timeIntervalSince(pendingAt) <= policy.stalePendingExit, "seed \(seed)")
                    }
                    #expect(session.clockIn <= now)
                }
            }
            for location in [Self.office, Self.home] {
                let sessions = ledger.closed.filter { $0.location == location }.sorted { $0.clockIn < $1.clockIn }
                for session in sessions { #expect(session.clockIn <= session.clockOut, "seed \(seed)") }
                for (earlier, later) in zip(sessions, sessions.dropFirst()) {
                    #expect(earlier.clockOut <= later.clockIn, "seed \(seed): sessions of one location overlap")
                }
                if let open = engine.open[location], let last = sessions.last {
                    #expect(last.clockOut <= open.clockIn, "seed \(seed)")
                }
            }
        }
    }

    @Test("geofence-codable: the engine's state survives a relaunch (encode, decode) and decides the same")
    func codable() throws {
        var engine = GeofenceEngine(policy: .field)
        _ = engine.handle(.enter(Self.office, Self.fence, fix: Self.fix(0, 30)), at: Self.t0)
        _ = engine.handle(.exit(Self.office, Self.fence, fix: Self.fix(170, 70)), at: Self.t0.addingTimeInterval(600))
        var restored = try JSONDecoder().decode(GeofenceEngine.self, from: try JSONEncoder().encode(engine))
        #expect(restored == engine)
        let later = Self.t0.addingTimeInterval(600 + 700)
        #expect(Self.summary(restored.handle(.timer, at: later)) == Self.summary(engine.handle(.timer, at: later)))
    }
}
