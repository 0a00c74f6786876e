import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// `outpost device sim ...`: the simulator's switches, like Detox's device API.
struct DeviceSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Flip a simulated platform switch.",
        discussion: """
            network on|off, camera granted|denied, battery PCT, os ios|android VERSION, \
            clock-skew SECONDS, background, foreground, migration-failure on|off, damage-outbox-row \
            (the newest pending check-in becomes unreadable; prints its Idempotency-Key), \
            biometric enrolled|none|match|no-match|cancel|lockout|changed (the sensor and the OS \
            prompt: what the next prompts are shown, a lockout, a changed enrolment), \
            device-passcode CODE|none (the phone's own passcode; default 123456), kill (the app \
            process ends: the next command is a cold launch); time tracking: geofence enter|exit \
            LOCATION_ID [--accuracy M] [--no-fix] [--distance M] [--source event|active_fetch] \
            (the OS region monitor's event; the fix is the sim GPS position, or --distance metres \
            from the location's centre), gps LAT LON [--accuracy M] | gps off (the position an \
            active fetch finds), time advance DURATION (90s, 6m, 2h, 1d: time passes in the \
            background; due exit checks run), time freeze TIME (the clock stands at an RFC 3339 time \
            until advanced: screens that show today stay the same), time thaw, location always|when-in-use|denied (the location \
            permission), locale en|de (the phone's language), printer on|off|paper-in|paper-out (the \
            simulated Bluetooth label printer).
            """
    )

    @OptionGroup var device: DeviceOptions

    @Argument(
        help:
            "The switch: network, camera, battery, os, clock-skew, background, foreground, migration-failure, damage-outbox-row, biometric, device-passcode, kill, geofence, gps, time, location, locale, printer."
    )
    var name: String

    @Argument(help: "Its value(s).")
    var values: [String] = []

    @Option(help: "geofence, gps: the fix's horizontal accuracy in metres.")
    var accuracy: Double?

    @Flag(name: .customLong("no-fix"), help: "geofence: the event comes without any position.")
    var noFix = false

    @Option(help: "geofence: the fix lies this many metres from the location's centre.")
    var distance: Double?

    @Option(help: "geofence: where the fix came from, event or active_fetch (default).")
    var source: String = "active_fetch"

    func validate() throws { _ = try change() }

    /// The switch this invocation flips.
    func change() throws -> SimSwitch { try SimSwitch.parse(name, values, source: source) }

    @MainActor
    func run() async throws {
        let change = try change()
        var settings = try SimulatorSettings.load(home: device.homeURL)
        switch change {
        case .network(let on): settings.network = on
        case .camera(let camera): settings.camera = camera
        case .battery(let percent): settings.battery = percent
        case .os(let os, let version): settings.platform = PlatformInfo(os: os, version: version)
        case .clockSkew(let seconds): settings.clockSkew = seconds
        case .migrationFailure(let on): settings.migrationFailure = on
        case .biometric(let biometric):
            switch biometric {
            case .enrolled:
                settings.biometric.enrolled = settings.platform.os == .ios ? .faceID : .fingerprint
                settings.biometric.presented = .match
                settings.biometric.lockedOut = false
                settings.biometric.failedMatches = 0
            case .none: settings.biometric.enrolled = nil
            case .match: settings.biometric.presented = .match
            case .noMatch: settings.biometric.presented = .noMatch
            case .cancel: settings.biometric.presented = .cancel
            case .lockout: settings.biometric.lockedOut = true
            case .changed: settings.biometric.enrolment += 1
            }
        case .devicePasscode(let passcode): settings.biometric.devicePasscode = passcode
        case .kill:
            // The app's memory is gone with its process; a file already gone is the same.
            try? FileManager.default.removeItem(at: SimulatorSettings.memoryURL(device.homeURL))
        case .gps(let point): settings.gps = point.map { GeoFix($0, accuracy: accuracy ?? 20) }
        case .timeAdvance(let seconds): settings.clockSkew += seconds
        case .timeFreeze(let at):
            settings.frozenAt = at
            settings.clockSkew = 0
        case .timeThaw:
            // The clock runs again from the moment it showed.
            if let frozen = settings.frozenAt { settings.clockSkew += frozen.timeIntervalSinceNow }
            settings.frozenAt = nil
        case .location(let permission): settings.locationPermission = permission
        case .locale(let language): settings.language = language
        case .printer(let powered, let paper):
            if let powered { settings.printer.powered = powered }
            if let paper { settings.printer.paper = paper }
        case .background, .foreground, .damageOutboxRow, .geofence: break
        }
        try settings.save(home: device.homeURL)
        try await device.perform { app in
            switch change {
            case .background:
                app.background()
            case .foreground:
                await app.foreground().value
            case .damageOutboxRow:
                print("damaged-outbox-entry \(app.simulateDamagedOutboxEntry(kind: .checkIn) ?? "none")")
            case .geofence(let kind, let id, let source):
                let fence = app.workLocations.first { $0.id == id }?.fence
                app.geofence(kind, location: id, fix: fix(fence, settings.gps, kind: kind, source: source))
            case .timeAdvance:
                app.backgroundTimePassed()
            case .printer:
                // The app asks the printer as it would on its next run: badges waiting print now.
                await app.runPrintQueue()
            case .network where settings.network:
                // The launch read the new switch; the app reacts as to the platform's report.
                await app.sync()
            default:
                break
            }
        }
    }
}

extension DeviceSimCommand {
    /// The fix a boundary event carries: none with --no-fix; --distance metres east of the
    /// fence's centre; else the simulated GPS position; else the centre (enter) or well outside
    /// it (exit).
    func fix(_ fence: Fence?, _ gps: GeoFix?, kind: GeofenceRecord.Kind, source: AccuracySource) -> GeoFix? {
        guard !noFix, let fence else { return nil }
        if distance == nil, let gps {
            return GeoFix(gps.point, accuracy: accuracy ?? gps.accuracy, source: source)
        }
        let metres = distance ?? (kind == .enter ? 0 : fence.radius * 1.5 + 50)
        return GeoFix(fence.center.moved(metres: metres, bearing: 90), accuracy: accuracy ?? 20, source: source)
    }
}
