import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

extension ZoneDirection: ExpressibleByArgument {}

/// `outpost device zone ...`: the EFx tab's zone station, headless.
struct DeviceZoneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zone",
        abstract: "The EFx zone station: guard one zone of the open event in one direction; decides offline.",
        subcommands: [ZoneShowCommand.self, ZoneSetCommand.self, ZoneScanCommand.self]
    )
}

struct ZoneShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "The station: the event's zones to choose from, or its zone, direction and count.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.openZoneStation() }
    }
}

struct ZoneSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Set this device to guard a zone (its zoneId in `zone show --json`).")

    @OptionGroup var device: DeviceOptions
    @Option(help: "The zone's id.") var zone: ZoneID
    @Option(help: "entry, exit, or both (a scan of someone inside is their exit).") var direction: ZoneDirection

    @MainActor
    func run() async throws {
        try await device.perform { app in app.setZoneStation(zoneId: zone, direction: direction) }
    }
}

struct ZoneScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "A ticket at the zone station: green (in, out) or red with the reason.",
        discussion: "Give the ticket text, or --image with a photo (PNG or JPEG) to decode with zbar.")

    @OptionGroup var device: DeviceOptions
    @OptionGroup var scanned: ScannedTicket

    @MainActor
    func run() async throws {
        let ticket = try scanned.ticket()
        try await device.perform { app in app.zoneScan(ticket) }
    }
}

/// `outpost device efx`: the EFx tab, as a tap on it opens it.
struct DeviceEFxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "efx",
        abstract:
            "The EFx tab: the station the organizer chose for you (a zone station at its zone, or pickup), else the zone chooser."
    )

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.openEFx() }
    }
}
