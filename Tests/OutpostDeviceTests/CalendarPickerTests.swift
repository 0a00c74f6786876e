import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// Seed 003's inline picker as state: the interaction table, direct placement
/// and arming, the 28 identifiers, blocked on confirmed days; and the first Submit's
/// explanation. The phone's clock stands at Thursday 2026-11-19 08:00 (week 47).
@Suite("Time tracking: the inline picker and the first Submit")
struct CalendarPickerTests {
    static let early = ShiftTemplateID.random()

    @Test(
        "calendar-picker-interaction-table: each of the seed's twelve cells (week and month; tap, double tap, long press; armed or not), and a confirmed day opens and takes nothing"
    )
    func table() {
        let day = "2026-11-20"
        let armed = CalendarPicker.Armed.shift(Self.early)
        func effect(
            _ view: CalendarPicker.View, _ gesture: CalendarPicker.Gesture, armed: Bool
        ) -> (
            CalendarPicker.Effect, CalendarPicker
        ) {
            var picker = CalendarPicker()
            if armed { picker.armed = .shift(Self.early) }
            let effect = picker.gesture(gesture, in: view, on: day, locked: [])
            return (effect, picker)
        }
        // Week: tap opens (blocked when armed), double tap opens (places when armed), long press opens.
        #expect(effect(.week, .tap, armed: false).0 == .opened(day: day))
        #expect(effect(.week, .tap, armed: false).1.open && effect(.week, .tap, armed: false).1.targetDay == day)
        #expect(effect(.week, .tap, armed: true).0 == .blocked(.armedSingleTap))
        #expect(!effect(.week, .tap, armed: true).1.open)
        #expect(effect(.week, .doubleTap, armed: false).0 == .opened(day: day))
        #expect(effect(.week, .doubleTap, armed: true).0 == .place(armed, day: day))
        #expect(effect(.week, .longPress, armed: false).0 == .opened(day: day))
        #expect(effect(.week, .longPress, armed: true).0 == .opened(day: day))
        // Month: tap shows the week (delayed when armed), double tap shows it (places when armed), long press opens.
        #expect(effect(.month, .tap, armed: false).0 == .showWeek(day: day, delayed: false))
        #expect(effect(.month, .tap, armed: true).0 == .showWeek(day: day, delayed: true))
        #expect(effect(.month, .doubleTap, armed: false).0 == .showWeek(day: day, delayed: false))
        #expect(effect(.month, .doubleTap, armed: true).0 == .place(armed, day: day))
        #expect(effect(.month, .longPress, armed: false).0 == .opened(day: day))
        #expect(effect(.month, .longPress, armed: true).0 == .opened(day: day))
        // A confirmed day.
        for gesture in CalendarPicker.Gesture.allCases {
            for view in [CalendarPicker.View.week, .month] {
                var picker = CalendarPicker()
                picker.armed = armed
                let effect = picker.gesture(gesture, in: view, on: day, locked: [day])
                if case .place = effect { Issue.record("\(view) \(gesture) placed on a confirmed day") }
                #expect(!picker.open, "\(view) \(gesture) opened the picker on a confirmed day")
            }
        }
        // Direct placement places and closes; arming arms and closes; Log hours carries the day.
        var direct = CalendarPicker()
        direct.open(for: day, tab: .shifts)
        #expect(direct.choose(armed, locked: []) == .place(armed, day: day) && !direct.open && direct.armed == nil)
        var arming = CalendarPicker()
        arming.open(for: nil, tab: .shifts)
        #expect(arming.choose(armed, locked: []) == .none && arming.armed == armed && !arming.open)
        var gps = CalendarPicker()
        gps.open(for: day, tab: .gps)
        #expect(gps.logHours() == .logHours(day: day))
    }

    @Test(
        "calendar-picker-direct-placement: a tap on a day of the week opens the picker for it (focus ring, tabs, rows with pencil and selector); choosing places the shift there at once"
    )
    func direct() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "picker-direct")
            let early = try #require(
                phone.app.addShiftTemplate(name: "Early", color: .teal, startMinute: 360, durationMinutes: 480))
            phone.app.showWeek()
            #expect(phone.app.tree().contains(UIIdentifier.calendarFAB), "the floating button on the week")
            phone.app.calendarGesture(.tap, on: "2026-11-20")
            var tree = phone.app.tree()
            let picker = try #require(tree.element(UIIdentifier.inlinePicker))
            #expect(picker.attributes["mode"] == "direct" && picker.attributes["targetDate"] == "2026-11-20")
            #expect(tree.element(UIIdentifier.calendarFocusDay)?.attributes["date"] == "2026-11-20")
            #expect(!tree.contains(UIIdentifier.calendarFAB), "the floating button hides under the picker")
            #expect(tree.element(UIIdentifier.inlinePickerTabShifts)?.attributes["selected"] == "true")
            let ids = tree.elements.map(\.id)
            let pencil = try #require(ids.firstIndex(of: UIIdentifier.inlinePickerShiftEdit))
            let row = try #require(ids.firstIndex(of: UIIdentifier.inlinePickerShiftRow))
            let select = try #require(ids.firstIndex(of: UIIdentifier.inlinePickerShiftSelect))
            #expect(pencil < row && row < select, "the pencil left of the row, the selector right")
            phone.app.chooseInCalendarPicker(early.wire)
            tree = phone.app.tree()
            #expect(!tree.contains(UIIdentifier.inlinePicker))
            #expect(phone.app.shiftPlan.shifts.map(\.day) == ["2026-11-20"])
            #expect(
                tree.elements(UIIdentifier.calendarShift).first?.attributes["date"] == "2026-11-20", "shown at once")
        }
    }

    @Test(
        "calendar-picker-arming: from the floating button a chosen template is armed (banner); double taps place it on the week and the month, a single tap on the week is refused, a tap on the month shows the week; cancel disarms"
    )
    func arming() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "picker-arming")
            let late = try #require(
                phone.app.addShiftTemplate(name: "Late", color: .amber, startMinute: 840, durationMinutes: 480))
            phone.app.showWeek()
            phone.app.openCalendarPicker()
            #expect(phone.app.tree().element(UIIdentifier.inlinePicker)?.attributes["mode"] == "arming")
            phone.app.chooseInCalendarPicker(late.wire)
            var tree = phone.app.tree()
            #expect(tree.element(UIIdentifier.calendarArmedBanner)?.text == "Late: double-tap days to place it")
            #expect(phone.app.shiftPlan.shifts.isEmpty, "arming places nothing")
            phone.app.calendarGesture(.tap, on: "2026-11-23")
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text == "Double-tap a day to place it, or cancel.")
            phone.app.calendarGesture(.doubleTap, on: "2026-11-23")
            phone.app.calendarGesture(.doubleTap, on: "2026-11-24")
            phone.app.showMonth("2026-11")
            phone.app.calendarGesture(.doubleTap, on: "2026-11-25")
            #expect(phone.app.tree().screen == UIIdentifier.calendarMonthScreen, "placing on the month stays there")
            #expect(Set(phone.app.shiftPlan.shifts.map(\.day)) == ["2026-11-23", "2026-11-24", "2026-11-25"])
            #expect(phone.app.tree().contains(UIIdentifier.calendarArmedBanner), "the banner on the month too")
            #expect(!phone.app.tree().contains(UIIdentifier.calendarFAB), "no floating button on the month")
            phone.app.calendarGesture(.tap, on: "2026-11-26")
            tree = phone.app.tree()
            #expect(tree.screen == UIIdentifier.calendarWeekScreen)
            #expect(tree.element(UIIdentifier.calendarTitle)?.text == "Week 48 · 2026-11-23 – 2026-11-29")
            phone.app.disarmCalendar()
            #expect(!phone.app.tree().contains(UIIdentifier.calendarArmedBanner))
            phone.app.calendarGesture(.doubleTap, on: "2026-11-27")
            #expect(phone.app.tree().element(UIIdentifier.inlinePicker)?.attributes["targetDate"] == "2026-11-27")
            #expect(phone.app.shiftPlan.shifts.count == 3, "disarmed: a double tap opens the picker")
        }
    }

    @Test(
        "calendar-picker-blocked-confirmed: on a confirmed day the picker does not open and an armed template is not placed, in words"
    )
    func blocked() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "picker-blocked")
            let home = try phone.addLocation()
            let early = try #require(
                phone.app.addShiftTemplate(name: "Early", color: .teal, startMinute: 360, durationMinutes: 480))
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T14:00:00Z"))
            lab.api.clock.set(phone.clock.now)
            await phone.confirm("2026-11-17")
            phone.app.showWeek()
            phone.app.calendarGesture(.longPress, on: "2026-11-17")
            #expect(!phone.app.tree().contains(UIIdentifier.inlinePicker))
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text
                    == "That day is confirmed: nothing can be placed on it.")
            phone.app.openCalendarPicker()
            phone.app.chooseInCalendarPicker(early.wire)
            phone.app.calendarGesture(.doubleTap, on: "2026-11-17")
            #expect(phone.app.shiftPlan.shifts.isEmpty)
            #expect(phone.app.tree().element(UIIdentifier.trackError) != nil)
        }
    }

    @Test(
        "calendar-picker-identifiers: the seed's 28 picker identifiers are distinct, and each appears in some state of the picker (tabs, rows, the edit form, Log hours, the banner, the floating button)"
    )
    func identifiers() async throws {
        #expect(UIIdentifier.pickerIdentifiers.count == 28)
        #expect(Set(UIIdentifier.pickerIdentifiers).count == 28)
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "picker-ids")
            let early = try #require(
                phone.app.addShiftTemplate(name: "Early", color: .teal, startMinute: 360, durationMinutes: 480))
            let vacation = try #require(phone.app.addAbsenceTemplate(name: "Holiday", kind: .vacation, color: .cyan))
            var seen = Set<String>()
            @MainActor func look() { seen.formUnion(phone.app.tree().elements.map(\.id)) }
            phone.app.showWeek()
            look()
            phone.app.openCalendarPicker(for: "2026-11-23")
            look()
            phone.app.editInCalendarPicker(early.wire)
            look()
            #expect(phone.app.tree().element(UIIdentifier.inlinePickerEditStart)?.attributes["value"] == "06:00")
            phone.app.calendarPickerTab(.absences)
            phone.app.editInCalendarPicker(vacation.wire)
            look()
            phone.app.calendarPickerTab(.gps)
            look()
            phone.app.logHoursFromCalendarPicker()
            #expect(phone.app.tree().element(UIIdentifier.trackManualForm)?.attributes["date"] == "2026-11-23")
            phone.app.openCalendarPicker()
            phone.app.chooseInCalendarPicker(vacation.wire)
            look()
            phone.app.calendarGesture(.doubleTap, on: "2026-11-23")
            #expect(phone.app.shiftPlan.absences.map(\.kind) == [.vacation], "an armed absence template places too")
            let missing = UIIdentifier.pickerIdentifiers.filter { !seen.contains($0) }
            #expect(missing.isEmpty, "never shown: \(missing)")
        }
    }

    @Test(
        "track-submit-explanation: the first Submit explains what submitting means and confirms nothing; Not now leaves the day; Submit confirms it; the next Submit is direct; a colleague on the same phone is told too"
    )
    func explanation() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "explain")
            let colleague = try await lab.api.createUser(
                lab.world.organizer, email: "colleague@acme.test", role: .worker, name: "Carla")
            let home = try phone.addLocation()
            func at(_ text: String) -> Date { OutpostJSON.parse(text)! }
            phone.app.addManualSession(at: home.id, from: at("2026-11-16T06:00:00Z"), to: at("2026-11-16T14:00:00Z"))
            phone.app.addManualSession(at: home.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T14:00:00Z"))
            lab.api.clock.set(phone.clock.now)
            await phone.app.confirmTrackedDay("2026-11-16")
            var tree = phone.app.tree()
            #expect(tree.screen == UIIdentifier.trackSubmitExplanation)
            #expect(tree.element(UIIdentifier.trackSubmitExplanation)?.text.contains("cannot be edited") == true)
            #expect(phone.app.confirmedDays.isEmpty && tree.pending == 0, "nothing confirmed yet")
            phone.app.cancelSubmit()
            #expect(phone.app.tree().screen != UIIdentifier.trackSubmitExplanation && phone.app.confirmedDays.isEmpty)
            await phone.app.confirmTrackedDay("2026-11-16")
            #expect(phone.app.tree().screen == UIIdentifier.trackSubmitExplanation, "not now: it comes again")
            await phone.app.continueSubmit()
            #expect(phone.app.confirmedDays["2026-11-16"]?.status == .submitted)
            try phone.relaunch()
            await phone.app.confirmTrackedDay("2026-11-17")
            #expect(phone.app.tree().screen != UIIdentifier.trackSubmitExplanation, "once per worker")
            #expect(phone.app.confirmedDays["2026-11-17"] != nil)
            // A colleague signs in on the same phone.
            await phone.app.signOut(.keep)
            await phone.app.signIn(
                server: lab.serverURL, email: colleague.user.email, password: DeviceLab.staffPassword)
            let place = try phone.addLocation("Haus Linde")
            phone.app.addManualSession(at: place.id, from: at("2026-11-17T06:00:00Z"), to: at("2026-11-17T07:00:00Z"))
            await phone.app.confirmTrackedDay("2026-11-17")
            #expect(phone.app.tree().screen == UIIdentifier.trackSubmitExplanation, "a colleague is told too")
        }
    }
}
