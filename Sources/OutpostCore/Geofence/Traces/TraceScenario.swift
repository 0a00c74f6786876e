import Foundation

/// Synthetic working days, seeded so every run makes the same trace: a
/// worker leaves home at 07:30, works inside a 100 m fence from 08:00 to 16:00, is home by
/// 16:30 and opens the app at 20:00. Each scenario adds one thing phones do in the field.
public enum TraceScenario: String, CaseIterable, Codable, Sendable {
    /// GPS noise only (σ 8 m, accuracy 8–25 m).
    case noise
    /// 11:00–11:40 the fix drifts 160 m away (multipath indoors) with accuracy 90–140 m,
    /// while the worker stays inside.
    case drift
    /// 12:00–12:40 the worker walks along the fence edge (70–130 m), crossing it again and again.
    case flapping
    /// Leaving through a tunnel: 16:00–16:20 only coarse positions; a GPS fetch finds nothing.
    case tunnel
    /// The OS delivers the EXIT 3 minutes late (iOS).
    case lateExit3m = "late-exit-3m"
    /// The OS delivers the EXIT 4 hours late (Android in Doze).
    case lateExit4h = "late-exit-4h"
    /// The battery dies inside at 12:00; the phone is switched on at home at 19:00.
    case diesInside = "dies-inside"
    /// Arriving through an underground garage: the ENTER comes when no GPS fix can be had.
    case arriveNoFix = "arrive-no-fix"

    /// The fence every synthetic day uses (Berlin, 100 m).
    public static let fence = Fence(center: GeoPoint(latitude: 52.52, longitude: 13.405), radius: 100)
    /// Monday 2026-11-16, 00:00 UTC.
    public static let day = Date(timeIntervalSince1970: 1_794_787_200)

    public func trace(seed: UInt64) -> GeoTrace {
        var random = SeededRandom(seed: seed &+ UInt64(Self.allCases.firstIndex(of: self)!) &* 7919)
        let fence = Self.fence
        let homeBearing = 200.0
        let workBearing = Double.random(in: 0..<360, using: &random)
        func at(_ hours: Double) -> Date { Self.day.addingTimeInterval(hours * 3600) }
        // The true distance from the fence's centre at time t (hours), and the bearing.
        func truth(_ hours: Double) -> (distance: Double, bearing: Double) {
            switch hours {
            case ..<7.5: return (2_000, homeBearing)
            case ..<8: return (2_000 - (hours - 7.5) / 0.5 * 1_980, homeBearing)
            case ..<16:
                if self == .flapping, (12..<12.667).contains(hours) {
                    return (100 + 30 * sin((hours - 12) * 2 * .pi / (8.0 / 60)), workBearing)
                }
                return (30 + 15 * sin(hours * 1.7), workBearing + 40 * sin(hours * 0.9))
            case ..<16.5: return (20 + (hours - 16) / 0.5 * 1_980, homeBearing)
            default: return (2_000, homeBearing)
            }
        }
        var fixes: [TraceFix] = []
        var inside: [TraceInterval] = []
        var enteredAt: Date?
        var hours = 7.5
        while hours <= 20.5 {
            let time = at(hours)
            let (distance, bearing) = truth(hours)
            let real = fence.center.moved(metres: distance, bearing: bearing)
            if distance < fence.radius {
                if enteredAt == nil { enteredAt = time }
            } else if let start = enteredAt {
                inside.append(TraceInterval(start, time))
                enteredAt = nil
            }
            var noise = Self.gaussian(&random) * 8
            var accuracy = Double.random(in: 8...25, using: &random)
            var gps = true
            var offset = 0.0
            switch self {
            case .drift where (11..<11.667).contains(hours):
                offset = 160 * min(1, (hours - 11) * 6, (11.667 - hours) * 6)
                accuracy = Double.random(in: 90...140, using: &random)
            case .tunnel where (16..<16.333).contains(hours):
                gps = false
                accuracy = 400
                noise = Self.gaussian(&random) * 150
            case .arriveNoFix where (7.9..<8.25).contains(hours):
                gps = false
                accuracy = 300
            default:
                break
            }
            let observed = real.moved(metres: abs(noise), bearing: noise >= 0 ? 45 : 225)
                .moved(metres: offset, bearing: 90)
            fixes.append(TraceFix(time: time, point: observed, accuracy: accuracy, gps: gps))
            hours += 30.0 / 3600
        }
        if let start = enteredAt { inside.append(TraceInterval(start, at(20.5))) }
        var platform = TracePlatform(foregrounds: [at(20)])
        switch self {
        case .lateExit3m: platform.exitDelay = 180
        case .lateExit4h: platform.exitDelay = 4 * 3600
        case .diesInside:
            platform.phoneOff = [TraceInterval(at(12), at(19))]
            platform.foregrounds = [at(19), at(20)]
        default: break
        }
        return GeoTrace(
            name: "\(rawValue)-\(seed)", fence: fence, fixes: fixes, platform: platform, truth: inside)
    }

    /// A standard normal draw (Box–Muller).
    static func gaussian(_ random: inout SeededRandom) -> Double {
        let u1 = max(Double.random(in: 0..<1, using: &random), .leastNonzeroMagnitude)
        let u2 = Double.random(in: 0..<1, using: &random)
        return sqrt(-2 * log(u1)) * cos(2 * .pi * u2)
    }
}
