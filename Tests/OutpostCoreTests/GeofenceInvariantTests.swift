import Foundation
import OutpostCore
import Testing

/// The geofence engine's state after every event, not only its first decision
///. A re-entry within the window, a verification fix inside and a manual clock-in all
/// cancel a pending exit; if the cancel left `pendingExitAt` set, a foreground an hour later
/// would close the session as `expired_on_foreground`, backdated to the old exit, and the worker
/// would lose the hours. The sequences below and a seeded property over random event sequences
/// check the state after each event against what the decisions said.
@Suite("Geofence engine: state after every event")
struct GeofenceInvariantTests {
    typealias Base = GeofenceEngineTests
    static let office = Base.office
    static let fence = Base.fence
    static let t0 = Base.t0

    /// Clocked in at t0 with a good fix, then a fair exit an hour later: a pending exit.
    static func pendingEngine(_ policy: HysteresisPolicy) -> GeofenceEngine {
        var engine = GeofenceEngine(policy: policy)
        _ = engine.handle(.enter(office, fence, fix: Base.fix(0, 30)), at: t0)
        let pending = engine.handle(.exit(office, fence, fix: Base.fix(180, 70)), at: t0.addingTimeInterval(3600))
        #expect(Base.summary(pending) == "pending")
        return engine
    }

    /// After a cancel at `cancelAt`: the session is open and not pending, and a foreground an hour
    /// later (or a timer, or the next ENTER) closes nothing.
    static func expectCancelHolds(_ engine: GeofenceEngine, after cancelAt: Date, _ comment: Comment) {
        var engine = engine
        #expect(engine.open[office] != nil, comment)
        #expect(engine.open[office]?.pendingExitAt == nil, comment)
        #expect(engine.open[office]?.exitAccuracy == nil, comment)
        let later = engine.handle(.foreground, at: cancelAt.addingTimeInterval(3600))
        #expect(Base.summary(later) == "-", comment)
        #expect(engine.open[office]?.clockIn == t0, "the session still runs from the first clock-in")
    }

    @Test(
        "geofence-reentry-clears-pending: a re-entry within the window cancels the pending exit for good; a foreground an hour later closes nothing",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func reentry(profile: String) throws {
        var engine = Self.pendingEngine(try #require(HysteresisPolicy.named(profile)))
        let back = Self.t0.addingTimeInterval(3600 + 120)
        #expect(
            Base.summary(engine.handle(.enter(Self.office, Self.fence, fix: Base.fix(10, 15)), at: back)) == "cancel")
        Self.expectCancelHolds(engine, after: back, "re-entry, \(profile)")
    }

    @Test(
        "geofence-verification-inside-clears-pending: a verification fix inside cancels the pending exit for good; a foreground an hour later closes nothing",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func verificationInside(profile: String) throws {
        var engine = Self.pendingEngine(try #require(HysteresisPolicy.named(profile)))
        let check = Self.t0.addingTimeInterval(3600 + 60)
        let outcome = engine.handle(.verification(Self.office, Self.fence, fix: Base.fix(10, 20)), at: check)
        #expect(Base.summary(outcome) == "cancel")
        Self.expectCancelHolds(engine, after: check, "verification inside, \(profile)")
    }

    @Test(
        "geofence-manual-clock-in-clears-pending: clocking in by hand on a pending exit cancels it for good",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func manualClockIn(profile: String) throws {
        var engine = Self.pendingEngine(try #require(HysteresisPolicy.named(profile)))
        let tap = Self.t0.addingTimeInterval(3600 + 30)
        #expect(Base.summary(engine.handle(.manualClockIn(Self.office), at: tap)) == "cancel")
        Self.expectCancelHolds(engine, after: tap, "manual clock-in, \(profile)")
    }

    /// What the decisions so far say the state is: which locations are clocked in, and the
    /// pending exit of each (from `pendingExit`, until a cancel, a clock-out or a clock-in).
    struct Shadow {
        var open: [LocationID: Date] = [:]
        var pending: [LocationID: Date] = [:]

        /// Applies one event's decisions; each broken rule is one line.
        mutating func apply(_ decisions: [GeofenceDecision], at now: Date) -> [String] {
            var broken: [String] = []
            for decision in decisions {
                switch decision {
                case .clockIn(let location, let at, _, _):
                    if open[location] != nil { broken.append("clock-in of \(location) while clocked in") }
                    open[location] = at
                    pending[location] = nil
                case .pendingExit(let location, let at, _):
                    if open[location] == nil { broken.append("pending exit without a session") }
                    if pending[location] != nil { broken.append("a second pending exit") }
                    pending[location] = at
                case .exitCancelled(let location, _):
                    if pending[location] == nil { broken.append("a cancel without a pending exit") }
                    pending[location] = nil
                case .clockOut(let location, let clockIn, let at, _, let reason, _):
                    guard let opened = open[location] else {
                        broken.append("clock-out without a session")
                        continue
                    }
                    if clockIn != opened { broken.append("clock-out of another session") }
                    switch reason {
                    case .immediate, .manual:
                        if at != now { broken.append("\(reason) clock-out not at the event") }
                    case .verifiedOutside, .expiredOnEnter, .expiredOnForeground, .stale:
                        // Backdated: only to a pending exit that is still standing (never one
                        // that was cancelled).
                        guard let exit = pending[location] else {
                            broken.append("\(reason.rawValue) clock-out with no standing pending exit")
                            break
                        }
                        if at != max(exit, clockIn) { broken.append("\(reason.rawValue) not backdated to the exit") }
                    }
                    open[location] = nil
                    pending[location] = nil
                case .scheduleVerification(let location, _):
                    if pending[location] == nil { broken.append("verification scheduled with no pending exit") }
                case .cancelVerification:
                    break
                }
            }
            return broken
        }
    }

    @Test(
        "geofence-invariants-every-event: over random event sequences the engine's state after each event is what its decisions said: no pending exit survives a cancel, no session is closed by an exit that was cancelled",
        arguments: HysteresisPolicy.profiles.map(\.name))
    func invariants(profile: String) throws {
        let policy = try #require(HysteresisPolicy.named(profile))
        let locations = [Base.office, Base.home]
        var cancels = 0
        var backdated = 0
        for seed in UInt64(1)...300 {
            var random = SeededRandom(seed: seed)
            var engine = GeofenceEngine(policy: policy)
            var shadow = Shadow()
            var now = Self.t0
            for step in 0..<150 {
                // Mostly seconds to minutes apart (re-entries and checks inside the window), now
                // and then hours (windows and stale limits passing).
                let gap =
                    Int.random(in: 0..<6, using: &random) == 0
                    ? Int.random(in: 600...7200, using: &random) : Int.random(in: 5...200, using: &random)
                now.addTimeInterval(Double(gap))
                let location = locations.randomElement(using: &random)!
                let fix: GeoFix? =
                    Int.random(in: 0..<6, using: &random) == 0
                    ? nil
                    : Base.fix(
                        Double.random(in: 0...500, using: &random),
                        [5.0, 20, 45, 80, 150].randomElement(using: &random)!,
                        Bool.random(using: &random) ? .event : .activeFetch)
                let event: GeofenceEvent =
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0, 1: .enter(location, Self.fence, fix: fix)
                    case 2, 3: .exit(location, Self.fence, fix: fix)
                    case 4, 5: .verification(location, Self.fence, fix: fix)
                    case 6: .foreground
                    case 7: .timer
                    case 8: .manualClockIn(location)
                    default: .manualClockOut(location)
                    }
                let outcome = engine.handle(event, at: now)
                let broken = shadow.apply(outcome.decisions, at: now)
                let at = "seed \(seed), step \(step), \(profile): \(event) → \(Base.summary(outcome))"
                #expect(broken.isEmpty, "\(at): \(broken)")
                cancels += outcome.decisions.filter { if case .exitCancelled = $0 { true } else { false } }.count
                backdated +=
                    outcome.decisions.filter {
                        if case .clockOut(_, _, _, _, let reason, _) = $0 {
                            reason != .immediate && reason != .manual
                        } else {
                            false
                        }
                    }.count
                // The state is what the decisions said, after every event.
                #expect(Set(engine.open.keys) == Set(shadow.open.keys), "\(at)")
                for location in locations {
                    #expect(engine.open[location]?.clockIn == shadow.open[location], "\(at)")
                    #expect(engine.open[location]?.pendingExitAt == shadow.pending[location], "\(at)")
                    if engine.open[location]?.pendingExitAt == nil {
                        #expect(engine.open[location]?.exitAccuracy == nil, "\(at)")
                    }
                }
                if broken.isEmpty == false || Set(engine.open.keys) != Set(shadow.open.keys) { return }
            }
        }
        // The sequences reach what the property is about.
        #expect(cancels > 150, "cancels: \(cancels)")
        #expect(backdated > 200, "backdated clock-outs: \(backdated)")
    }
}
