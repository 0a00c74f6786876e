import Foundation
import OutpostCore
import OutpostShell

/// The calendar's actions (seed 003's week view and its templates), as front-ends and tests
/// call them. Every change goes through ``ShiftPlan``'s rules; a refusal is shown as the
/// tracking error and changes nothing.
extension DeviceApp {
    /// The week containing `day` (nil: the week shown, or this week).
    public func showWeek(of day: String? = nil) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.showWeek(of: day, offset: 0) }
    }

    /// The seed's `calendar-prev` / `calendar-next`.
    public func showAdjacentWeek(_ offset: Int) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.showWeek(of: nil, offset: offset) }
    }

    /// The month (`YYYY-MM`; nil: the one shown, or this one), `offset` months on.
    public func showMonth(_ month: String? = nil, offset: Int = 0) {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.showMonth(month, offset: offset) }
    }

    /// Fills `month` (`YYYY-MM`; nil: this one) with a realistic month of shifts, sessions and
    /// absences (seeded) in the signed-in worker's demo sandbox (``SandboxOwner``: never queued,
    /// never exported), and shows it; the screens show the demo until ``removeTrackingDemo()``.
    /// Signed out it seeds nothing and says why.
    public func seedTrackingDemo(month: String? = nil, seed: UInt64 = 1) {
        showModule(named: TrackingModule.name)
        performAsStaff {
            guard let module = trackingModule else { return }
            let store = module.store
            guard let worker = module.worker else { return module.refuse(.refused(.demoNeedsSignIn)) }
            let now = ports.clock.now()
            let chosen = month ?? String(ActivityDate.day(of: now, in: ports.timeZone).prefix(7))
            do {
                let made = try TrackingDemo.seed(
                    store: store, owner: SandboxOwner.of(worker), month: chosen, seed: seed, now: now,
                    zone: ports.timeZone)
                module.state.demo = true
                module.showMonth(chosen, offset: 0)
                module.state.notice = .demoSeeded(sessions: made.sessions, shifts: made.shifts)
            } catch let error as PlanError {
                module.refuse(.planRefused(error))
            } catch {
                module.refuse(.refused(.failed("could not fill the month: \(error)")))
            }
        }
    }

    /// Removes the demo month (every record of the worker's sandbox) and shows their own hours.
    public func removeTrackingDemo() {
        showModule(named: TrackingModule.name)
        performAsStaff {
            guard let module = trackingModule else { return }
            let store = module.store
            guard let worker = module.worker else { return module.refuse(.refused(.signedOut)) }
            let sandbox = SandboxOwner.of(worker)
            let held =
                (surfacing("read the demo's locations") { try store.locations(owner: sandbox) } ?? []).count
                + (surfacing("read the demo's sessions") { try store.sessions(owner: sandbox) } ?? []).count
            guard module.state.demo || held > 0 else { return module.refuse(.refused(.noDemo)) }
            do {
                try store.eraseTracking(owner: sandbox)
                module.state.demo = false
                module.state.notice = .demoRemoved
            } catch {
                module.refuse(.refused(.failed("could not remove the demo month: \(error)")))
            }
        }
    }

    /// The GPS visibility toggle: tracked time on the calendar or not.
    public func toggleTrackedTime() {
        showModule(named: TrackingModule.name)
        perform { trackingModule?.toggleTracked() }
    }

    public var shiftPlan: ShiftPlan { trackingModule?.plan ?? ShiftPlan() }

    @discardableResult
    public func addShiftTemplate(
        name: String, color: ShiftColor, startMinute: Int, durationMinutes: Int, breakMinutes: Int = 0
    ) -> ShiftTemplateID? {
        let template = ShiftTemplate(
            name: name.trimmingCharacters(in: .whitespaces), color: color, startMinute: startMinute,
            durationMinutes: durationMinutes, breakMinutes: breakMinutes)
        return planChange(showing: nil) { plan, _, _ in
            try plan.addTemplate(template)
            return template.id
        }
    }

    public func updateShiftTemplate(_ template: ShiftTemplate) {
        planChange(showing: nil) { plan, today, locked in
            try plan.updateTemplate(template, today: today, locked: locked)
        }
    }

    public func deleteShiftTemplate(_ id: ShiftTemplateID) {
        planChange(showing: nil) { plan, today, locked in try plan.deleteTemplate(id, today: today, locked: locked) }
    }

    @discardableResult
    public func placeShift(_ template: ShiftTemplateID, on day: String, startMinute: Int? = nil) -> ShiftID? {
        planChange(showing: day) { plan, _, locked in
            try plan.place(template, on: day, start: startMinute, locked: locked).id
        }
    }

    public func moveShift(_ id: ShiftID, startMinute: Int) {
        let day = shiftPlan.shifts.first { $0.id == id }?.day
        planChange(showing: day) { plan, _, locked in try plan.moveShift(id, start: startMinute, locked: locked) }
    }

    public func removeShift(_ id: ShiftID) {
        let day = shiftPlan.shifts.first { $0.id == id }?.day
        planChange(showing: day) { plan, _, locked in try plan.removeShift(id, locked: locked) }
    }

    @discardableResult
    public func addAbsenceTemplate(
        name: String, kind: AbsenceMark.Kind, color: ShiftColor, startMinute: Int? = nil, endMinute: Int? = nil
    ) -> AbsenceTemplateID? {
        let template = AbsenceTemplate(
            name: name.trimmingCharacters(in: .whitespaces), kind: kind, color: color, startMinute: startMinute,
            endMinute: endMinute)
        return planChange(showing: nil) { plan, _, _ in
            try plan.addAbsenceTemplate(template)
            return template.id
        }
    }

    @discardableResult
    public func addAbsence(
        on day: String, template: AbsenceTemplateID? = nil, kind: AbsenceMark.Kind = .sick, startMinute: Int? = nil,
        endMinute: Int? = nil
    ) -> AbsenceID? {
        let name = TrackingCopy(ports.language).absence(kind)
        return planChange(showing: day) { plan, _, locked in
            try plan.addAbsence(
                on: day, template: template, kind: kind, start: startMinute, end: endMinute, locked: locked,
                defaultName: name
            ).id
        }
    }

    public func editAbsence(_ id: AbsenceID, kind: AbsenceMark.Kind? = nil, startMinute: Int?, endMinute: Int?) {
        let day = shiftPlan.absences.first { $0.id == id }?.day
        planChange(showing: day) { plan, _, locked in
            try plan.editAbsence(id, kind: kind, start: startMinute, end: endMinute, locked: locked)
        }
    }

    public func removeAbsence(_ id: AbsenceID) {
        let day = shiftPlan.absences.first { $0.id == id }?.day
        planChange(showing: day) { plan, _, locked in try plan.removeAbsence(id, locked: locked) }
    }

    /// Runs a plan change as a staff action, then shows the week of `day` (or the one shown).
    @discardableResult
    private func planChange<T>(
        showing day: String?, _ change: @escaping (inout ShiftPlan, String, Set<String>) throws -> T
    ) -> T? {
        showModule(named: TrackingModule.name)
        var result: T?
        performAsStaff {
            trackingModule?.showWeek(of: day, offset: 0)
            result = trackingModule?.changePlan(change)
        }
        return result
    }
}
