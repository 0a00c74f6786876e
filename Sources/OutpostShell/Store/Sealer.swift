import Crypto
import Foundation

/// Seals what the device stores: AES-GCM boxes under a key derived from the master key, and
/// HMAC "blind index" values for exact lookups (a code or e-mail is found by its HMAC, never
/// stored in the clear).
package struct Sealer: Sendable {
    private let sealingKey: SymmetricKey
    private let indexKey: SymmetricKey
    /// HMAC with the index key already absorbed: each blind index copies it instead of keying
    /// a new HMAC (two SHA-256 blocks saved per value; roster sync computes two per guest).
    private let keyedIndex: HMAC<SHA256>
    // Made once, never mutated: `encode`/`decode` keep their state per call, so sharing them is
    // safe, and it saves building a coder per sealed row (measurable over 100,000 guests).
    nonisolated(unsafe) private let encoder = JSONEncoder.outpostDevice
    nonisolated(unsafe) package let decoder = JSONDecoder.outpostDevice

    package init(masterKey: SymmetricKey) {
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("outpost-device-seal-v1".utf8), outputByteCount: 32)
        indexKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: masterKey, info: Data("outpost-device-index-v1".utf8), outputByteCount: 32)
        keyedIndex = HMAC<SHA256>(key: indexKey)
    }

    package func seal(_ plaintext: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: sealingKey).combined else {
            throw SealError.cannotSeal
        }
        return combined
    }

    package func open(_ box: Data) throws -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: box), using: sealingKey)
        } catch {
            throw SealError.cannotOpen
        }
    }

    /// Seals `plaintext` bound to `context` (authenticated, not stored): the box opens only
    /// with the same context, so a box moved to another place in the store does not open there.
    package func seal(_ plaintext: Data, authenticating context: Data) throws -> Data {
        guard let combined = try AES.GCM.seal(plaintext, using: sealingKey, authenticating: context).combined else {
            throw SealError.cannotSeal
        }
        return combined
    }

    package func open(_ box: Data, authenticating context: Data) throws -> Data {
        do {
            return try AES.GCM.open(AES.GCM.SealedBox(combined: box), using: sealingKey, authenticating: context)
        } catch {
            throw SealError.cannotOpen
        }
    }

    package func seal<T: Encodable>(json value: T) throws -> Data {
        try seal(try encoder.encode(value))
    }

    package func open<T: Decodable>(json box: Data, as type: T.Type) throws -> T {
        try decoder.decode(type, from: try open(box))
    }

    /// The blind index of a lookup key: case-folded, trimmed, HMAC-SHA256, first 16 bytes.
    package func blind(_ value: String) -> Data {
        var hmac = keyedIndex
        hmac.update(data: Array(Self.normalized(value).utf8))
        return Data(hmac.finalize().prefix(16))
    }

    /// An HMAC over these exact strings (not folded): equal only when every one is equal. The
    /// roster compares guests' search keys by it without unsealing them.
    package func digest(_ parts: [String]) -> Data {
        var hmac = keyedIndex
        hmac.update(data: Array("digest".utf8))
        var bytes: [UInt8] = []
        for part in parts { ByteLayout.append(part, to: &bytes) }  // length-prefixed: no two lists collide
        hmac.update(data: bytes)
        return Data(hmac.finalize().prefix(16))
    }

    /// Trimmed and lower-cased. Plain ASCII without surrounding spaces (codes, most e-mails)
    /// skips Foundation, which profiling showed costs more than the HMAC itself.
    package static func normalized(_ value: String) -> String {
        let utf8 = value.utf8
        if utf8.allSatisfy({ $0 < 0x80 }), let first = utf8.first, let last = utf8.last, first > 0x20, last > 0x20 {
            return value.lowercased()
        }
        return value.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}

/// The store's contents could not be sealed or unsealed (a wrong key, or damaged data).
package enum SealError: Error {
    case cannotSeal
    case cannotOpen
}

extension JSONEncoder {
    package static var outpostDevice: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }
}

extension JSONDecoder {
    package static var outpostDevice: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }
}
