import ArgumentParser
import Foundation
import OutpostDevice
import OutpostProtocol

/// `outpost device walkin ...`: seed 000's Walk-Ins tab, headless.
struct DeviceWalkInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walkin",
        abstract: "Walk-ins: add a guest at the door and check them in; the shift's summary; close the door.",
        subcommands: [WalkInAddCommand.self, WalkInSummaryCommand.self, WalkInCloseCommand.self]
    )
}

struct WalkInAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a walk-in to the open event and check them in (offline too, within the device's places).",
        discussion: """
            An access type with a walk-in capacity admits offline only through the places the \
            server leased this device; online, the device asks for more first. Refused (exit 3, \
            one sentence) when no places are left, the name is missing or the amount is not one.
            """)

    @OptionGroup var device: DeviceOptions

    @Option(help: "The walk-in's name.") var name: String
    @Option(help: "Their e-mail (optional).") var email: String?
    @Option(help: "The access type, by name or id (default: the first that admits walk-ins).") var type: String?
    @Option(help: "What they paid, like 12.50 (omit: not paid).") var paid: String?
    @Option(help: "The currency of --paid.") var currency = "EUR"
    @Option(help: "cash or card (recorded only).") var method = "cash"

    func validate() throws {
        guard PaymentMethod(rawValue: method) != nil else { throw ValidationError("--method must be cash or card.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.openWalkIn()
            guard app.refusal == nil else { return }
            app.updateWalkIn(
                name: name, email: email ?? "", accessType: type, amount: paid ?? "", currency: currency,
                method: PaymentMethod(rawValue: method))
            guard app.refusal == nil else { return }
            await app.addWalkIn()
        }
    }
}

struct WalkInSummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary", abstract: "This device's walk-ins of the open event: count and amounts by method.")

    @OptionGroup var device: DeviceOptions

    @Flag(help: "Print the summary as CSV (the console's walkins/summary.csv for this device).") var csv = false

    @MainActor
    func run() async throws {
        let app = try device.launch()
        guard csv else {
            app.showWalkInSummary()
            return try await device.conclude(app)
        }
        do {
            print(try app.walkInShiftCSV(), terminator: "")
        } catch {
            throw DeviceOptions.refused(
                "The walk-ins could not be read on this device, so nothing was exported: \(error).")
        }
    }
}

struct WalkInCloseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "close",
        abstract:
            "Close the door for walk-ins: the places this device holds go back to the pool (sent now or when online).")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.closeWalkInDoor()
        }
    }
}
