import Foundation

/// What a device says when it meets a peer: who it is (its certificate, which the peer checks),
/// for which event, and what it holds (its version vector), so the peer sends only the rest.
public struct MeshHello: Sendable, Hashable {
    public var certificate: [UInt8]
    public var vector: VersionVector

    public init(certificate: [UInt8], vector: VersionVector) {
        self.certificate = certificate
        self.vector = vector
    }
}

/// Entries for a peer: the certificates of their authors (a peer may not have met them: entries
/// travel through relays) and what the authority revoked, so each entry can be checked where it
/// arrives.
public struct MeshBatch: Sendable, Hashable {
    public var certificates: [[UInt8]]
    public var revocations: [MeshRevocation]
    public var entries: [MeshEntry]

    /// At most this many entries in one batch (a frame stays under 64 KiB with room to spare:
    /// an entry is about 250 bytes).
    public static let maximumEntries = 150

    public init(certificates: [[UInt8]], revocations: [MeshRevocation], entries: [MeshEntry]) {
        self.certificates = certificates
        self.revocations = revocations
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty && revocations.isEmpty }

    /// A batch of as many of `entries` (in order) as fit one frame with their authors'
    /// certificates and the revocations: at most ``maximumEntries``, and never over
    /// ``MeshFrame/maximumSize`` (a frame over it ends the session at the other end; with fifty
    /// authors the certificates alone are 28 KB).
    public static func fitting(
        _ entries: [MeshEntry], revocations: [MeshRevocation], certificate: (String) -> [UInt8]?
    ) -> MeshBatch {
        var size = 1 + 8 * 3 + revocations.reduce(0) { $0 + $1.serial.count + $1.signature.count + 12 }
        var batch = MeshBatch(certificates: [], revocations: revocations, entries: [])
        var authors: Set<String> = []
        for entry in entries.prefix(maximumEntries) {
            let newAuthor = !authors.contains(entry.author)
            let certificate = newAuthor ? certificate(entry.author) : nil
            let cost = entry.encoded.count + 2 + (certificate.map { $0.count + 2 } ?? 0)
            guard size + cost <= MeshFrame.maximumSize else { break }
            size += cost
            batch.entries.append(entry)
            if newAuthor {
                authors.insert(entry.author)
                if let certificate { batch.certificates.append(certificate) }
            }
        }
        return batch
    }
}

/// What a device made of a batch: new entries kept, ones it already had, and each refusal by
/// reason (a refused certificate or entry ends nothing but itself).
public struct MeshReceipt: Sendable, Hashable {
    public var added = 0
    public var known = 0
    public var forks = 0
    public var refused: [MeshRefusal: Int] = [:]

    public init() {}

    public mutating func refuse(_ reason: MeshRefusal) { refused[reason, default: 0] += 1 }
}
