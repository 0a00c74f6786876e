import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost device track …`: time tracking (seed 003). Work locations are fences; the engine
/// clocks in and out from the region monitor's events (`sim geofence`), and by hand.
struct DeviceTrackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track",
        abstract:
            "Time tracking: status, locations, history, clock in/out, manual sessions, confirming days, the week and its plan, geofence rules, traces.",
        subcommands: [
            DeviceTrackStatusCommand.self, DeviceTrackLocationsCommand.self, DeviceTrackHistoryCommand.self,
            DeviceTrackExportCommand.self,
            DeviceTrackLocationCommand.self, DeviceTrackClockInCommand.self, DeviceTrackClockOutCommand.self,
            DeviceTrackSessionCommand.self, DeviceTrackConfirmCommand.self, DeviceTrackProfileCommand.self,
            DeviceTrackTraceCommand.self, DeviceTrackReplayCommand.self, DeviceTrackDismissWarningCommand.self,
            DeviceTrackWeekCommand.self, DeviceTrackMonthCommand.self, DeviceTrackGPSToggleCommand.self,
            DeviceTrackTemplateCommand.self,
            DeviceTrackShiftCommand.self, DeviceTrackAbsenceCommand.self, DeviceTrackSeedDemoCommand.self,
            DeviceTrackReportCommand.self,
        ],
        defaultSubcommand: DeviceTrackStatusCommand.self)
}

struct DeviceTrackStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "The status screen: each location, clocked in or not.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.showTracking(.status) } }
}

struct DeviceTrackLocationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "locations", abstract: "The work locations.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.showTracking(.locations) } }
}

extension TrackingRange: ExpressibleByArgument {}

struct DeviceTrackHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Sessions grouped by day, with the total.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "week, month or all.") var range: TrackingRange = .all
    @Option(help: "Only this location.") var location: LocationID?

    @MainActor
    func run() async throws {
        try await device.perform { app in app.showTrackingHistory(range: range, location: location) }
    }
}

struct DeviceTrackExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract:
            "The work history as CSV: Date, Day, Clock In, Clock Out, Duration, Method, Status, Location (formula-safe)."
    )
    @OptionGroup var device: DeviceOptions
    @Option(help: "week, month or all.") var range: TrackingRange = .all
    @Option(help: "Only this location.") var location: LocationID?
    @Option(help: ArgumentHelp("Write the CSV to this file (default: standard output).", valueName: "file"))
    var out: String?

    @MainActor
    func run() async throws {
        let app = try device.launch()
        let csv = app.trackingCSV(location: location, range: range)
        if let out {
            try Data(csv.utf8).write(to: URL(fileURLWithPath: out))
            try await device.conclude(app)
        } else {
            print(csv, terminator: "")
        }
    }
}

/// `track location add|edit|remove`.
struct DeviceTrackLocationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location", abstract: "Add, edit or remove a work location (at most 20).",
        subcommands: [
            DeviceTrackLocationAddCommand.self, DeviceTrackLocationEditCommand.self,
            DeviceTrackLocationRemoveCommand.self,
        ])
}

struct DeviceTrackLocationAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a work location.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "Its name.") var name: String
    @Option(help: "Latitude of the centre.") var latitude: Double
    @Option(help: "Longitude of the centre.") var longitude: Double
    @Option(help: "Radius in metres (50-5000).") var radius: Double = WorkLocation.defaultRadius

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.addWorkLocation(name: name, latitude: latitude, longitude: longitude, radius: radius)
        }
    }
}

struct DeviceTrackLocationEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a work location.")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID
    @Option(help: "A new name.") var name: String?
    @Option(help: "A new latitude (with --longitude).") var latitude: Double?
    @Option(help: "A new longitude (with --latitude).") var longitude: Double?
    @Option(help: "A new radius in metres.") var radius: Double?

    func validate() throws {
        guard (latitude == nil) == (longitude == nil) else {
            throw ValidationError("--latitude and --longitude go together.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.editWorkLocation(id, name: name, latitude: latitude, longitude: longitude, radius: radius)
        }
    }
}

struct DeviceTrackLocationRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a work location (its past sessions stay).")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID

    @MainActor
    func run() async throws { try await device.perform { app in app.removeWorkLocation(id) } }
}

struct DeviceTrackClockInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clock-in", abstract: "Clock in by hand.")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID

    @MainActor
    func run() async throws { try await device.perform { app in app.clockIn(at: id) } }
}

struct DeviceTrackClockOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clock-out", abstract: "Clock out by hand.")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID

    @MainActor
    func run() async throws { try await device.perform { app in app.clockOut(at: id) } }
}

/// `track session add --location ID --from T --to T`.
struct DeviceTrackSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Sessions entered by hand, corrections, and breaks.",
        subcommands: [
            DeviceTrackSessionAddCommand.self, DeviceTrackSessionEditCommand.self,
            DeviceTrackSessionDeleteCommand.self, DeviceTrackSessionBreakCommand.self,
        ])
}

/// `track session edit SESSION_ID [--from T] [--to T]`: seed 003's drag handles.
struct DeviceTrackSessionEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Correct a session's start or end (not on a confirmed day); its times as tracked are kept.",
        discussion: """
            A session still open (you forgot to clock out, the phone died at work) is clocked out \
            and ends at --to. The correction, with the times before it, goes with the day's \
            submission and is in the data export.
            """)
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).") var id: String
    @Option(help: "The new start, RFC 3339 (2026-11-24T08:00:00Z).") var from: String?
    @Option(help: "The new end, RFC 3339.") var to: String?

    func validate() throws {
        guard UUID(uuidString: id) != nil else { throw ValidationError("The session id is a UUID.") }
        guard from != nil || to != nil else { throw ValidationError("Give --from, --to or both.") }
        for text in [from, to].compactMap({ $0 }) where OutpostDateArgument.parse(text) == nil {
            throw ValidationError("--from and --to are times like 2026-11-24T08:00:00Z.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.correctSession(
                UUID(uuidString: id)!, start: from.flatMap(OutpostDateArgument.parse),
                end: to.flatMap(OutpostDateArgument.parse))
        }
    }
}

/// `track session delete SESSION_ID`.
struct DeviceTrackSessionDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete a finished session (not on a confirmed day); it stays in the export and the day's submission as deleted."
    )
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).") var id: String

    func validate() throws {
        guard UUID(uuidString: id) != nil else { throw ValidationError("The session id is a UUID.") }
    }

    @MainActor
    func run() async throws { try await device.perform { app in app.deleteSession(UUID(uuidString: id)!) } }
}

struct DeviceTrackSessionAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a session by hand: not in the future, ending after it starts, not overlapping another there.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "The location's id.") var location: LocationID
    @Option(help: "Start, RFC 3339 (2026-11-24T08:00:00Z).") var from: String
    @Option(help: "End, RFC 3339.") var to: String

    func validate() throws {
        guard OutpostDateArgument.parse(from) != nil, OutpostDateArgument.parse(to) != nil else {
            throw ValidationError("--from and --to are times like 2026-11-24T08:00:00Z.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.addManualSession(
                at: location, from: OutpostDateArgument.parse(from)!, to: OutpostDateArgument.parse(to)!)
        }
    }
}

/// `track dismiss-warning`: the location-permission banner's X (it comes back after a week).
struct DeviceTrackDismissWarningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss-warning", abstract: "Dismiss the location-permission warning for a week.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.dismissPermissionWarning() } }
}

/// `track confirm DAY`: the seed's "Submit".
struct DeviceTrackConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract:
            "Confirm (submit) a day that is over: it is locked and sent to the server now or when next online.",
        discussion: """
            A worker's first Submit shows what submitting means first (track-submit-explanation) and \
            confirms nothing; --continue then submits that day (and the explanation is not shown \
            again), --cancel leaves it.
            """)
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The day, YYYY-MM-DD.") var day: String?
    @Flag(name: .customLong("continue"), help: "Submit on the first-time explanation.") var proceed = false
    @Flag(help: "Not now, on the first-time explanation.") var cancel = false

    func validate() throws {
        let answers = [proceed, cancel].filter { $0 }.count
        guard answers <= 1 else { throw ValidationError("--continue or --cancel, not both.") }
        if answers == 1 {
            guard day == nil else { throw ValidationError("--continue and --cancel answer the explanation; no day.") }
        } else {
            guard let day, ActivityDate.isValid(day) else { throw ValidationError("The day is written YYYY-MM-DD.") }
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if proceed {
                await app.continueSubmit()
            } else if cancel {
                app.cancelSubmit()
            } else if let day {
                await app.confirmTrackedDay(day)
            }
        }
    }
}

/// `track session break SESSION_ID --minutes M`: the break of a finished session.
struct DeviceTrackSessionBreakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "break",
        abstract: "Give a finished session a break (shared out over its days; not on a confirmed day).")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).") var id: String
    @Option(help: "The break in minutes (0 removes it).") var minutes: Int

    func validate() throws {
        guard UUID(uuidString: id) != nil else { throw ValidationError("The session id is a UUID.") }
        guard minutes >= 0 else { throw ValidationError("--minutes is 0 or more.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in app.setSessionBreak(UUID(uuidString: id)!, minutes: minutes) }
    }
}

struct DeviceTrackProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "The geofence rules: seed (seed 003 as written, the default) or field (its later fixes).")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "seed or field.") var name: String

    func validate() throws {
        guard HysteresisPolicy.named(name) != nil else { throw ValidationError("The profile is seed or field.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in app.setGeofenceProfile(HysteresisPolicy.named(name) ?? .seed) }
    }
}

/// Times on the command line.
enum OutpostDateArgument {
    static func parse(_ text: String) -> Date? { OutpostJSON.parse(text) }
}
