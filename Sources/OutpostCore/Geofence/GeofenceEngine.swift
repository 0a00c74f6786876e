import Foundation

/// How a session was started or ended.
public enum TrackingMethod: String, Codable, Sendable, Hashable {
    case geofence = "geofence_auto"
    case manual
}

/// An event the platform (or the user) reports, fed to ``GeofenceEngine/handle(_:at:)``.
public enum GeofenceEvent: Sendable, Hashable {
    /// The OS says the device entered a fence; `fix` is the event's own location or an active
    /// fetch made for it, nil when neither exists.
    case enter(LocationID, Fence, fix: GeoFix?)
    case exit(LocationID, Fence, fix: GeoFix?)
    /// A scheduled exit verification (1, 3, 5 minutes after the exit) got this fix (or none).
    case verification(LocationID, Fence, fix: GeoFix?)
    /// The app came to the foreground.
    case foreground
    /// A timer tick (the app is running).
    case timer
    case manualClockIn(LocationID)
    case manualClockOut(LocationID)
}

/// Why an event changed nothing.
public enum GeofenceIgnoreReason: String, Codable, Sendable, Hashable {
    /// An exit whose fix is worse than the absolute gate (seed: 100 m).
    case poorAccuracy = "poor_accuracy"
    /// An exit whose fix is much worse than the check-in's (seed: 3×).
    case signalDegradation = "signal_degradation"
    /// Too soon after the last event of this location.
    case debounce
    /// An ENTER whose fix is confidently outside the fence (field).
    case outsideOnEnter = "outside_on_enter"
    /// An ENTER without any fix (field).
    case noFix = "no_fix"
    case noSession = "no_session"
    case alreadyClockedIn = "already_clocked_in"
    case alreadyPending = "already_pending"
    case noPendingExit = "no_pending_exit"
    /// A verification whose fix cannot tell (or none): the pending exit stays.
    case uncertain
}

/// Why a session ended.
public enum ClockOutReason: String, Codable, Sendable, Hashable {
    /// A good exit fix (below the immediate threshold).
    case immediate
    /// The last verification check was confidently outside.
    case verifiedOutside = "verified_outside"
    /// The pending window had passed when the next ENTER came (here or elsewhere).
    case expiredOnEnter = "expired_on_enter"
    /// The pending window had passed when the app came to the foreground.
    case expiredOnForeground = "expired_on_foreground"
    /// The pending exit was older than the stale limit.
    case stale
    case manual
}

/// What the engine decided; the caller carries it out (store, notifications, regions).
public enum GeofenceDecision: Sendable, Hashable {
    case clockIn(LocationID, at: Date, accuracy: Double?, method: TrackingMethod)
    case pendingExit(LocationID, at: Date, accuracy: Double?)
    case exitCancelled(LocationID, at: Date)
    /// The session of `location` ended at `at` (backdated to its pending exit where one was
    /// confirmed); `short` when it lasted less than the policy's short-session limit.
    case clockOut(LocationID, clockIn: Date, at: Date, method: TrackingMethod, reason: ClockOutReason, short: Bool)
    /// Schedule the exit verification checks (silent notifications with a GPS fetch).
    case scheduleVerification(LocationID, at: [Date])
    case cancelVerification(LocationID)
}

/// The telemetry row of one boundary or verification event: what came in, and whether (and
/// why) it was ignored. Every event is recorded; tuning needs the ignored ones most.
public struct GeofenceRecord: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case enter
        case exit
        case verification
        case manualClockIn = "manual_clock_in"
        case manualClockOut = "manual_clock_out"
    }

    public var kind: Kind
    public var location: LocationID
    public var at: Date
    public var fix: GeoFix?
    /// Where the accuracy came from; nil when there was no fix.
    public var accuracySource: AccuracySource? { fix?.source }
    public var confidence: FenceConfidence?
    public var ignored: GeofenceIgnoreReason?
}

/// What one event led to.
public struct GeofenceOutcome: Sendable, Hashable {
    public var record: GeofenceRecord?
    public var decisions: [GeofenceDecision]
}

/// The geofence clock-in/out engine (seed 003, Module 1): pure, events and times in, decisions
/// out; the caller persists it (it is `Codable`) and carries the decisions out. Its rules are a
/// ``HysteresisPolicy``:
///
/// - ENTER clocks in (field: only with a fix not confidently outside); on a pending exit it
///   cancels it (re-entry) within the pending window, or confirms it (backdated) and clocks in
///   anew after it.
/// - EXIT of an active session: ignored when the fix is worse than the absolute gate (seed) or
///   degraded against the check-in (seed); clocks out at once with a good fix; otherwise, and
///   when degraded (field), becomes a pending exit with verification checks.
/// - A verification fix confidently inside cancels the pending exit; confidently outside at the
///   last check confirms it; uncertain leaves it.
/// - Pending exits past the window are confirmed at the next ENTER and on foreground; past the
///   stale limit, by any event. Confirmed exits are backdated to when the exit happened.
/// - Events of one location closer than the debounce are ignored.
public struct GeofenceEngine: Codable, Sendable, Hashable {
    /// An open session of a location.
    public struct OpenSession: Codable, Sendable, Hashable {
        public var clockIn: Date
        public var checkInAccuracy: Double?
        public var method: TrackingMethod
        public var pendingExitAt: Date?
        public var exitAccuracy: Double?
    }

    public var policy: HysteresisPolicy
    public private(set) var open: [LocationID: OpenSession] = [:]
    /// The last event of each location that was acted on (the debounce, kept with the state).
    public private(set) var lastEventAt: [LocationID: Date] = [:]

    public init(policy: HysteresisPolicy = .seed) {
        self.policy = policy
    }

    /// Feeds one event at time `now`.
    public mutating func handle(_ event: GeofenceEvent, at now: Date) -> GeofenceOutcome {
        var decisions = confirmPending(at: now, olderThan: policy.stalePendingExit, reason: .stale, except: nil)
        switch event {
        case .enter(let location, let fence, let fix):
            let outcome = enter(location, fence, fix, now)
            // The next ENTER confirms every other pending exit whose window has passed (this
            // location's too when the ENTER itself was ignored).
            decisions += confirmPending(
                at: now, olderThan: policy.pendingExit, reason: .expiredOnEnter,
                except: outcome.record?.ignored == nil ? location : nil)
            return GeofenceOutcome(record: outcome.record, decisions: decisions + outcome.decisions)
        case .exit(let location, let fence, let fix):
            let outcome = exit(location, fence, fix, now)
            return GeofenceOutcome(record: outcome.record, decisions: decisions + outcome.decisions)
        case .verification(let location, let fence, let fix):
            let outcome = verify(location, fence, fix, now)
            return GeofenceOutcome(record: outcome.record, decisions: decisions + outcome.decisions)
        case .foreground:
            decisions += confirmPending(
                at: now, olderThan: policy.pendingExit, reason: .expiredOnForeground, except: nil)
            return GeofenceOutcome(record: nil, decisions: decisions)
        case .timer:
            return GeofenceOutcome(record: nil, decisions: decisions)
        case .manualClockIn(let location):
            var record = GeofenceRecord(kind: .manualClockIn, location: location, at: now)
            if var session = open[location] {
                if session.pendingExitAt != nil {
                    session.pendingExitAt = nil
                    session.exitAccuracy = nil
                    open[location] = session
                    decisions += [.exitCancelled(location, at: now), .cancelVerification(location)]
                } else {
                    record.ignored = .alreadyClockedIn
                }
            } else {
                open[location] = OpenSession(clockIn: now, checkInAccuracy: nil, method: .manual)
                decisions.append(.clockIn(location, at: now, accuracy: nil, method: .manual))
            }
            return GeofenceOutcome(record: record, decisions: decisions)
        case .manualClockOut(let location):
            var record = GeofenceRecord(kind: .manualClockOut, location: location, at: now)
            if let session = open[location] {
                if session.pendingExitAt != nil { decisions.append(.cancelVerification(location)) }
                decisions.append(close(location, at: now, reason: .manual, method: .manual))
            } else {
                record.ignored = .noSession
            }
            return GeofenceOutcome(record: record, decisions: decisions)
        }
    }

    private mutating func enter(
        _ location: LocationID, _ fence: Fence, _ fix: GeoFix?, _ now: Date
    )
        -> GeofenceOutcome
    {
        var record = GeofenceRecord(
            kind: .enter, location: location, at: now, fix: fix, confidence: fix.map(fence.confidence(of:)))
        if let ignored = debounced(location, now) ?? enterRefusal(record) {
            record.ignored = ignored
            return GeofenceOutcome(record: record, decisions: [])
        }
        lastEventAt[location] = now
        guard let session = open[location] else {
            open[location] = OpenSession(clockIn: now, checkInAccuracy: fix?.accuracy, method: .geofence)
            return GeofenceOutcome(
                record: record, decisions: [.clockIn(location, at: now, accuracy: fix?.accuracy, method: .geofence)])
        }
        guard let pendingAt = session.pendingExitAt else {
            record.ignored = .alreadyClockedIn
            return GeofenceOutcome(record: record, decisions: [])
        }
        if now.timeIntervalSince(pendingAt) <= policy.pendingExit {
            // Back within the window: the exit was a false alarm.
            open[location]?.pendingExitAt = nil
            open[location]?.exitAccuracy = nil
            return GeofenceOutcome(
                record: record, decisions: [.exitCancelled(location, at: now), .cancelVerification(location)])
        }
        // Back after the window: the old session ended when the exit happened; a new one starts.
        let closed = close(location, at: pendingAt, reason: .expiredOnEnter, method: .geofence)
        open[location] = OpenSession(clockIn: now, checkInAccuracy: fix?.accuracy, method: .geofence)
        return GeofenceOutcome(
            record: record,
            decisions: [
                .cancelVerification(location), closed,
                .clockIn(location, at: now, accuracy: fix?.accuracy, method: .geofence),
            ])
    }

    private func enterRefusal(_ record: GeofenceRecord) -> GeofenceIgnoreReason? {
        guard policy.validatesEnter else { return nil }
        guard record.fix != nil else { return .noFix }
        return record.confidence == .outside ? .outsideOnEnter : nil
    }

    private mutating func exit(
        _ location: LocationID, _ fence: Fence, _ fix: GeoFix?, _ now: Date
    )
        -> GeofenceOutcome
    {
        var record = GeofenceRecord(
            kind: .exit, location: location, at: now, fix: fix, confidence: fix.map(fence.confidence(of:)))
        if let ignored = debounced(location, now) {
            record.ignored = ignored
            return GeofenceOutcome(record: record, decisions: [])
        }
        guard let session = open[location] else {
            record.ignored = .noSession
            return GeofenceOutcome(record: record, decisions: [])
        }
        guard session.pendingExitAt == nil else {
            record.ignored = .alreadyPending
            return GeofenceOutcome(record: record, decisions: [])
        }
        var degraded = false
        if let fix {
            if let gate = policy.ignoreExitAccuracyAbove, fix.accuracy > gate {
                record.ignored = .poorAccuracy
                return GeofenceOutcome(record: record, decisions: [])
            }
            if let checkIn = session.checkInAccuracy, checkIn > 0, fix.accuracy > policy.degradationFactor * checkIn,
                fix.source == .event || policy.degradationAppliesToActiveFetch
            {
                if policy.degradedExitIsIgnored {
                    record.ignored = .signalDegradation
                    return GeofenceOutcome(record: record, decisions: [])
                }
                degraded = true
            }
        }
        lastEventAt[location] = now
        if let fix, fix.accuracy < policy.immediateExitAccuracy, !degraded {
            return GeofenceOutcome(
                record: record, decisions: [close(location, at: now, reason: .immediate, method: .geofence)])
        }
        open[location]?.pendingExitAt = now
        open[location]?.exitAccuracy = fix?.accuracy
        return GeofenceOutcome(
            record: record,
            decisions: [
                .pendingExit(location, at: now, accuracy: fix?.accuracy),
                .scheduleVerification(location, at: policy.verificationChecks.map { now.addingTimeInterval($0) }),
            ])
    }

    private mutating func verify(
        _ location: LocationID, _ fence: Fence, _ fix: GeoFix?, _ now: Date
    )
        -> GeofenceOutcome
    {
        let confidence = fix.map(fence.confidence(of:)) ?? .uncertain
        var record = GeofenceRecord(kind: .verification, location: location, at: now, fix: fix, confidence: confidence)
        guard let pendingAt = open[location]?.pendingExitAt else {
            record.ignored = .noPendingExit
            return GeofenceOutcome(record: record, decisions: [])
        }
        let last = policy.verificationChecks.max() ?? policy.pendingExit
        switch confidence {
        case .inside:
            open[location]?.pendingExitAt = nil
            open[location]?.exitAccuracy = nil
            return GeofenceOutcome(
                record: record, decisions: [.exitCancelled(location, at: now), .cancelVerification(location)])
        case .outside where now.timeIntervalSince(pendingAt) >= last:
            return GeofenceOutcome(
                record: record, decisions: [close(location, at: pendingAt, reason: .verifiedOutside, method: .geofence)]
            )
        case .outside, .uncertain:
            record.ignored = .uncertain
            return GeofenceOutcome(record: record, decisions: [])
        }
    }

    /// The debounce: an event too soon after the last acted-on event of its location.
    private func debounced(_ location: LocationID, _ now: Date) -> GeofenceIgnoreReason? {
        guard let last = lastEventAt[location], now.timeIntervalSince(last) < policy.debounce,
            now.timeIntervalSince(last) >= 0
        else { return nil }
        return .debounce
    }

    /// Confirms every pending exit older than `age` at `now` (backdated to the exit).
    private mutating func confirmPending(
        at now: Date, olderThan age: TimeInterval, reason: ClockOutReason, except: LocationID?
    ) -> [GeofenceDecision] {
        let due = open.filter { location, session in
            guard location != except, let pendingAt = session.pendingExitAt else { return false }
            return now.timeIntervalSince(pendingAt) > age
        }.keys.sorted()
        return due.flatMap { location -> [GeofenceDecision] in
            let pendingAt = open[location]!.pendingExitAt!
            return [.cancelVerification(location), close(location, at: pendingAt, reason: reason, method: .geofence)]
        }
    }

    /// Ends the open session of `location` at `at` (never before it began).
    private mutating func close(
        _ location: LocationID, at: Date, reason: ClockOutReason, method: TrackingMethod
    ) -> GeofenceDecision {
        let session = open.removeValue(forKey: location)!
        let end = max(at, session.clockIn)
        return .clockOut(
            location, clockIn: session.clockIn, at: end, method: method, reason: reason,
            short: end.timeIntervalSince(session.clockIn) < policy.shortSession)
    }
}
