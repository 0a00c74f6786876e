import Foundation
import OutpostCore
import OutpostShell

/// A `tracking_sessions` row of the previous app's store (seed 003's own schema: times as ISO
/// text, no constraint keeping `state` and `clock_out` in step), read as it is.
package struct LegacySessionRow: Codable, Sendable, Hashable {
    package var id: String
    package var locationId: String?
    package var clockIn: String?
    package var clockOut: String?
    package var durationMinutes: Int?
    package var method: String?
    package var state: String?
    package var pendingExitAt: String?
    package var exitAccuracy: Double?
    package var checkinAccuracy: Double?
    package var updatedAt: String?
}

/// What was wrong with a legacy row and how it was mended.
package enum LegacyRepair: String, Codable, Sendable, Hashable {
    /// `completed` without a clock-out: ended after its recorded duration, or at its pending exit.
    case completedWithoutClockOut = "completed_without_clock_out"
    /// `completed` without a clock-out, duration or exit time: kept open as a pending exit from
    /// its last update (the stale rule ends it), never invented.
    case completedWithoutAnyEnd = "completed_without_any_end"
    /// A clock-out on a session marked active or pending: it is completed.
    case clockOutOnOpenSession = "clock_out_on_open_session"
    /// `pending_exit` without the exit's time: pending from its last update.
    case pendingWithoutTime = "pending_without_time"
    /// A second open session of one location: the older one ends when the newer began.
    case secondOpenSession = "second_open_session"
    /// A clock-out before the clock-in: a zero-minute session, flagged short for review.
    case endBeforeStart = "end_before_start"
    /// A method the store does not know: automatic.
    case unknownMethod = "unknown_method"
    /// A state the store does not know: judged by whether it has a clock-out.
    case unknownState = "unknown_state"
}

/// A legacy row made consistent: what the store receives.
package struct RepairedSession: Sendable, Hashable {
    package var legacyId: String
    package var location: String
    package var clockIn: Date
    package var clockOut: Date?
    package var state: TrackedSession.State
    package var method: TrackingMethod
    package var pendingExitAt: Date?
    package var checkInAccuracy: Double?
    package var exitAccuracy: Double?
    package var short: Bool
    package var repairs: [LegacyRepair]
}

/// Makes the previous app's sessions satisfy the store's invariant (no clock-out ⇔ active or
/// pending exit; a clock-out ⇔ completed; at most one open session per location), repairing
/// what can be repaired and saying what was done. Rows without any readable start cannot be
/// placed on a day: they are returned as they are, to be kept aside, never dropped. Pure.
package enum LegacySessionRepair {
    package static func repair(
        _ rows: [LegacySessionRow]
    ) -> (sessions: [RepairedSession], unreadable: [LegacySessionRow]) {
        var sessions: [RepairedSession] = []
        var unreadable: [LegacySessionRow] = []
        for row in rows {
            guard let clockIn = parse(row.clockIn), let location = row.locationId, !location.isEmpty else {
                unreadable.append(row)
                continue
            }
            var repairs: [LegacyRepair] = []
            let method: TrackingMethod
            switch row.method {
            case "manual": method = .manual
            case "geofence_auto": method = .geofence
            default:
                method = .geofence
                repairs.append(.unknownMethod)
            }
            var clockOut = parse(row.clockOut)
            var pendingExitAt = parse(row.pendingExitAt)
            let lastUpdate = parse(row.updatedAt) ?? clockIn
            var state: TrackedSession.State
            switch row.state {
            case "completed":
                state = .completed
                if clockOut == nil {
                    if let minutes = row.durationMinutes, minutes >= 0 {
                        clockOut = clockIn.addingTimeInterval(Double(minutes) * 60)
                        repairs.append(.completedWithoutClockOut)
                    } else if let pendingExitAt {
                        clockOut = pendingExitAt
                        repairs.append(.completedWithoutClockOut)
                    } else {
                        state = .pendingExit
                        pendingExitAt = max(lastUpdate, clockIn)
                        repairs.append(.completedWithoutAnyEnd)
                    }
                }
            case "active", "pending_exit":
                state = row.state == "active" ? .active : .pendingExit
                if clockOut != nil {
                    state = .completed
                    repairs.append(.clockOutOnOpenSession)
                }
            default:
                state = clockOut == nil ? .active : .completed
                repairs.append(.unknownState)
            }
            if state == .pendingExit, pendingExitAt == nil {
                pendingExitAt = max(lastUpdate, clockIn)
                repairs.append(.pendingWithoutTime)
            }
            if state != .pendingExit { pendingExitAt = nil }
            if let end = clockOut, end < clockIn {
                clockOut = clockIn
                repairs.append(.endBeforeStart)
            }
            sessions.append(
                RepairedSession(
                    legacyId: row.id, location: location, clockIn: clockIn,
                    clockOut: state == .completed ? clockOut : nil,
                    state: state, method: method, pendingExitAt: pendingExitAt, checkInAccuracy: row.checkinAccuracy,
                    exitAccuracy: row.exitAccuracy,
                    short: clockOut.map { $0.timeIntervalSince(clockIn) < 300 } ?? false, repairs: repairs))
        }
        // At most one open session per location: each older one ends when the next began.
        sessions.sort { ($0.location, $0.clockIn, $0.legacyId) < ($1.location, $1.clockIn, $1.legacyId) }
        for index in sessions.indices where sessions[index].clockOut == nil {
            guard
                let next = sessions[(index + 1)...].first(where: {
                    $0.location == sessions[index].location && $0.clockOut == nil
                })
            else { continue }
            let end = min(sessions[index].pendingExitAt ?? next.clockIn, next.clockIn)
            sessions[index].clockOut = max(end, sessions[index].clockIn)
            sessions[index].state = .completed
            sessions[index].pendingExitAt = nil
            sessions[index].short = sessions[index].clockOut!.timeIntervalSince(sessions[index].clockIn) < 300
            sessions[index].repairs.append(.secondOpenSession)
        }
        return (sessions.sorted { $0.clockIn < $1.clockIn }, unreadable)
    }

    /// The previous app's ISO timestamps: with or without fractional seconds, `Z` or an offset.
    package static func parse(_ text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
