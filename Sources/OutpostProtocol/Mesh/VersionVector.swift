/// What a device holds of each author: the highest sequence number up to which it has every
/// entry. Two devices exchange vectors and send each other only what the other lacks.
public struct VersionVector: Hashable, Sendable, Codable {
    public private(set) var counts: [String: UInt64]

    public init(_ counts: [String: UInt64] = [:]) { self.counts = counts.filter { $0.value > 0 } }

    public subscript(author: String) -> UInt64 {
        get { counts[author] ?? 0 }
        set { counts[author] = newValue == 0 ? nil : newValue }
    }

    /// Whether this vector has everything `other` has.
    public func covers(_ other: VersionVector) -> Bool {
        other.counts.allSatisfy { self[$0.key] >= $0.value }
    }

    /// The entries summed: how many this vector holds.
    public var total: UInt64 { counts.values.reduce(0, +) }
}
