import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

/// `outpost device contact …`: the people a mentor visits. The list and each contact's
/// non-sensitive information come from the device's cache; sensitive fields need the network
/// and are shown for this one command, never stored.
struct DeviceContactCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contact",
        abstract: "A peer mentor's contacts: list, show (with --reveal: the encrypted fields, online only).",
        subcommands: [DeviceContactListCommand.self, DeviceContactShowCommand.self],
        defaultSubcommand: DeviceContactListCommand.self)
}

struct DeviceContactListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show your contacts.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.showContacts() }
    }
}

struct DeviceContactShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one contact; --reveal asks the server for the encrypted fields (held in memory only).")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The contact's id.")
    var id: ContactID

    @Flag(help: "Show the encrypted fields (address, phone, health notes): needs the network; audited.")
    var reveal = false

    @MainActor
    func run() async throws {
        try await device.perform { app in await app.showContact(id, reveal: reveal) }
    }
}
