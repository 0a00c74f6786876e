import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// One switch of `outpost device sim`, parsed once from its name and values (`validate()` and
/// `run()` both read this; nothing is parsed again with a fallback).
enum SimSwitch: Equatable {
    enum Biometric: String, CaseIterable {
        case enrolled, none, match, noMatch = "no-match", cancel, lockout, changed
    }

    case network(on: Bool)
    case camera(CameraPermission)
    case battery(percent: Int)
    case os(PlatformInfo.OS, version: String)
    case clockSkew(seconds: Double)
    case background
    case foreground
    case migrationFailure(on: Bool)
    case damageOutboxRow
    case biometric(Biometric)
    case devicePasscode(String?)
    case kill
    case geofence(GeofenceRecord.Kind, LocationID, source: AccuracySource)
    case gps(GeoPoint?)
    case timeAdvance(seconds: Double)
    case timeFreeze(at: Date)
    case timeThaw
    case location(LocationPermission)
    case locale(AppLanguage)
    /// The simulated Bluetooth label printer: switched on or off, labels in or out.
    case printer(powered: Bool?, paper: Bool?)

    static let names = [
        "network", "camera", "battery", "os", "clock-skew", "background", "foreground", "migration-failure",
        "damage-outbox-row", "biometric", "device-passcode", "kill", "geofence", "gps", "time", "location", "locale",
        "printer",
    ]

    /// The switch `name` with `values` (and geofence's `--source`), or the sentence saying what is wrong.
    static func parse(_ name: String, _ values: [String], source: String) throws -> SimSwitch {
        func count(_ expected: Int) throws {
            guard values.count == expected else { throw ValidationError("'\(name)' takes \(expected) value(s).") }
        }
        func onOff() throws -> Bool {
            try count(1)
            guard ["on", "off"].contains(values[0]) else { throw ValidationError("'\(name)' is on or off.") }
            return values[0] == "on"
        }
        switch name {
        case "network": return .network(on: try onOff())
        case "migration-failure": return .migrationFailure(on: try onOff())
        case "camera":
            try count(1)
            guard let camera = CameraPermission(rawValue: values[0]) else {
                throw ValidationError("camera is granted or denied.")
            }
            return .camera(camera)
        case "battery":
            try count(1)
            guard let percent = Int(values[0]), (0...100).contains(percent) else {
                throw ValidationError("battery is a percentage from 0 to 100.")
            }
            return .battery(percent: percent)
        case "os":
            try count(2)
            guard let os = PlatformInfo.OS(rawValue: values[0]) else { throw ValidationError("os is ios or android.") }
            return .os(os, version: values[1])
        case "clock-skew":
            try count(1)
            guard let seconds = Double(values[0]) else {
                throw ValidationError("clock-skew is a number of seconds.")
            }
            return .clockSkew(seconds: seconds)
        case "background", "foreground", "damage-outbox-row", "kill":
            try count(0)
            return switch name {
            case "background": .background
            case "foreground": .foreground
            case "kill": .kill
            default: .damageOutboxRow
            }
        case "biometric":
            try count(1)
            guard let biometric = Biometric(rawValue: values[0]) else {
                let all = Biometric.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("biometric is one of \(all).")
            }
            return .biometric(biometric)
        case "device-passcode":
            try count(1)
            return .devicePasscode(values[0] == "none" ? nil : values[0])
        case "geofence":
            try count(2)
            guard let kind = GeofenceRecord.Kind(rawValue: values[0]), kind == .enter || kind == .exit else {
                throw ValidationError("geofence is enter or exit.")
            }
            guard let location = LocationID(wire: values[1]) else {
                throw ValidationError("geofence needs a location id (see `outpost device track locations`).")
            }
            guard let source = AccuracySource(rawValue: source) else {
                throw ValidationError("--source is event or active_fetch.")
            }
            return .geofence(kind, location, source: source)
        case "gps":
            if values == ["off"] { return .gps(nil) }
            guard values.count == 2, let latitude = Double(values[0]), let longitude = Double(values[1]) else {
                throw ValidationError("gps is LATITUDE LONGITUDE, or off.")
            }
            return .gps(GeoPoint(latitude: latitude, longitude: longitude))
        case "time":
            let wrong = ValidationError(
                "time is advance DURATION (e.g. 90s, 6m, 2h, 1d), freeze TIME (RFC 3339) or thaw.")
            switch values.first {
            case "advance" where values.count == 2:
                guard let seconds = seconds(values[1]) else { throw wrong }
                return .timeAdvance(seconds: seconds)
            case "freeze" where values.count == 2:
                guard let at = OutpostJSON.parse(values[1]) else { throw wrong }
                return .timeFreeze(at: at)
            case "thaw" where values.count == 1: return .timeThaw
            default: throw wrong
            }
        case "location":
            try count(1)
            guard let permission = LocationPermission(rawValue: values[0]) else {
                throw ValidationError("location is always, when-in-use or denied.")
            }
            return .location(permission)
        case "printer":
            try count(1)
            switch values[0] {
            case "on": return .printer(powered: true, paper: nil)
            case "off": return .printer(powered: false, paper: nil)
            case "paper-in": return .printer(powered: nil, paper: true)
            case "paper-out": return .printer(powered: nil, paper: false)
            default: throw ValidationError("printer is on, off, paper-in or paper-out.")
            }
        case "locale":
            try count(1)
            guard let language = AppLanguage(rawValue: values[0]) else { throw ValidationError("locale is en or de.") }
            return .locale(language)
        default:
            throw ValidationError("Unknown switch '\(name)'; see `outpost device sim --help`.")
        }
    }

    /// "90", "90s", "6m", "2h", "1d" in seconds.
    static func seconds(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let last = text.last, let unit = units[last], let value = Double(text.dropLast()), value >= 0 {
            return value * unit
        }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
