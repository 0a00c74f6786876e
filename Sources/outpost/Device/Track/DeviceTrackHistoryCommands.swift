import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

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
        let csv: String
        do {
            csv = try app.trackingCSV(location: location, range: range)
        } catch {
            throw DeviceOptions.refused(
                "The hours could not be read on this device, so nothing was exported: \(error).")
        }
        if let out {
            try Data(csv.utf8).write(to: URL(fileURLWithPath: out))
            try await device.conclude(app)
        } else {
            print(csv, terminator: "")
        }
    }
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
