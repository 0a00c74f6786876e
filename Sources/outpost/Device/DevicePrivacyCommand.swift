import ArgumentParser
import Foundation
import OutpostDevice
import OutpostLab

/// `outpost device privacy …`: the user's data rights (seed 003, "Data Privacy").
struct DevicePrivacyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "privacy",
        abstract: "Your data: the consent you gave, export everything, withdraw consent and delete the account.",
        subcommands: [
            DevicePrivacyShowCommand.self, DevicePrivacyConsentCommand.self, DevicePrivacyExportCommand.self,
            DevicePrivacyDeleteCommand.self,
            DevicePrivacyCloseCommand.self,
        ],
        defaultSubcommand: DevicePrivacyShowCommand.self)
}

struct DevicePrivacyShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "The data privacy screen.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.showPrivacy() } }
}

/// `privacy consent --accept VERSION`: a new version of the terms, accepted on this phone.
struct DevicePrivacyConsentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "consent",
        abstract: "Accept a new version of the Terms of Service and Privacy Policy (needs a connection).",
        discussion: "The server keeps it; the user's other phones show it after their next sync.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "The version accepted (1 to 64 characters).") var accept: String

    @MainActor
    func run() async throws { try await device.perform { app in await app.acceptConsent(accept) } }
}

struct DevicePrivacyExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export My Data: this device's records and the server's, as one JSON document (GDPR Art. 20).")
    @OptionGroup var device: DeviceOptions
    @Option(help: ArgumentHelp("Write the document to this file (default: standard output).", valueName: "file"))
    var out: String?

    @MainActor
    func run() async throws {
        let app = try device.launch()
        guard let data = await app.exportMyData() else {
            try device.output(app)
            throw DeviceOptions.refused("Nothing to export: sign in first.")
        }
        if let out {
            try data.write(to: URL(fileURLWithPath: out), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: out)
            try await device.conclude(app)
        } else {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}

struct DevicePrivacyDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Withdraw consent and delete the account on the server and this device (GDPR Art. 17), then sign out.")
    @OptionGroup var device: DeviceOptions
    @Flag(help: "Delete even though entries are still waiting to be sent (they are lost).") var yes = false

    @MainActor
    func run() async throws { try await device.perform { app in await app.deleteMyAccount(confirmed: yes) } }
}

struct DevicePrivacyCloseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "close", abstract: "Back to where you were.")
    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws { try await device.perform { app in app.closePrivacy() } }
}
