import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Time tracking's actions on the worker's records: screens and filters, the CSV, work
/// locations, boundary events and clocking in and out, manual sessions and their corrections,
/// breaks, and confirming a day.
extension TrackingModule {
    package func show(_ screen: TrackingState.Screen) {
        clearTransient()
        leaveOverlays()
        state.screen = screen
    }

    /// Another screen: the picker, the manual form and a pending explanation close (what the
    /// picker has armed stays armed).
    package func leaveOverlays() {
        state.picker.close()
        state.manualFormDay = nil
        state.explainSubmitFor = nil
    }

    package func filterHistory(range: TrackingRange, location: LocationID?) {
        clearTransient()
        state.screen = .history
        state.historyRange = range
        state.historyLocation = location
    }

    /// The sessions of a location (all when nil) in `range` as CSV (RFC 4180, formula-safe):
    /// Date, Day, Clock In, Clock Out, Duration, Method, Status, in `timeZone`.
    /// Throws when the hours cannot be read: an export never stands in for them with an empty file.
    package func csv(location: LocationID?, range: TrackingRange, timeZone: TimeZone) throws -> String {
        // The worker's own hours, also while the demo month is shown.
        guard let owner = worker else { return CSVWriter.document(header: TrackingExport.header, rows: []) }
        let now = context.ports.clock.now()
        let sessions = try store.sessions(owner: owner, in: range.interval(containing: now, in: timeZone))
            .filter { location == nil || $0.location == location }
        let names = Dictionary(
            try store.locations(owner: owner).map { ($0.id, $0.name) },
            uniquingKeysWith: { first, _ in first })
        return TrackingExport.csv(sessions, timeZone: timeZone, names: names, copy: copy)
    }

    package func addLocation(name: String, center: GeoPoint, radius: Double) {
        clearTransient()
        state.screen = .locations
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return fail(.nameMissing) }
        guard WorkLocation.radiusRange.contains(radius) else {
            return fail(.radiusOutOfRange)
        }
        guard (-90...90).contains(center.latitude), (-180...180).contains(center.longitude) else {
            return fail(.notOnEarth)
        }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.saveLocation(
                WorkLocation(id: .random(), name: trimmed, fence: Fence(center: center, radius: radius)), owner: owner)
            state.notice = .locationAdded(trimmed)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not save the location: \(error)"))
        }
    }

    package func editLocation(_ id: LocationID, name: String?, center: GeoPoint?, radius: Double?) {
        clearTransient()
        state.screen = .locations
        guard var location = locations(id: id, of: owner) else { return fail(.noSuchLocation) }
        // Not while clocked in there: the running session's fence would change under it.
        guard
            let running = owner.flatMap({ owner in
                context.surfacing("read the running sessions") { try store.openSessions(owner: owner) }
            })
        else { return fail(.failed("could not read the running sessions; nothing was changed")) }
        guard !running.contains(where: { $0.location == id }) else { return fail(.openSession(location.name)) }
        if let name {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return fail(.nameMissing) }
            location.name = trimmed
        }
        if let center { location.fence.center = center }
        if let radius {
            guard WorkLocation.radiusRange.contains(radius) else {
                return fail(.radiusOutOfRange)
            }
            location.fence.radius = radius
        }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.saveLocation(location, owner: owner)
            state.notice = .locationSaved(location.name)
        } catch {
            fail(.failed("could not save the location: \(error)"))
        }
    }

    package func removeLocation(_ id: LocationID) {
        clearTransient()
        state.screen = .locations
        guard let location = locations(id: id, of: owner) else { return fail(.noSuchLocation) }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.removeLocation(id, name: location.name, owner: owner)
            state.notice = .locationRemoved(location.name)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not remove the location: \(error)"))
        }
    }

    /// A platform boundary event from the simulator (or a phone's region monitor).
    package func boundary(_ kind: GeofenceRecord.Kind, _ id: LocationID, fix: GeoFix?) {
        clearTransient()
        // The region monitor watches the worker's own locations: their real hours.
        guard let location = locations(id: id, of: worker) else { return fail(.noSuchLocation) }
        let time = context.ports.clock.now()
        switch kind {
        case .enter: feed(.enter(id, location.fence, fix: fix), at: time, for: worker)
        case .exit: feed(.exit(id, location.fence, fix: fix), at: time, for: worker)
        default: break
        }
    }

    package func clock(in clockIn: Bool, at id: LocationID) {
        clearTransient()
        state.screen = .status
        guard locations(id: id, of: owner) != nil else { return fail(.noSuchLocation) }
        let outcome = feed(
            clockIn ? .manualClockIn(id) : .manualClockOut(id), at: context.ports.clock.now(), for: owner)
        if let ignored = outcome?.record?.ignored {
            refuse(ignored == .alreadyClockedIn ? .alreadyClockedIn : .notClockedIn)
        }
    }

    package func addManualSession(at id: LocationID, from start: Date, to end: Date) {
        clearTransient()
        state.screen = .history
        guard locations(id: id, of: owner) != nil else { return fail(.noSuchLocation) }
        do {
            guard let owner else { return fail(.signedOut) }
            try store.addManualSession(
                location: id, from: start, to: end, now: context.ports.clock.now(), owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone)(start, end))
            state.notice = .sessionAdded
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not add the session: \(error)"))
        }
    }

    /// The days (`YYYY-MM-DD`, in `zone`) a span from `start` to `end` touches: the ones that
    /// must not be confirmed for it to be added or changed. Pure, so the store may call it
    /// inside its write.
    package nonisolated static func touchedDays(in zone: TimeZone) -> @Sendable (Date, Date) -> [String] {
        { start, end in WorkHours.split(TrackedSpan(start: start, end: end), in: zone).map(\.day) }
    }

    /// Corrects a session's start or end (nil keeps it; seed 003's drag handles). An open
    /// session given an end is clocked out first (the forgotten clock-out: the phone died at
    /// work), so the geofence engine knows the worker left; then its end is corrected.
    package func correctSession(_ id: UUID, start: Date?, end: Date?) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            guard let session = try store.session(id, owner: owner) else { return fail(.noSuchSession) }
            let now = context.ports.clock.now()
            if session.clockOut == nil {
                let name = locations(id: session.location, of: owner)?.name ?? copy.removedLocation
                guard let end else { return fail(.openSession(name)) }
                guard end > (start ?? session.clockIn) else { return fail(.endBeforeStart) }
                guard end <= now else { return fail(.endInFuture) }
                _ = feed(.manualClockOut(session.location), at: now, for: owner)
            }
            let changed = try store.correctSession(
                id, start: start, end: end, now: now, by: owner, owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone))
            state.notice = changed ? .sessionCorrected : .nothingChanged
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not correct the session: \(error)"))
        }
    }

    /// Deletes a finished session on a day not confirmed (kept as a correction: the export and
    /// the day's submission still show it).
    package func deleteSession(_ id: UUID) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            guard let session = try store.session(id, owner: owner) else { return fail(.noSuchSession) }
            guard session.clockOut != nil else {
                return fail(.openSession(locations(id: session.location, of: owner)?.name ?? copy.removedLocation))
            }
            try store.deleteSession(
                id, now: context.ports.clock.now(), by: owner, owner: owner,
                days: Self.touchedDays(in: context.ports.timeZone))
            state.notice = .sessionDeleted
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not delete the session: \(error)"))
        }
    }

    /// Gives a finished session a break (shared out over its days in proportion).
    package func setBreak(_ id: UUID, minutes: Int) {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else { return fail(.signedOut) }
            let zone = context.ports.timeZone
            try store.setBreak(
                id, minutes: minutes,
                days: { session in
                    WorkHours.split(session.span(now: session.clockIn), in: zone).map(\.day)
                }, owner: owner)
            state.notice = .breakSaved(minutes)
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not save the break: \(error)"))
        }
    }

    /// Confirms a day: it is locked and its submission waits in the outbox (sent at once when
    /// online). A confirmed day cannot be changed.
    @discardableResult
    package func confirmDay(_ day: String) -> Bool {
        clearTransient()
        state.screen = .history
        do {
            guard let owner else {
                fail(.signedOut)
                return false
            }
            let names = Dictionary(
                try store.locations(owner: owner).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            try store.confirmDay(
                day, timeZone: context.ports.timeZone, names: names, owner: owner, now: context.ports.clock.now())
            state.notice = .dayConfirmed(day)
            return true
        } catch let error as TrackingError {
            fail(error)
        } catch {
            fail(.failed("could not confirm \(day): \(error)"))
        }
        return false
    }
}
