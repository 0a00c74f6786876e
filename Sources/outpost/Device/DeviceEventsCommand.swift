import ArgumentParser

struct DeviceEventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "events", abstract: "List the events you may work.")

    @OptionGroup var device: DeviceOptions

    @Option(help: "today, week or all.")
    var range = "all"

    func validate() throws {
        guard ["today", "week", "all"].contains(range) else {
            throw ValidationError("--range must be today, week or all.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.showEvents(range: range)
        }
    }
}
