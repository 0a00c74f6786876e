import Foundation
import OutpostCore
import OutpostProtocol

/// The time-tracking module's screens: status (location cards, the clocked-in card, clock
/// in/out), locations, and history. Pure functions of their values.
enum TrackingTabs {
    static let elements = [
        UIElement(UIIdentifier.tabStatus, "Status"), UIElement(UIIdentifier.tabTrackLocations, "Locations"),
        UIElement(UIIdentifier.tabTrackHistory, "History"),
    ]
}

struct TrackingStatusScreen: ScreenModel {
    struct Card: Hashable {
        var location: WorkLocation
        var session: TrackedSession?
        var elapsedMinutes: Int
    }

    var cards: [Card]
    var notice: String?
    var error: String?
    var profile: String

    var identifier: String { UIIdentifier.trackStatusScreen }

    func elements() -> [UIElement] {
        var elements = TrackingTabs.elements
        if let notice { elements.append(UIElement(UIIdentifier.trackNotice, notice)) }
        if let error { elements.append(UIElement(UIIdentifier.trackError, error)) }
        if cards.isEmpty {
            elements.append(UIElement(UIIdentifier.trackLocationAdd, "Add your first work location"))
        }
        for card in cards {
            let name = card.location.name
            var attributes = ["locationId": card.location.id.wire, "state": card.session?.state.rawValue ?? "none"]
            let text: String
            if let session = card.session {
                attributes["elapsedMinutes"] = String(card.elapsedMinutes)
                attributes["clockIn"] = OutpostJSON.format(session.clockIn)
                text = "\(name) · clocked in \(TrackingWords.duration(minutes: card.elapsedMinutes))"
            } else {
                text = "\(name) · not clocked in"
            }
            elements.append(UIElement(UIIdentifier.trackLocationCard, text, attributes))
            if card.session?.state == .pendingExit {
                elements.append(
                    UIElement(
                        UIIdentifier.trackPendingExit,
                        "Left \(name)? You'll be clocked out unless you come back within 5 minutes.",
                        ["locationId": card.location.id.wire]))
            }
            if card.session == nil {
                elements.append(
                    UIElement(UIIdentifier.trackClockIn, "Clock in at \(name)", ["locationId": card.location.id.wire]))
            } else {
                elements.append(
                    UIElement(UIIdentifier.trackClockOut, "Clock out at \(name)", ["locationId": card.location.id.wire])
                )
            }
        }
        elements.append(UIElement(UIIdentifier.trackProfile, "Geofence rules: \(profile)", ["profile": profile]))
        return elements
    }
}

struct TrackingLocationsScreen: ScreenModel {
    var locations: [WorkLocation]
    var notice: String?
    var error: String?

    var identifier: String { UIIdentifier.trackLocationsScreen }

    func elements() -> [UIElement] {
        var elements = TrackingTabs.elements
        if let notice { elements.append(UIElement(UIIdentifier.trackNotice, notice)) }
        if let error { elements.append(UIElement(UIIdentifier.trackError, error)) }
        for location in locations {
            elements.append(
                UIElement(
                    UIIdentifier.trackLocationRow, "\(location.name) · radius \(Int(location.fence.radius)) m",
                    [
                        "locationId": location.id.wire, "latitude": String(location.fence.center.latitude),
                        "longitude": String(location.fence.center.longitude), "radius": String(location.fence.radius),
                    ]))
        }
        let full = locations.count >= WorkLocation.monitoredLimit
        elements.append(
            UIElement(
                UIIdentifier.trackLocationAdd,
                full
                    ? "\(WorkLocation.monitoredLimit) of \(WorkLocation.monitoredLimit) locations: remove one to add another"
                    : "Add a work location (\(locations.count) of \(WorkLocation.monitoredLimit))",
                ["enabled": String(!full)]))
        return elements
    }
}

struct TrackingHistoryScreen: ScreenModel {
    struct Day: Hashable {
        var date: String
        var sessions: [(session: TrackedSession, location: String)]
        var minutes: Int
        var confirmation: ConfirmedDay?
        /// Over, not locked, nothing still open: the "Submit" button.
        var canSubmit: Bool

        static func == (lhs: Day, rhs: Day) -> Bool {
            lhs.date == rhs.date && lhs.minutes == rhs.minutes && lhs.confirmation == rhs.confirmation
                && lhs.canSubmit == rhs.canSubmit && lhs.sessions.map(\.session) == rhs.sessions.map(\.session)
        }
        func hash(into hasher: inout Hasher) { hasher.combine(date) }
    }

    var days: [Day]
    var timeZone: String
    var notice: String?
    var error: String?

    var identifier: String { UIIdentifier.trackHistoryScreen }

    func elements() -> [UIElement] {
        var elements = TrackingTabs.elements
        if let notice { elements.append(UIElement(UIIdentifier.trackNotice, notice)) }
        if let error { elements.append(UIElement(UIIdentifier.trackError, error)) }
        let total = days.reduce(0) { $0 + $1.minutes }
        elements.append(
            UIElement(
                UIIdentifier.trackHistoryTotal, "Total \(TrackingWords.duration(minutes: total))",
                ["minutes": String(total)]))
        if days.contains(where: \.canSubmit) {
            elements.append(UIElement(UIIdentifier.trackReviewHint, "Submit each day to finalize your hours"))
        }
        for day in days {
            let status = day.confirmation.map { $0.locked ? $0.status.rawValue : "retry" } ?? "unconfirmed"
            elements.append(
                UIElement(
                    UIIdentifier.trackHistoryDay,
                    "\(day.date) · \(TrackingWords.duration(minutes: day.minutes))\(Self.words(for: day.confirmation))",
                    ["date": day.date, "minutes": String(day.minutes), "status": status]))
            if let message = day.confirmation?.message {
                elements.append(UIElement(UIIdentifier.trackDayAnswer, message, ["date": day.date]))
            }
            if day.canSubmit {
                elements.append(
                    UIElement(
                        UIIdentifier.trackDaySubmit, "Submit \(day.date)",
                        ["date": day.date, "note": "A submitted day cannot be changed."]))
            }
            for (session, location) in day.sessions {
                let end = session.clockOut.map { TimeFormatting.time($0, timeZone) } ?? "…"
                var text =
                    "\(TimeFormatting.time(session.clockIn, timeZone))–\(end) \(location)"
                    + (session.minutes.map { " · \(TrackingWords.duration(minutes: $0))" } ?? "")
                if session.method == .manual { text += " · manual" }
                if session.short { text += " · short, please review" }
                elements.append(
                    UIElement(
                        UIIdentifier.trackHistorySession, text,
                        [
                            "sessionId": session.id.uuidString.lowercased(), "locationId": session.location.wire,
                            "state": session.state.rawValue, "method": session.method.rawValue,
                            "short": String(session.short), "minutes": session.minutes.map(String.init) ?? "",
                        ]))
            }
        }
        return elements
    }
}

extension TrackingHistoryScreen {
    static func words(for confirmation: ConfirmedDay?) -> String {
        guard let confirmation else { return "" }
        switch confirmation.status {
        case .queued: return " · ✓ confirmed, waiting to send"
        case .submitted: return " · ✓ submitted"
        case .refused: return confirmation.locked ? " · not submitted" : " · not submitted, submit again"
        }
    }
}

/// How durations read.
enum TrackingWords {
    static func duration(minutes: Int) -> String {
        minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min"
    }
}
