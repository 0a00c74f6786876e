import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

extension ShiftColor: ExpressibleByArgument {}
extension AbsenceMark.Kind: ExpressibleByArgument {}

/// Times and lengths on the command line: `08:30` (minutes after midnight), `8h`, `7h30`, `450`.
enum PlanArgument {
    static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours),
            (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    static func length(_ text: String) -> Int? {
        if let minutes = Int(text) { return minutes }
        let parts = text.split(separator: "h", omittingEmptySubsequences: false)
        guard parts.count == 2, let hours = Int(parts[0]) else { return nil }
        return hours * 60 + (parts[1].isEmpty ? 0 : Int(parts[1].replacingOccurrences(of: "m", with: "")) ?? -10_000)
    }
}

/// `track week [--date D] [--prev|--next]`: the week view.
struct DeviceTrackWeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "week", abstract: "The week: shifts, absences, tracked time against the plan, confirmed days.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "A day of the week to show (YYYY-MM-DD).") var date: String?
    @Flag(help: "The week before the one shown (calendar-prev).") var prev = false
    @Flag(help: "The week after the one shown.") var next = false

    func validate() throws {
        if let date, !ActivityDate.isValid(date) { throw ValidationError("--date is YYYY-MM-DD.") }
        guard !(prev && next) else { throw ValidationError("--prev or --next, not both.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if prev || next { app.showAdjacentWeek(prev ? -1 : 1) } else { app.showWeek(of: date) }
        }
    }
}

/// `track month [--month YYYY-MM] [--prev|--next]`: the month view.
struct DeviceTrackMonthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "month",
        abstract: "The month: 42 days with shift dots, tracked markers, absences, ✓ and ?, and the summary.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "The month, YYYY-MM.") var month: String?
    @Flag(help: "The month before the one shown.") var prev = false
    @Flag(help: "The month after the one shown.") var next = false

    func validate() throws {
        if let month, !ActivityDate.isValid(month + "-01") { throw ValidationError("--month is YYYY-MM.") }
        guard !(prev && next) else { throw ValidationError("--prev or --next, not both.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in app.showMonth(month, offset: prev ? -1 : next ? 1 : 0) }
    }
}

/// `track seed-demo`: a month of realistic work for a new user to look at.
struct DeviceTrackSeedDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed-demo",
        abstract:
            "Fill a month with demo work: Early, Late and Night shifts, sessions around them, a vacation, a sick day, most past days confirmed.",
        discussion: """
            The demo month lives in its own sandbox beside the signed-in worker's hours: the \
            screens show it (with a demo banner) until --remove, and nothing of it is ever queued, \
            sent or exported. Signed out, nothing is seeded (exit 3).
            """)
    @OptionGroup var device: DeviceOptions
    @Option(help: "The month, YYYY-MM (default: this one).") var month: String?
    @Option(help: "The random seed (the same seed makes the same month).") var seed: UInt64 = 1
    @Flag(help: "Remove the demo month and show your own hours again.") var remove = false

    func validate() throws {
        if let month, !ActivityDate.isValid(month + "-01") { throw ValidationError("--month is YYYY-MM.") }
        if remove, month != nil { throw ValidationError("--remove takes no --month.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if remove { app.removeTrackingDemo() } else { app.seedTrackingDemo(month: month, seed: seed) }
        }
    }
}

struct DeviceTrackGPSToggleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gps-toggle", abstract: "Show or hide tracked time on the calendar.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.toggleTrackedTime() } }
}

/// `track template add|edit|remove`: shift templates.
struct DeviceTrackTemplateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template", abstract: "Shift templates: a name, a colour, a start, a length and a break.",
        subcommands: [AddCommand.self, EditCommand.self, RemoveCommand.self])

    struct AddCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a shift template.")
        @OptionGroup var device: DeviceOptions
        @Option var name: String
        @Option(help: "teal, blue, green, amber, rose, purple or cyan.") var color: ShiftColor = .teal
        @Option(help: "The start, HH:MM.", transform: TrackArgument.clock("--start is HH:MM.")) var start: Int
        @Option(help: "The length: 8h, 7h30 or minutes.", transform: TrackArgument.length) var duration: Int
        @Option(help: "The break in minutes.") var `break`: Int = 0

        @MainActor
        func run() async throws {
            try await device.perform { app in
                app.addShiftTemplate(
                    name: name, color: color, startMinute: start, durationMinutes: duration, breakMinutes: `break`)
            }
        }
    }

    struct EditCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a template: today's and future shifts follow; past ones stay.")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The template's id.") var id: ShiftTemplateID
        @Option var name: String?
        @Option var color: ShiftColor?
        @Option(help: "HH:MM") var start: String?
        @Option(help: "8h, 7h30 or minutes") var duration: String?
        @Option var `break`: Int?

        @MainActor
        func run() async throws {
            try await device.perform { app in
                guard var template = app.shiftPlan.templates.first(where: { $0.id == id }) else {
                    app.deleteShiftTemplate(id)  // says "no such template"
                    return
                }
                if let name { template.name = name }
                if let color { template.color = color }
                if let start { template.startMinute = PlanArgument.clock(start) ?? -1 }
                if let duration { template.durationMinutes = PlanArgument.length(duration) ?? -1 }
                if let `break` { template.breakMinutes = `break` }
                app.updateShiftTemplate(template)
            }
        }
    }

    struct RemoveCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Delete a template: future shifts go, past ones stay (orphaned).")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The template's id.") var id: ShiftTemplateID

        @MainActor
        func run() async throws { try await device.perform { app in app.deleteShiftTemplate(id) } }
    }
}

/// `track shift place|move|remove`: shifts on days.
struct DeviceTrackShiftCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shift", abstract: "Shifts on days: place from a template, move the start, remove.",
        subcommands: [PlaceCommand.self, MoveCommand.self, RemoveCommand.self])

    struct PlaceCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "place", abstract: "Place a shift on a day.")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The template's id.") var template: ShiftTemplateID
        @Argument(help: "The day, YYYY-MM-DD.") var day: String
        @Option(help: "Another start than the template's, HH:MM.", transform: TrackArgument.clock("--start is HH:MM."))
        var start: Int?

        func validate() throws {
            guard ActivityDate.isValid(day) else { throw ValidationError("The day is YYYY-MM-DD.") }
        }

        @MainActor
        func run() async throws {
            try await device.perform { app in
                app.placeShift(template, on: day, startMinute: start)
            }
        }
    }

    struct MoveCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move a shift's start (its length and break are the template's).")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The shift's id.") var id: ShiftID
        @Option(help: "HH:MM", transform: TrackArgument.clock("--start is HH:MM.")) var start: Int

        @MainActor
        func run() async throws {
            try await device.perform { app in app.moveShift(id, startMinute: start) }
        }
    }

    struct RemoveCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a shift.")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The shift's id.") var id: ShiftID

        @MainActor
        func run() async throws { try await device.perform { app in app.removeShift(id) } }
    }
}

/// `track absence add|edit|remove|template`: vacation and sick days.
struct DeviceTrackAbsenceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "absence", abstract: "Vacation and sick days: whole days or between two times.",
        subcommands: [AddCommand.self, EditCommand.self, RemoveCommand.self, TemplateCommand.self])

    struct Times: ParsableArguments {
        @Option(
            name: .customLong("from"), help: "From HH:MM (with --to; default: the whole day).",
            transform: TrackArgument.clock("--from and --to are HH:MM."))
        var start: Int?
        @Option(
            name: .customLong("to"), help: "To HH:MM.", transform: TrackArgument.clock("--from and --to are HH:MM."))
        var end: Int?

        func validate() throws {
            guard (start == nil) == (end == nil) else {
                throw ValidationError("Give both --from and --to, or neither.")
            }
        }
    }

    struct AddCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "An absence on a day.")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The day, YYYY-MM-DD.") var day: String
        @Option(help: "An absence template's id.") var template: AbsenceTemplateID?
        @Option(help: "vacation or sick (without a template).") var kind: AbsenceMark.Kind = .sick
        @OptionGroup var times: Times

        func validate() throws {
            guard ActivityDate.isValid(day) else { throw ValidationError("The day is YYYY-MM-DD.") }
        }

        @MainActor
        func run() async throws {
            try await device.perform { app in
                app.addAbsence(on: day, template: template, kind: kind, startMinute: times.start, endMinute: times.end)
            }
        }
    }

    struct EditCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change an absence's kind or times (no times: the whole day).")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The absence's id.") var id: AbsenceID
        @Option(help: "vacation or sick.") var kind: AbsenceMark.Kind?
        @OptionGroup var times: Times

        @MainActor
        func run() async throws {
            try await device.perform { app in
                app.editAbsence(id, kind: kind, startMinute: times.start, endMinute: times.end)
            }
        }
    }

    struct RemoveCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an absence.")
        @OptionGroup var device: DeviceOptions
        @Argument(help: "The absence's id.") var id: AbsenceID

        @MainActor
        func run() async throws { try await device.perform { app in app.removeAbsence(id) } }
    }

    struct TemplateCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "template",
            abstract: "Add an absence template (a name, vacation or sick, times or the whole day).")
        @OptionGroup var device: DeviceOptions
        @Option var name: String
        @Option(help: "vacation or sick.") var kind: AbsenceMark.Kind
        @Option(help: "teal, blue, green, amber, rose, purple or cyan.") var color: ShiftColor = .cyan
        @OptionGroup var times: Times

        @MainActor
        func run() async throws {
            try await device.perform { app in
                app.addAbsenceTemplate(
                    name: name, kind: kind, color: color, startMinute: times.start, endMinute: times.end)
            }
        }
    }
}
