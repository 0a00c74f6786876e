import Foundation
import OutpostCore

/// What a device knows of the mesh: the grow-only set of verified entries, every device's
/// included. Merging is set union, so it is commutative, associative and idempotent: whatever
/// order deltas arrive in, two devices holding the same entries are in the same state. Nothing
/// is ever removed; two admissions of one guest are both kept, and both shown.
///
/// The log stores entries already verified (``MeshTrust`` checks signatures and certificates);
/// it checks only what a set can: the author's numbering stays plausible.
public struct MeshLog: Sendable, Equatable {
    /// Every entry by its id.
    public private(set) var entries: [Data: MeshEntry] = [:]
    /// The entries by author and number (more than one under a number: a fork).
    private var byAuthor: [String: [UInt64: [MeshEntry]]] = [:]
    /// Each guest's admissions, in ``admissionOrder``.
    private var admitted: [GuestID: [MeshEntry]] = [:]
    /// Each author's highest contiguous number.
    public private(set) var vector = VersionVector()

    /// How far past an author's contiguous count a number may be and still be kept: a door
    /// makes a few thousand check-ins a day; a number beyond this is a rogue or broken device.
    public static let plausibleGap: UInt64 = 10_000

    public init() {}

    public static func == (lhs: MeshLog, rhs: MeshLog) -> Bool { lhs.entries == rhs.entries }

    public enum Insert: Equatable, Sendable {
        /// New: kept.
        case added
        /// Already held (a replay, or the same entry by another path): nothing changes.
        case known
        /// New, but another entry already has its author and number: kept, and a fork.
        case fork
    }

    public var count: Int { entries.count }

    /// Whether the log holds this very entry (checked before its signature is: relays send each
    /// entry to a door several times, and a P-256 verification is the costly part of taking one).
    public func contains(_ entry: MeshEntry) -> Bool { entries[Data(entry.id)] != nil }

    /// Adds a verified entry. Throws ``MeshRefusal/implausible`` for a number too far ahead.
    @discardableResult
    public mutating func insert(_ entry: MeshEntry) throws(MeshRefusal) -> Insert {
        let id = Data(entry.id)
        if entries[id] != nil { return .known }
        guard entry.seq <= vector[entry.author] + Self.plausibleGap else { throw MeshRefusal.implausible }
        entries[id] = entry
        let sameNumber = byAuthor[entry.author, default: [:]][entry.seq, default: []]
        byAuthor[entry.author, default: [:]][entry.seq, default: []].append(entry)
        byAuthor[entry.author]![entry.seq]!.sort { $0.id.lexicographicallyPrecedes($1.id) }
        if entry.kind == .admit {
            admitted[entry.guest, default: []].append(entry)
            admitted[entry.guest]!.sort(by: Self.admissionOrder)
        }
        if let numbers = byAuthor[entry.author] {
            var count = vector[entry.author]
            while numbers[count + 1] != nil { count += 1 }
            vector[entry.author] = count
        }
        return sameNumber.isEmpty ? .added : .fork
    }

    /// Adds every entry of `other`: the union.
    public mutating func merge(_ other: MeshLog) {
        for entry in other.entries.values { _ = try? insert(entry) }
    }

    /// What a peer at `remote` lacks: each author's entries past the peer's count and up to
    /// this log's own (an entry past a gap here would not move the peer's count either: it
    /// comes from whoever has the gap's entry), in number order, the authors taken in turns,
    /// at most `limit`. Taking turns keeps one author's backlog from filling every batch: a
    /// peer that cannot take it (it lacks the author's certificate, or refused an entry) would
    /// otherwise be sent the same entries at each push and never the other doors' (a 50-door
    /// soak found entries held back for over a minute that way).
    public func delta(since remote: VersionVector, limit: Int = .max) -> [MeshEntry] {
        var queues: [[MeshEntry]] = []
        for author in byAuthor.keys.sorted() where vector[author] > remote[author] {
            let numbers = byAuthor[author]!
            queues.append(((remote[author] + 1)...vector[author]).flatMap { numbers[$0] ?? [] })
        }
        var out: [MeshEntry] = []
        var taken = Array(repeating: 0, count: queues.count)
        var more = true
        while more, out.count < limit {
            more = false
            for index in queues.indices where taken[index] < queues[index].count && out.count < limit {
                out.append(queues[index][taken[index]])
                taken[index] += 1
                more = true
            }
        }
        return out
    }

    /// A guest's admissions, first first: by scan time, then author, then number, the same
    /// on every device.
    public func admissions(of guest: GuestID) -> [MeshEntry] { admitted[guest] ?? [] }

    /// Guests admitted more than once (a race inside the propagation bound, or a partition):
    /// every one kept, for the server to flag as it does any double check-in.
    public var duplicateAdmissions: [GuestID: [MeshEntry]] { admitted.filter { $0.value.count > 1 } }

    /// Forks: (author, number) pairs with more than one entry, or whose entry does not link
    /// to the author's entry before it.
    public var forks: [MeshFork] {
        var out: [MeshFork] = []
        for (author, numbers) in byAuthor {
            for (seq, held) in numbers {
                let linked: Bool
                if seq == 1 {
                    linked = held.allSatisfy { $0.previous == MeshEntry.noPrevious }
                } else if let before = numbers[seq - 1] {
                    let ids = Set(before.map(\.id))
                    linked = held.allSatisfy { ids.contains($0.previous) }
                } else {
                    linked = true
                }
                if held.count > 1 || !linked { out.append(MeshFork(author: author, seq: seq)) }
            }
        }
        return out.sorted { ($0.author, $0.seq) < ($1.author, $1.seq) }
    }

    /// The author's newest entry (for the next entry's ``MeshEntry/previous``).
    public func last(of author: String) -> MeshEntry? {
        let count = vector[author]
        return count == 0 ? nil : byAuthor[author]?[count]?.first
    }

    static func admissionOrder(_ a: MeshEntry, _ b: MeshEntry) -> Bool {
        if (a.scannedAt, a.author, a.seq) != (b.scannedAt, b.author, b.seq) {
            return (a.scannedAt, a.author, a.seq) < (b.scannedAt, b.author, b.seq)
        }
        return a.id.lexicographicallyPrecedes(b.id)
    }
}

/// An author's number under which the log holds conflicting entries.
public struct MeshFork: Hashable, Sendable {
    public var author: String
    public var seq: UInt64

    public init(author: String, seq: UInt64) {
        self.author = author
        self.seq = seq
    }
}
