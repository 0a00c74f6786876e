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

/// `track dismiss-warning`: the location-permission banner's X (it comes back after a week).
struct DeviceTrackDismissWarningCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss-warning", abstract: "Dismiss the location-permission warning for a week.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.dismissPermissionWarning() } }
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
