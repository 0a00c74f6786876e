import Foundation
import OutpostCore
import OutpostShell

/// The time-tracking module's actions (seed 003), as front-ends and tests call them.
extension DeviceApp {
    package var trackingModule: TrackingModule? { module(TrackingModule.self) }

    public enum TrackingScreen: String, Sendable {
        case status, locations, history
    }

    public func showTracking(_ screen: TrackingScreen = .status) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.show(TrackingState.Screen(rawValue: screen.rawValue) ?? .status) }
    }

    /// The history filtered to `range` and, when given, one location.
    public func showTrackingHistory(range: TrackingRange, location: LocationID? = nil) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.filterHistory(range: range, location: location) }
    }

    /// The user's sessions as CSV (Date, Day, Clock In, Clock Out, Duration, Method, Status).
    /// Throws when the hours cannot be read (never an empty file in their place).
    public func trackingCSV(
        location: LocationID? = nil, range: TrackingRange = .all, timeZone: TimeZone? = nil
    ) throws -> String {
        try trackingModule?.csv(location: location, range: range, timeZone: timeZone ?? ports.timeZone) ?? ""
    }

    public func addWorkLocation(name: String, latitude: Double, longitude: Double, radius: Double = 100) {
        showModule(named: TrackingModule.name)
        performAsStaff {
            trackingModule?.addLocation(
                name: name, center: GeoPoint(latitude: latitude, longitude: longitude), radius: radius)
        }
    }

    public func editWorkLocation(
        _ id: LocationID, name: String? = nil, latitude: Double? = nil, longitude: Double? = nil, radius: Double? = nil
    ) {
        showModule(named: TrackingModule.name)
        let center: GeoPoint? =
            if let latitude, let longitude { GeoPoint(latitude: latitude, longitude: longitude) } else { nil }
        performAsStaff { trackingModule?.editLocation(id, name: name, center: center, radius: radius) }
    }

    public func removeWorkLocation(_ id: LocationID) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.removeLocation(id) }
    }

    /// The work locations on this device, in order.
    public var workLocations: [WorkLocation] {
        guard let module = trackingModule, let owner = module.owner else { return [] }
        return surfacing("read the work locations") { try module.store.locations(owner: owner) } ?? []
    }

    /// Every tracked session of the user, oldest first.
    public var trackedSessions: [TrackedSession] {
        guard let module = trackingModule, let owner = module.owner else { return [] }
        return surfacing("read the sessions") { try module.store.sessions(owner: owner) } ?? []
    }

    /// A boundary event from the platform's region monitor (the simulator's `sim geofence`).
    public func geofence(_ kind: GeofenceRecord.Kind, location: LocationID, fix: GeoFix?) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.boundary(kind, location, fix: fix) }
    }

    public func clockIn(at location: LocationID) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.clock(in: true, at: location) }
    }

    public func clockOut(at location: LocationID) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.clock(in: false, at: location) }
    }

    public func addManualSession(at location: LocationID, from start: Date, to end: Date) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.addManualSession(at: location, from: start, to: end) }
    }

    /// Corrects a session's start or end (nil keeps it); an open session given an end is
    /// clocked out first. Refused on a confirmed day.
    public func correctSession(_ id: UUID, start: Date?, end: Date?) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.correctSession(id, start: start, end: end) }
    }

    /// Deletes a finished session (kept as a correction in the export and the submission).
    public func deleteSession(_ id: UUID) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.deleteSession(id) }
    }

    /// Gives a finished session a break in minutes (seed 003's tracking break).
    public func setSessionBreak(_ id: UUID, minutes: Int) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.setBreak(id, minutes: minutes) }
    }

    /// Submit on a day (`YYYY-MM-DD`, over, nothing open): it is confirmed (locked, its
    /// submission queued and sent at once when online). The worker's first Submit shows what
    /// submitting means first (``continueSubmit()`` or ``cancelSubmit()``).
    public func confirmTrackedDay(_ day: String) async {
        showModule(named: TrackingModule.name)
        var queued = false
        performAsStaff { queued = trackingModule?.requestConfirm(day) ?? false }
        await replayAfter(queued)
    }

    /// Submit on the first-time explanation: the day is confirmed, and the explanation is not
    /// shown to this worker again.
    public func continueSubmit() async {
        showModule(named: TrackingModule.name)
        var queued = false
        performAsStaff { queued = trackingModule?.continueSubmit() ?? false }
        await replayAfter(queued)
    }

    /// "Not now" on the first-time explanation: nothing is confirmed.
    public func cancelSubmit() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.cancelSubmit() }
    }

    /// The user's confirmed days, by day.
    public var confirmedDays: [String: ConfirmedDay] {
        guard let module = trackingModule, let owner = module.owner else { return [:] }
        return surfacing("read the confirmed days") { try module.store.confirmedDays(owner: owner) } ?? [:]
    }

    /// Dismisses the location-permission warning for a week (the seed's banner).
    public func dismissPermissionWarning() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.dismissPermissionWarning() }
    }

    /// Chooses the geofence rules: `seed` (default) or `field`.
    public func setGeofenceProfile(_ policy: HysteresisPolicy) {
        showModule(named: TrackingModule.name)
        performAsStaff { trackingModule?.setProfile(policy) }
    }

    /// Time passes with the app in the background (the simulator's `sim time advance`): the
    /// exit verification checks that fall due run then, each with an active GPS fetch.
    public func backgroundTimePassed() {
        perform { trackingModule?.backgroundTimePassed(now: ports.clock.now()) }
    }
}
