import Foundation
import OutpostCore
import Testing

/// The rules of planning, each a named test: shifts from templates,
/// overlap on a day, template edits and deletes that leave the past alone, absences, and
/// confirmed days on which nothing changes.
@Suite("Shift plan")
struct ShiftPlanTests {
    static let early = ShiftTemplate(
        name: "Early", color: .teal, startMinute: 360, durationMinutes: 480, breakMinutes: 30)
    static let late = ShiftTemplate(
        name: "Late", color: .amber, startMinute: 840, durationMinutes: 480, breakMinutes: 30)

    static func plan() throws -> ShiftPlan {
        var plan = ShiftPlan()
        try plan.addTemplate(early)
        try plan.addTemplate(late)
        return plan
    }

    @Test("plan-overlap: a shift that overlaps another on the same day is refused, with the other's name")
    func overlap() throws {
        var plan = try Self.plan()
        try plan.place(Self.early.id, on: "2026-11-23", locked: [])
        #expect(throws: PlanError.overlap("Early")) {
            try plan.place(Self.late.id, on: "2026-11-23", start: 600, locked: [])
        }
        try plan.place(Self.late.id, on: "2026-11-23", locked: [])  // 14:00, after Early ends at 14:00
        try plan.place(Self.early.id, on: "2026-11-24", locked: [])  // another day
        #expect(plan.shifts(on: "2026-11-23").map(\.name) == ["Early", "Late"])
    }

    @Test("plan-instance-start: an instance's start time moves; its length and break stay the template's")
    func moveStart() throws {
        var plan = try Self.plan()
        let shift = try plan.place(Self.early.id, on: "2026-11-23", locked: [])
        try plan.moveShift(shift.id, start: 300, locked: [])
        let moved = try #require(plan.shifts(on: "2026-11-23").first)
        #expect(moved.startMinute == 300 && moved.durationMinutes == 480 && moved.breakMinutes == 30)
        try plan.place(Self.late.id, on: "2026-11-23", locked: [])
        #expect(throws: PlanError.overlap("Late")) { try plan.moveShift(shift.id, start: 480, locked: []) }
        #expect(throws: PlanError.invalidTime) { try plan.moveShift(shift.id, start: 1_440, locked: []) }
    }

    @Test("plan-template-edit: editing a template changes today's and future shifts and leaves past ones frozen")
    func editTemplate() throws {
        var plan = try Self.plan()
        let past = try plan.place(Self.early.id, on: "2026-11-20", locked: [])
        let today = try plan.place(Self.early.id, on: "2026-11-24", locked: [])
        let moved = try plan.place(Self.early.id, on: "2026-11-26", start: 420, locked: [])
        let future = try plan.place(Self.early.id, on: "2026-11-27", locked: [])
        var edited = Self.early
        edited.name = "Early (long)"
        edited.color = .blue
        edited.durationMinutes = 540
        edited.startMinute = 330
        try plan.updateTemplate(edited, today: "2026-11-24", locked: [])
        func shift(_ id: ShiftID) -> ShiftInstance? { plan.shifts.first { $0.id == id } }
        #expect(shift(past.id) == past, "the past is frozen")
        #expect(shift(today.id)?.durationMinutes == 540 && shift(today.id)?.name == "Early (long)")
        #expect(shift(future.id)?.startMinute == 330 && shift(future.id)?.color == .blue)
        #expect(shift(moved.id)?.startMinute == 420, "a start moved by hand stays")
        #expect(shift(moved.id)?.durationMinutes == 540)
    }

    @Test("plan-template-delete: deleting a template removes future shifts and orphans past ones, shown as such")
    func deleteTemplate() throws {
        var plan = try Self.plan()
        let past = try plan.place(Self.early.id, on: "2026-11-20", locked: [])
        let confirmed = try plan.place(Self.early.id, on: "2026-11-25", locked: [])
        try plan.place(Self.early.id, on: "2026-11-26", locked: [])
        try plan.deleteTemplate(Self.early.id, today: "2026-11-24", locked: ["2026-11-25"])
        #expect(plan.templates.map(\.name) == ["Late"])
        #expect(
            plan.shifts.map(\.id) == [past.id, confirmed.id], "future ones went; the past and a confirmed day stay")
        #expect(plan.shifts.allSatisfy(\.orphaned) && plan.shifts.first?.name == "Early")
        #expect(throws: PlanError.noSuchTemplate) { try plan.place(Self.early.id, on: "2026-11-28", locked: []) }
    }

    @Test("plan-locked-days: nothing is placed, moved or removed on a confirmed day, shifts or absences")
    func lockedDays() throws {
        var plan = try Self.plan()
        let shift = try plan.place(Self.early.id, on: "2026-11-23", locked: [])
        let absence = try plan.addAbsence(on: "2026-11-22", kind: .sick, locked: [])
        let locked: Set<String> = ["2026-11-22", "2026-11-23"]
        #expect(throws: PlanError.dayLocked("2026-11-23")) {
            try plan.place(Self.late.id, on: "2026-11-23", locked: locked)
        }
        #expect(throws: PlanError.dayLocked("2026-11-23")) { try plan.moveShift(shift.id, start: 300, locked: locked) }
        #expect(throws: PlanError.dayLocked("2026-11-23")) { try plan.removeShift(shift.id, locked: locked) }
        #expect(throws: PlanError.dayLocked("2026-11-22")) { try plan.addAbsence(on: "2026-11-22", locked: locked) }
        #expect(throws: PlanError.dayLocked("2026-11-22")) {
            try plan.editAbsence(absence.id, start: 480, end: 600, locked: locked)
        }
        #expect(throws: PlanError.dayLocked("2026-11-22")) { try plan.removeAbsence(absence.id, locked: locked) }
        #expect(plan.shifts.count == 1 && plan.absences.count == 1)
    }

    @Test("plan-absences: vacation and sick days from templates or one-off, full day or with times; edit and delete")
    func absences() throws {
        var plan = try Self.plan()
        let vacation = AbsenceTemplate(name: "Vacation", kind: .vacation, color: .cyan)
        let doctor = AbsenceTemplate(name: "Doctor", kind: .sick, color: .rose, startMinute: 480, endMinute: 600)
        try plan.addAbsenceTemplate(vacation)
        try plan.addAbsenceTemplate(doctor)
        let away = try plan.addAbsence(on: "2026-12-01", template: vacation.id, locked: [])
        #expect(away.fullDay && away.kind == .vacation && away.name == "Vacation")
        let appointment = try plan.addAbsence(on: "2026-12-02", template: doctor.id, locked: [])
        #expect(!appointment.fullDay && appointment.startMinute == 480 && appointment.endMinute == 600)
        let flu = try plan.addAbsence(on: "2026-12-03", kind: .sick, locked: [])
        #expect(flu.fullDay && flu.templateId == nil && flu.name == "Sick")
        try plan.editAbsence(appointment.id, start: nil, end: nil, locked: [])
        #expect(plan.absences(on: "2026-12-02").first?.fullDay == true)
        try plan.removeAbsence(flu.id, locked: [])
        #expect(plan.absences.map(\.day) == ["2026-12-01", "2026-12-02"])
        #expect(
            plan.absences.map(\.mark) == [
                AbsenceMark(day: "2026-12-01", kind: .vacation), AbsenceMark(day: "2026-12-02", kind: .sick),
            ])
        #expect(throws: PlanError.invalidTime) {
            try plan.addAbsence(on: "2026-12-04", start: 600, end: 480, locked: [])
        }
        #expect(throws: PlanError.invalidTime) { try plan.addAbsence(on: "2026-12-04", start: 600, locked: []) }
        #expect(throws: PlanError.noSuchAbsence) { try plan.removeAbsence(flu.id, locked: []) }
    }

    @Test(
        "plan-validation: a template needs a name, a start within the day, a length of up to a day and a shorter break")
    func validation() {
        var plan = ShiftPlan()
        #expect(throws: PlanError.nameMissing) {
            try plan.addTemplate(ShiftTemplate(name: " ", color: .green, startMinute: 0, durationMinutes: 60))
        }
        #expect(throws: PlanError.invalidTime) {
            try plan.addTemplate(
                ShiftTemplate(name: "X", color: .green, startMinute: 60, durationMinutes: 60, breakMinutes: 60))
        }
        #expect(throws: PlanError.invalidTime) {
            try plan.addTemplate(ShiftTemplate(name: "X", color: .green, startMinute: 1_440, durationMinutes: 60))
        }
        #expect(plan.templates.isEmpty)
        // The planned minutes the hours read: the length less the break.
        var planned = try? Self.plan()
        let shift = try? planned?.place(Self.early.id, on: "2026-11-23", locked: [])
        #expect(shift?.planned.netMinutes == 450)
    }
}
