import ArgumentParser
import Foundation
import OutpostDevice

/// `outpost device sim ...`: the simulator's switches, like Detox's device API.
struct DeviceSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Flip a simulated platform switch.",
        discussion: """
            network on|off, camera granted|denied, battery PCT, os ios|android VERSION, \
            clock-skew SECONDS, background, foreground, migration-failure on|off, damage-outbox-row \
            (the newest pending entry becomes unreadable; prints its Idempotency-Key), \
            biometric enrolled|none|match|no-match|cancel|lockout|changed (the sensor and the OS \
            prompt: what the next prompts are shown, a lockout, a changed enrolment), \
            device-passcode CODE|none (the phone's own passcode; default 123456), kill (the app \
            process ends: the next command is a cold launch).
            """
    )

    @OptionGroup var device: DeviceOptions

    @Argument(
        help:
            "The switch: network, camera, battery, os, clock-skew, background, foreground, migration-failure, damage-outbox-row, biometric, device-passcode, kill."
    )
    var name: String

    @Argument(help: "Its value(s).")
    var values: [String] = []

    func validate() throws {
        let expected: [String: Int] = [
            "network": 1, "camera": 1, "battery": 1, "os": 2, "clock-skew": 1, "background": 0, "foreground": 0,
            "migration-failure": 1, "damage-outbox-row": 0, "biometric": 1, "device-passcode": 1, "kill": 0,
        ]
        guard let count = expected[name] else {
            throw ValidationError("Unknown switch '\(name)'; see `outpost device sim --help`.")
        }
        guard values.count == count else { throw ValidationError("'\(name)' takes \(count) value(s).") }
        switch name {
        case "network", "migration-failure":
            guard ["on", "off"].contains(values[0]) else { throw ValidationError("'\(name)' is on or off.") }
        case "camera":
            guard CameraPermission(rawValue: values[0]) != nil else {
                throw ValidationError("camera is granted or denied.")
            }
        case "battery":
            guard let percent = Int(values[0]), (0...100).contains(percent) else {
                throw ValidationError("battery is a percentage from 0 to 100.")
            }
        case "os":
            guard PlatformInfo.OS(rawValue: values[0]) != nil else { throw ValidationError("os is ios or android.") }
        case "clock-skew":
            guard Double(values[0]) != nil else { throw ValidationError("clock-skew is a number of seconds.") }
        case "biometric":
            guard Self.biometricValues.contains(values[0]) else {
                throw ValidationError("biometric is one of \(Self.biometricValues.joined(separator: ", ")).")
            }
        default: break
        }
    }

    static let biometricValues = ["enrolled", "none", "match", "no-match", "cancel", "lockout", "changed"]

    @MainActor
    func run() async throws {
        var settings = try SimulatorSettings.load(home: device.homeURL)
        switch name {
        case "network": settings.network = values[0] == "on"
        case "camera": settings.camera = CameraPermission(rawValue: values[0]) ?? .granted
        case "battery": settings.battery = Int(values[0]) ?? 100
        case "os":
            settings.platform = PlatformInfo(os: PlatformInfo.OS(rawValue: values[0]) ?? .ios, version: values[1])
        case "clock-skew": settings.clockSkew = Double(values[0]) ?? 0
        case "migration-failure": settings.migrationFailure = values[0] == "on"
        case "biometric":
            switch values[0] {
            case "enrolled":
                settings.biometric.enrolled = settings.platform.os == .ios ? .faceID : .fingerprint
                settings.biometric.presented = .match
                settings.biometric.lockedOut = false
                settings.biometric.failedMatches = 0
            case "none": settings.biometric.enrolled = nil
            case "match": settings.biometric.presented = .match
            case "no-match": settings.biometric.presented = .noMatch
            case "cancel": settings.biometric.presented = .cancel
            case "lockout": settings.biometric.lockedOut = true
            case "changed": settings.biometric.enrolment += 1
            default: break
            }
        case "device-passcode": settings.biometric.devicePasscode = values[0] == "none" ? nil : values[0]
        case "kill": try? FileManager.default.removeItem(at: SimulatorSettings.memoryURL(device.homeURL))
        default: break
        }
        try settings.save(home: device.homeURL)
        try await device.perform { app in
            switch name {
            case "background":
                app.background()
            case "foreground":
                await app.foreground().value
            case "damage-outbox-row":
                print("damaged-outbox-entry \(app.simulateDamagedOutboxEntry() ?? "none")")
            case "network" where settings.network:
                // The launch read the new switch; the app reacts as to the platform's report.
                await app.sync()
            default:
                break
            }
        }
    }
}
