import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

struct DeviceOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open", abstract: "Enter an event; syncs its roster with a progress bar on stderr.")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The event id (from `events`).")
    var eventId: EventID

    @MainActor
    func run() async throws {
        let app = try device.launch()
        app.onProgress = { [unowned app] _ in
            guard let (feed, done, total) = app.feedProgress, feed == "roster", total > 0 else { return }
            let width = 30
            let filled = done * width / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            FileHandle.standardError.write(Data("\rroster \(bar) \(done)/\(total)".utf8))
            if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
        }
        await app.openEvent(eventId)
        try await device.conclude(app)
    }
}
