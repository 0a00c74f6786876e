import Foundation

/// A point on the earth, in degrees (WGS 84).
public struct GeoPoint: Codable, Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance in metres (haversine, mean earth radius).
    public func distance(to other: GeoPoint) -> Double {
        let radius = 6_371_008.8
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let dLat = (other.latitude - latitude) * .pi / 180
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * atan2(sqrt(a), sqrt(max(0, 1 - a)))
    }

    /// The point `metres` away on `bearing` degrees (for tests and synthetic traces).
    public func moved(metres: Double, bearing: Double) -> GeoPoint {
        let radius = 6_371_008.8
        let delta = metres / radius
        let theta = bearing * .pi / 180
        let lat1 = latitude * .pi / 180
        let lon1 = longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(delta) + cos(lat1) * sin(delta) * cos(theta))
        let lon2 = lon1 + atan2(sin(theta) * sin(delta) * cos(lat1), cos(delta) - sin(lat1) * sin(lat2))
        return GeoPoint(latitude: lat2 * 180 / .pi, longitude: lon2 * 180 / .pi)
    }
}

/// Where a fix's accuracy came from: the OS event itself (rare), an active GPS fetch made
/// because the event had none (the norm), or nothing (the fetch failed).
public enum AccuracySource: String, Codable, Sendable, Hashable {
    case event
    case activeFetch = "active_fetch"
}

/// A position with its horizontal accuracy (the radius, in metres, of the error circle).
public struct GeoFix: Codable, Sendable, Hashable {
    public var point: GeoPoint
    public var accuracy: Double
    public var source: AccuracySource

    public init(_ point: GeoPoint, accuracy: Double, source: AccuracySource = .activeFetch) {
        self.point = point
        self.accuracy = accuracy
        self.source = source
    }
}

/// A work location's fence: a circle.
public struct Fence: Codable, Sendable, Hashable {
    public var center: GeoPoint
    public var radius: Double

    public init(center: GeoPoint, radius: Double = 100) {
        self.center = center
        self.radius = radius
    }

    /// Whether a fix is inside, outside, or cannot say: confidently inside when its whole error
    /// circle is inside (distance + accuracy < radius), confidently outside when its whole error
    /// circle is outside (distance − accuracy > radius), else uncertain.
    public func confidence(of fix: GeoFix) -> FenceConfidence {
        let distance = center.distance(to: fix.point)
        if distance + fix.accuracy < radius { return .inside }
        if distance - fix.accuracy > radius { return .outside }
        return .uncertain
    }
}

/// What a fix says about a fence.
public enum FenceConfidence: String, Codable, Sendable, Hashable {
    case inside
    case outside
    case uncertain
}
