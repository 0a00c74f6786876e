import ArgumentParser
import Foundation
import OutpostDevice

/// `outpost device lock`: locks the app now (with biometric unlock on).
struct DeviceLockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Lock the app now (when biometric unlock is on).")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.lock() }
    }
}

/// `outpost device unlock [--biometric | --passcode P | --email]`: the lock screen's three ways.
struct DeviceUnlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock on the lock screen: biometrics (the default), the device passcode, or sign in with e-mail.",
        discussion: """
            --biometric shows the simulated sensor what `sim biometric` set (match, no-match, \
            cancel); --passcode types P into the OS passcode prompt; --email is "Sign in with \
            email": a full sign-out that keeps pending entries for their user.
            """)

    @OptionGroup var device: DeviceOptions

    @Flag(help: "Unlock with the device's biometrics (the default).")
    var biometric = false

    @Option(help: "Unlock with the device passcode, typed into the OS prompt.")
    var passcode: String?

    @Flag(help: "Sign in with e-mail instead: signs out, keeping pending entries.")
    var email = false

    func validate() throws {
        guard [biometric, passcode != nil, email].filter({ $0 }).count <= 1 else {
            throw ValidationError("Choose one of --biometric, --passcode, --email.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            if email {
                app.signInWithEmail()
            } else if let passcode {
                (app.ports.biometrics as? SimulatedBiometrics)?.update { $0.typedPasscode = passcode }
                await app.unlock(with: .devicePasscode)?.value
            } else {
                await app.unlock(with: .biometrics)?.value
            }
        }
    }
}

/// `outpost device settings [biometric on|off] [lock-after SECONDS]`.
struct DeviceSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Show the settings, or change one: biometric on|off, lock-after SECONDS, close.")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "biometric, lock-after or close; none shows the settings.")
    var name: String?

    @Argument(help: "The value.")
    var value: String?

    func validate() throws {
        switch (name, value) {
        case (nil, _), ("close", nil): break
        case ("biometric", "on"?), ("biometric", "off"?): break
        case ("lock-after", let seconds?) where Double(seconds).map({ $0 >= 0 }) == true: break
        default: throw ValidationError("Use: settings [biometric on|off | lock-after SECONDS | close].")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            switch name {
            case "biometric"?:
                app.showSettings()
                app.setBiometricUnlock(value == "on")
            case "lock-after"?:
                app.showSettings()
                app.setLockAfter(seconds: Double(value ?? "") ?? 300)
            case "close"?:
                app.closeSettings()
            default:
                app.showSettings()
            }
        }
    }
}
