import Foundation
import OutpostCore
import OutpostShell

/// The calendar's inline picker and the first Submit, carried out: ``CalendarPicker`` decides,
/// this does what it decided (shows the week, places through the plan's rules, opens the manual
/// form, says why not).
extension TrackingModule {
    /// The days nothing may be placed on.
    package var lockedDays: Set<String> {
        guard let owner else { return [] }
        let days = context.surfacing("read the confirmed days") { try store.confirmedDays(owner: owner) } ?? [:]
        return Set(days.values.filter(\.locked).map(\.day))
    }

    package var pickerView: CalendarPicker.View? {
        switch state.screen {
        case .week: .week
        case .month: .month
        default: nil
        }
    }

    package func gesture(_ gesture: CalendarPicker.Gesture, on day: String) {
        clearTransient()
        guard let view = pickerView else { return }
        carryOut(state.picker.gesture(gesture, in: view, on: day, locked: lockedDays))
    }

    package func openPicker(for day: String?, tab: CalendarPicker.Tab) {
        clearTransient()
        if pickerView == nil { showWeek(of: day, offset: 0) }
        if let day, lockedDays.contains(day) { return carryOut(.blocked(.confirmedDay)) }
        state.manualFormDay = nil
        state.picker.open(for: day, tab: tab)
    }

    package func pickerTab(_ tab: CalendarPicker.Tab) {
        clearTransient()
        state.picker.tab = tab
        state.picker.editing = nil
    }

    package func closePicker() {
        clearTransient()
        state.picker.close()
        state.manualFormDay = nil
    }

    package func choose(_ template: CalendarPicker.Armed) {
        clearTransient()
        carryOut(state.picker.choose(template, locked: lockedDays))
    }

    package func editInPicker(_ template: CalendarPicker.Armed) {
        clearTransient()
        state.picker.edit(template)
    }

    package func logHoursFromPicker() {
        clearTransient()
        carryOut(state.picker.logHours())
    }

    package func disarm() {
        clearTransient()
        state.picker.disarm()
    }

    private func carryOut(_ effect: CalendarPicker.Effect) {
        switch effect {
        case .none, .opened:
            break
        case .showWeek(let day, _):
            // The delay (a second tap may follow) is the gesture layer's; the state is the week.
            showWeek(of: day, offset: 0)
        case .place(.shift(let id), let day):
            changePlan { plan, _, locked in _ = try plan.place(id, on: day, start: nil, locked: locked) }
        case .place(.absence(let id), let day):
            changePlan { plan, _, locked in
                _ = try plan.addAbsence(
                    on: day, template: id, kind: .sick, start: nil, end: nil, locked: locked,
                    defaultName: copy.absence(.sick))
            }
        case .logHours(let day):
            state.manualFormDay = day ?? ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone)
        case .blocked(let reason):
            refuse(.pickerBlocked(reason))
        }
    }

    // MARK: - The first Submit

    /// Submit on a day: the first time for this worker, the explanation comes first and nothing
    /// is confirmed yet; after that the day is confirmed at once.
    package func requestConfirm(_ day: String) -> Bool {
        guard let owner else {
            refuse(.refused(.signedOut))
            return false
        }
        // Unread, the explanation is shown again: the safe side of a first Submit.
        if context.surfacing("read whether Submit was explained", { try store.submitExplained(owner: owner) }) != true {
            clearTransient()
            state.picker.close()
            state.explainSubmitFor = day
            return false
        }
        return confirmDay(day)
    }

    /// The explanation read and Submit pressed: never shown to this worker again; the day is
    /// confirmed.
    package func continueSubmit() -> Bool {
        guard let owner, let day = state.explainSubmitFor else { return false }
        state.explainSubmitFor = nil
        let today = ActivityDate.day(of: context.ports.clock.now(), in: context.ports.timeZone)
        do {
            try store.markSubmitExplained(owner: owner, today: today)
        } catch {
            refuse(.refused(.failed("could not save that: \(error)")))
            return false
        }
        return confirmDay(day)
    }

    /// "Not now": nothing is confirmed, and the explanation comes again at the next Submit.
    package func cancelSubmit() {
        clearTransient()
        state.explainSubmitFor = nil
    }
}
