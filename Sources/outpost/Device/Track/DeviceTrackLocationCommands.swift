import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

struct DeviceTrackLocationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "locations", abstract: "The work locations.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.showTracking(.locations) } }
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
