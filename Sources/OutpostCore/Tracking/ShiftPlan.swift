import Foundation

/// The colours a shift can have (seed 003's palette).
public enum ShiftColor: String, Codable, Sendable, CaseIterable {
    case teal, blue, green, amber, rose, purple, cyan
}

/// A reusable shift pattern: a name, a colour, a start time, a length and a break.
public struct ShiftTemplate: Codable, Sendable, Hashable {
    public var id: ShiftTemplateID
    public var name: String
    public var color: ShiftColor
    /// Minutes after midnight (`08:00` is 480).
    public var startMinute: Int
    public var durationMinutes: Int
    public var breakMinutes: Int

    public init(
        id: ShiftTemplateID = .random(), name: String, color: ShiftColor, startMinute: Int, durationMinutes: Int,
        breakMinutes: Int = 0
    ) {
        self.id = id
        self.name = name
        self.color = color
        self.startMinute = startMinute
        self.durationMinutes = durationMinutes
        self.breakMinutes = breakMinutes
    }
}

/// A shift on a day. Its name, colour, length and break are a snapshot of its template (an
/// instance's start time is its own); a past instance keeps its snapshot when the template
/// changes or goes (it is then orphaned: `templateId` nil).
public struct ShiftInstance: Codable, Sendable, Hashable {
    public var id: ShiftID
    public var templateId: ShiftTemplateID?
    public var day: String
    public var startMinute: Int
    public var durationMinutes: Int
    public var breakMinutes: Int
    public var name: String
    public var color: ShiftColor

    public var endMinute: Int { startMinute + durationMinutes }
    public var orphaned: Bool { templateId == nil }
    public var planned: PlannedSpan {
        PlannedSpan(
            day: day, startMinute: startMinute, durationMinutes: durationMinutes, breakMinutes: breakMinutes,
            tag: color.rawValue)
    }
}

/// A reusable absence: vacation or sick, the whole day or between two times.
public struct AbsenceTemplate: Codable, Sendable, Hashable {
    public var id: AbsenceTemplateID
    public var name: String
    public var kind: AbsenceMark.Kind
    public var color: ShiftColor
    /// Nil for a full day.
    public var startMinute: Int?
    public var endMinute: Int?

    public init(
        id: AbsenceTemplateID = .random(), name: String, kind: AbsenceMark.Kind, color: ShiftColor,
        startMinute: Int? = nil, endMinute: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.color = color
        self.startMinute = startMinute
        self.endMinute = endMinute
    }
}

/// An absence on a day (from a template, or a one-off sick day).
public struct AbsenceInstance: Codable, Sendable, Hashable {
    public var id: AbsenceID
    public var templateId: AbsenceTemplateID?
    public var kind: AbsenceMark.Kind
    public var day: String
    public var fullDay: Bool
    public var startMinute: Int?
    public var endMinute: Int?
    public var name: String
    public var color: ShiftColor

    public var mark: AbsenceMark { AbsenceMark(day: day, kind: kind, fullDay: fullDay) }
}

/// Why a planning change was refused.
public enum PlanError: Error, Hashable, Sendable, Codable {
    /// The day is confirmed: nothing on it changes.
    case dayLocked(String)
    /// The shift would overlap another on the same day (its name).
    case overlap(String)
    case noSuchTemplate
    case noSuchShift
    case noSuchAbsence
    /// A time outside the day, a length of zero or more than a day, a break longer than the shift.
    case invalidTime
    case nameMissing
}

/// A worker's plan (seed 003's calendar): shift templates and the shifts placed from them,
/// absence templates and absences. Every rule of planning is here, pure; the store keeps the
/// value. `today` decides what is past (frozen) and what is future; `locked` holds the
/// confirmed days, on which nothing is placed, moved or removed.
public struct ShiftPlan: Codable, Sendable, Hashable {
    public private(set) var templates: [ShiftTemplate] = []
    public private(set) var shifts: [ShiftInstance] = []
    public private(set) var absenceTemplates: [AbsenceTemplate] = []
    public private(set) var absences: [AbsenceInstance] = []

    public init() {}

    // MARK: Templates

    public mutating func addTemplate(_ template: ShiftTemplate) throws {
        try Self.validate(template)
        templates.append(template)
    }

    /// Changes a template: shifts from `today` on (not on locked days) take the change, past
    /// ones keep what they were. Their own start times stay unless the template's start moved.
    public mutating func updateTemplate(_ template: ShiftTemplate, today: String, locked: Set<String>) throws {
        guard let index = templates.firstIndex(where: { $0.id == template.id }) else { throw PlanError.noSuchTemplate }
        try Self.validate(template)
        let old = templates[index]
        templates[index] = template
        for position in shifts.indices
        where shifts[position].templateId == template.id && shifts[position].day >= today
            && !locked.contains(shifts[position].day)
        {
            shifts[position].name = template.name
            shifts[position].color = template.color
            shifts[position].durationMinutes = template.durationMinutes
            shifts[position].breakMinutes = template.breakMinutes
            if shifts[position].startMinute == old.startMinute { shifts[position].startMinute = template.startMinute }
        }
    }

    /// Deletes a template: its shifts from `today` on (not on locked days) go; past ones stay,
    /// orphaned, with their snapshot.
    public mutating func deleteTemplate(_ id: ShiftTemplateID, today: String, locked: Set<String>) throws {
        guard templates.contains(where: { $0.id == id }) else { throw PlanError.noSuchTemplate }
        templates.removeAll { $0.id == id }
        shifts.removeAll { $0.templateId == id && $0.day >= today && !locked.contains($0.day) }
        for position in shifts.indices where shifts[position].templateId == id { shifts[position].templateId = nil }
    }

    // MARK: Shifts

    /// Places a shift of `template` on `day` (at the template's start unless `start` is given).
    @discardableResult
    public mutating func place(
        _ template: ShiftTemplateID, on day: String, start: Int? = nil, locked: Set<String>
    ) throws -> ShiftInstance {
        guard let template = templates.first(where: { $0.id == template }) else { throw PlanError.noSuchTemplate }
        guard ActivityDate.isValid(day) else { throw PlanError.invalidTime }
        guard !locked.contains(day) else { throw PlanError.dayLocked(day) }
        let shift = ShiftInstance(
            id: .random(), templateId: template.id, day: day, startMinute: start ?? template.startMinute,
            durationMinutes: template.durationMinutes, breakMinutes: template.breakMinutes, name: template.name,
            color: template.color)
        guard (0..<1_440).contains(shift.startMinute) else { throw PlanError.invalidTime }
        try checkOverlap(shift)
        shifts.append(shift)
        return shift
    }

    /// Moves a shift's start (its length and break stay the template's).
    public mutating func moveShift(_ id: ShiftID, start: Int, locked: Set<String>) throws {
        guard let index = shifts.firstIndex(where: { $0.id == id }) else { throw PlanError.noSuchShift }
        guard !locked.contains(shifts[index].day) else { throw PlanError.dayLocked(shifts[index].day) }
        guard (0..<1_440).contains(start) else { throw PlanError.invalidTime }
        var moved = shifts[index]
        moved.startMinute = start
        try checkOverlap(moved)
        shifts[index] = moved
    }

    public mutating func removeShift(_ id: ShiftID, locked: Set<String>) throws {
        guard let shift = shifts.first(where: { $0.id == id }) else { throw PlanError.noSuchShift }
        guard !locked.contains(shift.day) else { throw PlanError.dayLocked(shift.day) }
        shifts.removeAll { $0.id == id }
    }

    /// Two shifts of one day overlap when their times do.
    private func checkOverlap(_ shift: ShiftInstance) throws {
        if let other = shifts.first(where: {
            $0.id != shift.id && $0.day == shift.day && $0.startMinute < shift.endMinute
                && shift.startMinute < $0.endMinute
        }) {
            throw PlanError.overlap(other.name)
        }
    }

    // MARK: Absences

    public mutating func addAbsenceTemplate(_ template: AbsenceTemplate) throws {
        try Self.validate(name: template.name, start: template.startMinute, end: template.endMinute)
        absenceTemplates.append(template)
    }

    /// An absence on `day`: from a template (its times), or a one-off of `kind` (a sick day);
    /// the whole day unless `start` and `end` are given.
    @discardableResult
    /// `defaultName` names an absence without a template (the app's word for its kind, in the
    /// worker's language); without it, "Sick" or "Vacation".
    public mutating func addAbsence(
        on day: String, template: AbsenceTemplateID? = nil, kind: AbsenceMark.Kind = .sick, start: Int? = nil,
        end: Int? = nil, locked: Set<String>, defaultName: String? = nil
    ) throws -> AbsenceInstance {
        guard ActivityDate.isValid(day) else { throw PlanError.invalidTime }
        guard !locked.contains(day) else { throw PlanError.dayLocked(day) }
        let source = try template.map { id in
            guard let found = absenceTemplates.first(where: { $0.id == id }) else { throw PlanError.noSuchAbsence }
            return found
        }
        let from = start ?? source?.startMinute
        let to = end ?? source?.endMinute
        try Self.validate(name: "-", start: from, end: to)
        let absence = AbsenceInstance(
            id: .random(), templateId: template, kind: source?.kind ?? kind, day: day, fullDay: from == nil,
            startMinute: from, endMinute: to,
            name: source?.name ?? defaultName ?? (kind == .sick ? "Sick" : "Vacation"),
            color: source?.color ?? (kind == .sick ? .rose : .cyan))
        absences.append(absence)
        return absence
    }

    /// Changes an absence's times (nil: the whole day) or kind.
    public mutating func editAbsence(
        _ id: AbsenceID, kind: AbsenceMark.Kind? = nil, start: Int?, end: Int?, locked: Set<String>
    ) throws {
        guard let index = absences.firstIndex(where: { $0.id == id }) else { throw PlanError.noSuchAbsence }
        guard !locked.contains(absences[index].day) else { throw PlanError.dayLocked(absences[index].day) }
        try Self.validate(name: "-", start: start, end: end)
        absences[index].startMinute = start
        absences[index].endMinute = end
        absences[index].fullDay = start == nil
        if let kind { absences[index].kind = kind }
    }

    public mutating func removeAbsence(_ id: AbsenceID, locked: Set<String>) throws {
        guard let absence = absences.first(where: { $0.id == id }) else { throw PlanError.noSuchAbsence }
        guard !locked.contains(absence.day) else { throw PlanError.dayLocked(absence.day) }
        absences.removeAll { $0.id == id }
    }

    // MARK: Reading

    /// The shifts of `day`, earliest first.
    public func shifts(on day: String) -> [ShiftInstance] {
        shifts.filter { $0.day == day }.sorted { $0.startMinute < $1.startMinute }
    }

    public func absences(on day: String) -> [AbsenceInstance] { absences.filter { $0.day == day } }

    // MARK: Validation

    static func validate(_ template: ShiftTemplate) throws {
        guard !template.name.trimmingCharacters(in: .whitespaces).isEmpty else { throw PlanError.nameMissing }
        guard (0..<1_440).contains(template.startMinute), (1...1_440).contains(template.durationMinutes),
            (0..<template.durationMinutes).contains(template.breakMinutes)
        else { throw PlanError.invalidTime }
    }

    static func validate(name: String, start: Int?, end: Int?) throws {
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw PlanError.nameMissing }
        switch (start, end) {
        case (nil, nil): return
        case (let start?, let end?) where (0..<1_440).contains(start) && (1...1_440).contains(end) && end > start:
            return
        default: throw PlanError.invalidTime
        }
    }
}
