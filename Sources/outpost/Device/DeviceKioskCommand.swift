import ArgumentParser
import OutpostProtocol

/// `outpost device kiosk ...`: kiosk set-up, attendee check-in and exit (seed 002).
struct DeviceKioskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Kiosk mode: set-up, attendee check-in, exit.",
        subcommands: [
            KioskSetUpCommand.self, KioskEnterCommand.self, KioskCheckInCommand.self, KioskTapCornerCommand.self,
            KioskExitCommand.self,
        ]
    )
}

struct KioskSetUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup", abstract: "Save the kiosk exit passcode and orientation (organizer or support).")

    @OptionGroup var device: DeviceOptions

    @Option(help: "A six-digit exit passcode (weak ones are refused with the rules they break).")
    var passcode: String

    @Option(help: "portrait or landscape.")
    var orientation: String = "portrait"

    func validate() throws {
        guard KioskOrientation(rawValue: orientation) != nil else {
            throw ValidationError("--orientation must be portrait or landscape.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.kioskSetUp(passcode: passcode, orientation: KioskOrientation(rawValue: orientation) ?? .portrait)
        }
    }
}

struct KioskEnterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "enter", abstract: "Enter kiosk mode.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.enterKiosk()
        }
    }
}

struct KioskCheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "An attendee checks in by ticket or by e-mail.")

    @OptionGroup var device: DeviceOptions

    @Option(help: "The ticket text the kiosk camera read.")
    var ticket: String?

    @Option(help: "The e-mail the attendee typed.")
    var email: String?

    func validate() throws {
        guard (ticket == nil) != (email == nil) else {
            throw ValidationError("Give exactly one of --ticket and --email.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if let ticket {
                await app.kioskCheckIn(ticket: ticket)
            } else if let email {
                await app.kioskCheckIn(email: email)
            }
        }
    }
}

struct KioskTapCornerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tap-corner", abstract: "Tap the exit corner (three taps within 3 s show the exit prompt).")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.tapCorner()
        }
    }
}

struct KioskExitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exit", abstract: "On the exit prompt: leave kiosk mode with the passcode.")

    @OptionGroup var device: DeviceOptions

    @Option(help: "The kiosk passcode.")
    var passcode: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.exitKiosk(passcode: passcode)
        }
    }
}
