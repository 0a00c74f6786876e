import Foundation

/// One message between two doors, inside their mutual-TLS session: a hello (the sender's
/// certificate and version vector), a batch of entries, or a heartbeat. On the wire each frame
/// is a 4-byte big-endian length and that many bytes; a frame over ``maximumSize`` ends the
/// session (``MeshRefusal/oversize``).
public enum MeshFrame: Sendable, Hashable {
    case hello(MeshHello)
    case batch(MeshBatch)
    case ping

    public static let maximumSize = 64 * 1024

    public var encoded: [UInt8] {
        var bytes = MeshBytes()
        switch self {
        case .hello(let hello):
            bytes.append(byte: 1)
            bytes.append(bytes: hello.certificate)
            let counts = hello.vector.counts.sorted { $0.key < $1.key }
            bytes.append(unsigned: UInt64(counts.count))
            for (author, count) in counts {
                bytes.append(string: author)
                bytes.append(unsigned: count)
            }
        case .batch(let batch):
            bytes.append(byte: 2)
            bytes.append(unsigned: UInt64(batch.certificates.count))
            for certificate in batch.certificates { bytes.append(bytes: certificate) }
            bytes.append(unsigned: UInt64(batch.revocations.count))
            for revocation in batch.revocations {
                bytes.append(bytes: revocation.serial)
                bytes.append(int: revocation.at)
                bytes.append(bytes: revocation.signature)
            }
            bytes.append(unsigned: UInt64(batch.entries.count))
            for entry in batch.entries { bytes.append(bytes: entry.encoded) }
        case .ping:
            bytes.append(byte: 3)
        }
        return bytes.bytes
    }

    /// Decodes a frame's bytes (without the length); anything else is a thrown
    /// ``MeshRefusal``, never a trap.
    public init(decoding bytes: [UInt8]) throws(MeshRefusal) {
        guard bytes.count <= Self.maximumSize else { throw .oversize }
        do {
            var reader = MeshReader(bytes)
            func count(_ limit: Int) throws -> Int {
                let value = try reader.unsigned()
                guard value <= UInt64(limit) else { throw MeshRefusal.malformed }
                return Int(value)
            }
            switch try reader.byte() {
            case 1:
                let certificate = try reader.lengthPrefixed()
                var vector = VersionVector()
                for _ in 0..<(try count(10_000)) {
                    let author = try reader.string()
                    vector[author] = try reader.unsigned()
                }
                self = .hello(MeshHello(certificate: certificate, vector: vector))
            case 2:
                var certificates: [[UInt8]] = []
                for _ in 0..<(try count(1_000)) { certificates.append(try reader.lengthPrefixed()) }
                var revocations: [MeshRevocation] = []
                for _ in 0..<(try count(10_000)) {
                    revocations.append(
                        MeshRevocation(
                            serial: try reader.lengthPrefixed(), at: try reader.int(),
                            signature: try reader.lengthPrefixed()))
                }
                var entries: [MeshEntry] = []
                for _ in 0..<(try count(MeshBatch.maximumEntries)) {
                    entries.append(try MeshEntry(decoding: try reader.lengthPrefixed()))
                }
                self = .batch(MeshBatch(certificates: certificates, revocations: revocations, entries: entries))
            case 3:
                self = .ping
            default:
                throw MeshRefusal.malformed
            }
            guard reader.remaining == 0 else { throw MeshRefusal.malformed }
        } catch let refusal as MeshRefusal {
            throw refusal
        } catch {
            throw .malformed
        }
    }
}
