import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Time tracking's screens: rebuilt from the store after every action (``reload()``), then
/// shown as the module's home screen (status, locations, history, week, month).
extension TrackingModule {
    package func reload() {
        now = context.ports.clock.now()
        guard let owner else {
            locations = []
            open = []
            history = []
            confirmed = [:]
            week = nil
            monthScreen = nil
            dashboard = nil
            return
        }
        locations = context.surfacing("read the work locations") { try store.locations(owner: owner) } ?? []
        confirmed = context.surfacing("read the confirmed days") { try store.confirmedDays(owner: owner) } ?? [:]
        open = context.surfacing("read the running sessions") { try store.openSessions(owner: owner) } ?? []
        week = state.screen == .week ? context.surfacing("read the week") { try weekScreen(owner: owner) } : nil
        dashboard =
            state.screen == .status
            ? context.surfacing("read today's hours") { try statusDashboard(owner: owner) } : nil
        monthScreen =
            state.screen == .month ? context.surfacing("read the month") { try self.monthScreen(owner: owner) } : nil
        let range = state.historyRange.interval(containing: now, in: context.ports.timeZone)
        history =
            state.screen == .history
            ? (context.surfacing("read the sessions") { try store.sessions(owner: owner, in: range) } ?? [])
                .filter { state.historyLocation == nil || $0.location == state.historyLocation }
            : []
    }

    package var homeScreen: (any ScreenModel)? {
        guard let screen = screenContent else { return nil }
        guard state.demo else { return screen }
        return BannerScreen(banners: [UIElement(UIIdentifier.trackDemoBanner, copy.demoBanner)], screen: screen)
    }

    var screenContent: (any ScreenModel)? {
        if let day = state.explainSubmitFor {
            let screen = SubmitExplanationScreen(day: day, copy: copy)
            return screen
        }
        switch state.screen {
        case .status:
            let cards = locations.map { location in
                let session = open.first { $0.location == location.id }
                return TrackingStatusScreen.Card(
                    location: location, session: session,
                    elapsedMinutes: session.map { max(0, Int(now.timeIntervalSince($0.clockIn) / 60)) } ?? 0)
            }
            let screen = TrackingStatusScreen(
                cards: cards, notice: state.notice, error: state.error, profile: policy.name,
                permissionWarning: permissionWarning, dashboard: dashboard, copy: copy)
            return screen
        case .locations:
            let screen = TrackingLocationsScreen(
                locations: locations, notice: state.notice, error: state.error, copy: copy)
            return screen
        case .week:
            return week
        case .month:
            return monthScreen
        case .history:
            let zone = context.ports.timeZone.identifier
            let names = Dictionary(locations.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let grouped = Dictionary(grouping: history) { TimeFormatting.day($0.clockIn, zone) }
            let days = grouped.keys.sorted(by: >).map { day in
                let sessions = grouped[day]!.sorted { $0.clockIn < $1.clockIn }
                return TrackingHistoryScreen.Day(
                    date: day, sessions: sessions.map { ($0, names[$0.location] ?? copy.removedLocation) },
                    minutes: sessions.compactMap(\.minutes).reduce(0, +), confirmation: confirmed[day],
                    canSubmit: confirmed[day]?.locked != true
                        && (WorkDay.interval(of: day, in: context.ports.timeZone)?.upperBound ?? now) <= now
                        && sessions.allSatisfy { $0.clockOut != nil })
            }
            let screen = TrackingHistoryScreen(
                days: days, timeZone: zone, notice: state.notice, error: state.error, copy: copy)
            return screen
        }
    }

    package var copy: TrackingCopy { TrackingCopy(context.ports.language) }

    /// The permission, when it keeps automatic tracking from working and the warning was not
    /// dismissed in the last week (the seed's banner).
    package var permissionWarning: LocationPermission? {
        let permission = context.ports.locationPermission()
        guard permission != .always else { return nil }
        if let dismissed = state.permissionWarningDismissedAt, now.timeIntervalSince(dismissed) < 7 * 86_400 {
            return nil
        }
        return permission
    }

    package var tabs: [UIElement] { [] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? { nil }
    package var eventShellParts: [any ScreenPart] { [] }
    package var statusElements: [UIElement] { [] }
}
