import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// Time tracking's calendar: the week, the month and the 14-day dashboard built from the
/// store, navigation between them, the shift plan's changes, the geofence profile and the
/// permission warning.
extension TrackingModule {
    /// The week containing `state.weekOf` (or today): its days' hours from ``WorkHours``, the
    /// plan's shifts and absences, and which days can be submitted.
    func weekScreen(owner: UserID) throws -> WeekScreen {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let anchor = state.weekOf.flatMap { WorkDay.start(of: $0, in: zone) } ?? now
        let interval = calendar.dateInterval(of: .weekOfYear, for: anchor) ?? DateInterval(start: anchor, duration: 0)
        let first = ActivityDate.day(of: interval.start, in: zone)
        let last = ActivityDate.day(of: interval.end.addingTimeInterval(-1), in: zone)
        let plan = try store.plan(owner: owner)
        let (days, sessions) = try hours(owner: owner, from: first, to: last, plan: plan)
        let openDays = Set(sessions.filter { $0.clockOut == nil }.map { ActivityDate.day(of: $0.clockIn, in: zone) })
        let week = calendar.component(.weekOfYear, from: interval.start)
        return WeekScreen(
            title: copy.weekTitle(week, first, last), templates: plan.templates,
            absenceTemplates: plan.absenceTemplates,
            days: days.enumerated().map { index, hours in
                WeekScreen.Day(
                    hours: hours, weekday: copy.weekday(index), shifts: plan.shifts(on: hours.day),
                    absences: plan.absences(on: hours.day),
                    canSubmit: !hours.confirmed && hours.day < today && hours.grossSeconds > 0
                        && !openDays.contains(hours.day) && confirmed[hours.day]?.locked != true,
                    isToday: hours.day == today, isPast: hours.day < today)
            }, showTracked: state.showTracked, notice: state.notice, error: state.error, copy: copy,
            picker: state.picker.elements(view: .week, plan: plan, manualFormDay: state.manualFormDay, copy: copy))
    }

    /// The month `state.month` (or this one) as 42 cells from the Monday before its 1st, with
    /// the summary of its own days.
    func monthScreen(owner: UserID) throws -> MonthScreen {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        let month = state.month ?? String(today.prefix(7))
        guard let firstOfMonth = WorkDay.start(of: month + "-01", in: zone) else { throw TrackingError.badDay }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let gridStart = calendar.dateInterval(of: .weekOfYear, for: firstOfMonth)?.start ?? firstOfMonth
        let first = ActivityDate.day(of: gridStart, in: zone)
        var last = first
        for _ in 0..<41 { last = WorkHours.next(last, in: zone) ?? last }
        let plan = try store.plan(owner: owner)
        let days = try hours(owner: owner, from: first, to: last, plan: plan).days
        let cells = days.map { hours in
            MonthScreen.Cell(
                hours: hours, inMonth: hours.day.hasPrefix(month), isToday: hours.day == today,
                isPast: hours.day < today,
                shiftColors: plan.shifts(on: hours.day).map(\.color), absences: plan.absences(on: hours.day).map(\.kind)
            )
        }
        return MonthScreen(
            title: copy.monthTitle(month), cells: cells,
            summary: WorkHours.month(cells.filter(\.inMonth).map(\.hours)), notice: state.notice,
            error: state.error, copy: copy,
            picker: state.picker.elements(view: .month, plan: plan, manualFormDay: state.manualFormDay, copy: copy))
    }

    /// The hours of the days `first` to `last` from ``WorkHours``: the sessions that touch
    /// them (one may begin up to two days before and run into them), `plan`'s shifts and
    /// absences, and the confirmed days. One place for the week, the month and the dashboard.
    func hours(
        owner: UserID, from first: String, to last: String, plan: ShiftPlan
    ) throws
        -> (days: [DayHours], sessions: [TrackedSession])
    {
        let zone = context.ports.timeZone
        let start = WorkDay.start(of: first, in: zone) ?? now
        let end = WorkDay.interval(of: last, in: zone)?.upperBound ?? now
        let sessions = try store.sessions(owner: owner, in: start.addingTimeInterval(-2 * 86_400)..<end)
        let days = WorkHours.days(
            from: first, to: last, sessions: sessions.map { $0.span(now: now) }, planned: plan.shifts.map(\.planned),
            absences: plan.absences.map(\.mark),
            confirmed: Set(confirmed.values.filter(\.countsAsConfirmed).map(\.day)),
            in: zone)
        return (days, sessions)
    }

    /// The last 14 days, today included, and the next shift.
    func statusDashboard(owner: UserID) throws -> StatusDashboard {
        let zone = context.ports.timeZone
        let today = ActivityDate.day(of: now, in: zone)
        var first = today
        for _ in 0..<13 {
            guard let start = WorkDay.start(of: first, in: zone) else { break }
            first = ActivityDate.day(of: start.addingTimeInterval(-43_200), in: zone)
        }
        let plan = try store.plan(owner: owner)
        let days = try hours(owner: owner, from: first, to: today, plan: plan).days
        return StatusDashboard.make(
            days: days, today: today, accountSince: try store.accountSince(owner: owner, today: today),
            shifts: plan.shifts, now: now, zone: zone, copy: copy)
    }

    /// Shows `month` (`YYYY-MM`; nil: the one shown, or this one), `offset` months on.
    package func showMonth(_ month: String?, offset: Int) {
        clearTransient()
        leaveOverlays()
        state.screen = .month
        let base =
            month ?? state.month
            ?? String(ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone).prefix(7))
        let parts = base.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2 else { return }
        let index = parts[0] * 12 + (parts[1] - 1) + offset
        state.month = String(format: "%04d-%02d", index / 12, index % 12 + 1)
    }

    /// Shows the week `offset` weeks from the one shown (0: this week when `day` is nil).
    package func showWeek(of day: String?, offset: Int) {
        clearTransient()
        leaveOverlays()
        state.screen = .week
        let zone = context.ports.timeZone
        let base = day ?? state.weekOf ?? ActivityDate.day(of: context.ports.clock.now(), in: zone)
        guard offset != 0, let start = WorkDay.start(of: base, in: zone) else {
            state.weekOf = day ?? state.weekOf
            return
        }
        state.weekOf = ActivityDate.day(of: start.addingTimeInterval(Double(offset) * 7 * 86_400 + 43_200), in: zone)
    }

    package func toggleTracked() {
        clearTransient()
        state.showTracked.toggle()
    }

    /// Changes the plan; a refusal is said in the worker's words and stores nothing.
    @discardableResult
    package func changePlan<T>(_ change: (inout ShiftPlan, _ today: String, _ locked: Set<String>) throws -> T) -> T? {
        clearTransient()
        guard let owner else {
            fail(.signedOut)
            return nil
        }
        let today = ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone)
        do {
            let result = try store.changePlan(owner: owner) { plan, locked in try change(&plan, today, locked) }
            state.notice = .planSaved
            return result
        } catch let error as PlanError {
            refuse(.planRefused(error))
        } catch {
            fail(.failed("could not save the plan: \(error)"))
        }
        return nil
    }

    package var plan: ShiftPlan {
        owner.flatMap { owner in context.surfacing("read the shift plan") { try store.plan(owner: owner) } }
            ?? ShiftPlan()
    }

    package func setProfile(_ policy: HysteresisPolicy) {
        clearTransient()
        state.profile = policy.name
        state.notice = .profile(policy.name)
    }

    /// The worker dismissed the permission warning: it comes back in a week.
    package func dismissPermissionWarning() {
        clearTransient()
        state.permissionWarningDismissedAt = context.ports.clock.now()
    }
}
