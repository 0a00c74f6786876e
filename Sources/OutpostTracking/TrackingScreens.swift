import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The time-tracking module's screens: status (location cards, the clocked-in card, clock
/// in/out, the permission warning), locations, and history. Pure functions of their values, in
/// the phone's language.
package enum TrackingTabs {
    package static func elements(_ copy: TrackingCopy) -> [UIElement] {
        [
            UIElement(UIIdentifier.tabStatus, copy.tabStatus),
            UIElement(UIIdentifier.tabTrackLocations, copy.tabLocations),
            UIElement(UIIdentifier.tabTrackHistory, copy.tabHistory),
            UIElement(UIIdentifier.tabCalendar, copy.tabCalendar),
        ]
    }

    /// The tabs, then the notice and the error of the last action.
    package static func header(_ copy: TrackingCopy, notice: TrackingMessage?, error: TrackingMessage?) -> [UIElement] {
        var elements = elements(copy)
        if let notice { elements.append(UIElement(UIIdentifier.trackNotice, copy.message(notice))) }
        if let error { elements.append(UIElement(UIIdentifier.trackError, copy.message(error))) }
        return elements
    }
}

package struct TrackingStatusScreen: ScreenModel, Codable, Hashable {
    package struct Card: Codable, Hashable {
        package var location: WorkLocation
        package var session: TrackedSession?
        package var elapsedMinutes: Int
    }

    package var cards: [Card]
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    package var profile: String
    /// The location permission, when it keeps automatic tracking from working (and the
    /// warning was not dismissed within the last week).
    package var permissionWarning: LocationPermission?
    /// The 14-day overview and the next shift.
    package var dashboard: StatusDashboard?
    package var copy: TrackingCopy

    package var identifier: String { UIIdentifier.trackStatusScreen }

    package func elements() -> [UIElement] {
        var elements = TrackingTabs.header(copy, notice: notice, error: error)
        if let permission = permissionWarning, let words = copy.permissionWarning(permission) {
            elements.append(
                UIElement(
                    UIIdentifier.trackPermissionWarning, words,
                    ["permission": permission.rawValue, "dismiss": copy.dismiss]))
        }
        if cards.isEmpty { elements.append(UIElement(UIIdentifier.trackLocationAdd, copy.addFirstLocation)) }
        for card in cards {
            let name = card.location.name
            var attributes = ["locationId": card.location.id.wire, "state": card.session?.state.rawValue ?? "none"]
            let text: String
            if let session = card.session {
                attributes["elapsedMinutes"] = String(card.elapsedMinutes)
                attributes["clockIn"] = OutpostJSON.format(session.clockIn)
                text = copy.clockedIn(name, minutes: card.elapsedMinutes)
            } else {
                text = copy.notClockedIn(name)
            }
            elements.append(UIElement(UIIdentifier.trackLocationCard, text, attributes))
            if card.session?.state == .pendingExit {
                elements.append(
                    UIElement(
                        UIIdentifier.trackPendingExit, copy.pendingExit(name), ["locationId": card.location.id.wire]))
            }
            elements.append(
                card.session == nil
                    ? UIElement(UIIdentifier.trackClockIn, copy.clockIn(name), ["locationId": card.location.id.wire])
                    : UIElement(UIIdentifier.trackClockOut, copy.clockOut(name), ["locationId": card.location.id.wire]))
        }
        if let dashboard { elements += dashboard.elements(copy) }
        elements.append(UIElement(UIIdentifier.trackProfile, copy.profile(profile), ["profile": profile]))
        return elements
    }
}

package struct TrackingLocationsScreen: ScreenModel {
    package var locations: [WorkLocation]
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    package var copy: TrackingCopy

    package var identifier: String { UIIdentifier.trackLocationsScreen }

    package func elements() -> [UIElement] {
        var elements = TrackingTabs.header(copy, notice: notice, error: error)
        for location in locations {
            elements.append(
                UIElement(
                    UIIdentifier.trackLocationRow, copy.locationRow(location.name, radius: Int(location.fence.radius)),
                    [
                        "locationId": location.id.wire, "latitude": String(location.fence.center.latitude),
                        "longitude": String(location.fence.center.longitude), "radius": String(location.fence.radius),
                    ]))
        }
        let full = locations.count >= WorkLocation.monitoredLimit
        elements.append(
            UIElement(
                UIIdentifier.trackLocationAdd, full ? copy.locationsFull : copy.addLocation(count: locations.count),
                ["enabled": String(!full)]))
        return elements
    }
}

package struct TrackingHistoryScreen: ScreenModel {
    package struct Day: Hashable {
        package var date: String
        package var sessions: [(session: TrackedSession, location: String)]
        package var minutes: Int
        package var confirmation: ConfirmedDay?
        /// Over, not locked, nothing still open: the "Submit" button.
        package var canSubmit: Bool

        package static func == (lhs: Day, rhs: Day) -> Bool {
            lhs.date == rhs.date && lhs.minutes == rhs.minutes && lhs.confirmation == rhs.confirmation
                && lhs.canSubmit == rhs.canSubmit && lhs.sessions.map(\.session) == rhs.sessions.map(\.session)
        }
        package func hash(into hasher: inout Hasher) { hasher.combine(date) }
    }

    package var days: [Day]
    package var timeZone: String
    package var notice: TrackingMessage?
    package var error: TrackingMessage?
    package var copy: TrackingCopy

    package var identifier: String { UIIdentifier.trackHistoryScreen }

    package func elements() -> [UIElement] {
        var elements = TrackingTabs.header(copy, notice: notice, error: error)
        let total = days.reduce(0) { $0 + $1.minutes }
        elements.append(
            UIElement(UIIdentifier.trackHistoryTotal, copy.total(minutes: total), ["minutes": String(total)]))
        if days.contains(where: \.canSubmit) {
            elements.append(UIElement(UIIdentifier.trackReviewHint, copy.reviewHint))
        }
        for day in days {
            let status = day.confirmation?.standing.rawValue ?? "unconfirmed"
            elements.append(
                UIElement(
                    UIIdentifier.trackHistoryDay,
                    "\(day.date) · \(copy.duration(minutes: day.minutes))\(copy.dayStatus(day.confirmation))",
                    ["date": day.date, "minutes": String(day.minutes), "status": status]))
            if let message = day.confirmation?.message {
                elements.append(
                    UIElement(
                        UIIdentifier.trackDayAnswer,
                        copy.serverRefusal(code: day.confirmation?.code, message: message), ["date": day.date]))
            }
            if day.canSubmit {
                elements.append(
                    UIElement(
                        UIIdentifier.trackDaySubmit, copy.submit(day.date), ["date": day.date, "note": copy.submitNote])
                )
            }
            for (session, location) in day.sessions {
                let end = session.clockOut.map { TimeFormatting.time($0, timeZone) } ?? "…"
                var text =
                    "\(TimeFormatting.time(session.clockIn, timeZone))–\(end) \(location)"
                    + (session.minutes.map { " · \(copy.duration(minutes: $0))" } ?? "")
                if session.breakMinutes > 0 { text += " · " + copy.breakMinutes(session.breakMinutes) }
                if session.method == .manual { text += copy.manual }
                var attributes = [
                    "sessionId": session.id.uuidString.lowercased(), "locationId": session.location.wire,
                    "state": session.state.rawValue, "method": session.method.rawValue,
                    "short": String(session.short), "minutes": session.minutes.map(String.init) ?? "",
                    "breakMinutes": String(session.breakMinutes), "corrected": String(session.corrected),
                    "from": OutpostJSON.format(session.clockIn),
                ]
                if let clockOut = session.clockOut { attributes["to"] = OutpostJSON.format(clockOut) }
                if let trackedIn = session.trackedClockIn, let trackedOut = session.trackedClockOut {
                    text += copy.corrected(
                        tracked:
                            "\(TimeFormatting.time(trackedIn, timeZone))–\(TimeFormatting.time(trackedOut, timeZone))")
                    attributes["trackedFrom"] = OutpostJSON.format(trackedIn)
                    attributes["trackedTo"] = OutpostJSON.format(trackedOut)
                }
                if session.short { text += copy.short }
                elements.append(UIElement(UIIdentifier.trackHistorySession, text, attributes))
            }
        }
        return elements
    }
}
