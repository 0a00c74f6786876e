import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost device activity …`: a peer mentor's activities (seed 004). Registering works the
/// same online and offline; what is registered offline syncs when the network returns.
struct DeviceActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "A peer mentor's activities: list, register, edit, delete, resolve conflicts.",
        subcommands: [
            DeviceActivityListCommand.self, DeviceActivityRegisterCommand.self, DeviceActivityEditCommand.self,
            DeviceActivityDeleteCommand.self, DeviceActivityResolveCommand.self, DeviceActivityDismissCommand.self,
        ],
        defaultSubcommand: DeviceActivityListCommand.self)
}

extension ActivityType: ExpressibleByArgument {}

/// The checks `register` and `edit` make of their options before the app launches.
enum ActivityOptions {
    static func validate(date: String?, duration: Int?) throws {
        if let date, !ActivityDate.isValid(date) { throw ValidationError("--date must be a day as YYYY-MM-DD.") }
        if let duration, !(1...1440).contains(duration) {
            throw ValidationError("--duration must be 1 to 1440 minutes.")
        }
    }
}

struct DeviceActivityListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show the mentor's activities.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.showActivities() }
    }
}

struct DeviceActivityRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register", abstract: "Register an activity with one of your contacts (online or offline).")

    @OptionGroup var device: DeviceOptions

    @Option(help: "The contact's id (see `outpost device contact list`).")
    var contact: ContactID

    @Option(help: "visit, call, outing or other.")
    var type: ActivityType = .visit

    @Option(help: "The day, YYYY-MM-DD (default: today).")
    var date: String?

    @Option(help: "Minutes (1-1440).")
    var duration: Int

    @Option(help: "Notes.")
    var notes = ""

    func validate() throws { try ActivityOptions.validate(date: date, duration: duration) }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.registerActivity(
                contact: contact, type: type, date: date ?? ActivityDate.day(of: app.ports.clock.now()),
                durationMinutes: duration, notes: notes)
        }
    }
}

struct DeviceActivityEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Change an activity; the server applies it only on the version you edited.")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The activity's id.")
    var id: ActivityID

    @Option(help: "visit, call, outing or other.")
    var type: ActivityType?

    @Option(help: "The day, YYYY-MM-DD.")
    var date: String?

    @Option(help: "Minutes (1-1440).")
    var duration: Int?

    @Option(help: "Notes.")
    var notes: String?

    func validate() throws { try ActivityOptions.validate(date: date, duration: duration) }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.editActivity(id, type: type, date: date, durationMinutes: duration, notes: notes)
        }
    }
}

struct DeviceActivityDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an activity.")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The activity's id.")
    var id: ActivityID

    @MainActor
    func run() async throws {
        try await device.perform { app in await app.deleteActivity(id) }
    }
}

struct DeviceActivityResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "Resolve a conflict: keep your version or the server's.")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The activity's id.")
    var id: ActivityID

    @Option(help: "mine or theirs.")
    var keep: String

    func validate() throws {
        guard ["mine", "theirs"].contains(keep) else { throw ValidationError("--keep is mine or theirs.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in await app.resolveActivityConflict(id, keepMine: keep == "mine") }
    }
}

struct DeviceActivityDismissCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dismiss-failed", abstract: "Clear the list of activities the server refused.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.dismissActivityFailures() }
    }
}
