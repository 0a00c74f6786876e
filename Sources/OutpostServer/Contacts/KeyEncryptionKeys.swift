import Crypto
import Foundation
import OutpostCore

/// The server's key-encryption keys (KEKs) for envelope encryption of contacts' sensitive
/// fields: each tenant's data key is stored wrapped (AES-GCM) by one of these, never in the clear.
///
/// A key ring has a current key, which wraps every new or re-wrapped data key, and may hold
/// older keys, which only unwrap. Rotation adds a new current key in front; each tenant's data
/// key is re-wrapped under it the next time it is used, and the data it encrypts is never
/// touched. Once no data key is wrapped by an old key, the old key can leave the ring.
///
/// The text form (a key file, or `OUTPOST_KEK`) is one key per line (or separated by commas),
/// current first: `<id>:<32 bytes as base64>`. Ids are short names (`k2026-11`).
public struct KeyEncryptionKeys: Sendable {
    public struct Key: Sendable {
        public var id: String
        public var key: SymmetricKey
    }

    public enum LoadError: Error, CustomStringConvertible, Equatable {
        case empty
        case malformed(line: Int)
        case duplicate(String)

        public var description: String {
            switch self {
            case .empty: "the key-encryption key ring is empty"
            case .malformed(let line):
                "key-encryption key \(line) is not '<id>:<32 bytes as base64>'"
            case .duplicate(let id): "the key-encryption key id '\(id)' appears twice"
            }
        }
    }

    public let current: Key
    private let byId: [String: SymmetricKey]

    public var ids: [String] { [current.id] + byId.keys.filter { $0 != current.id }.sorted() }

    public init(keys: [Key]) throws(LoadError) {
        guard let first = keys.first else { throw .empty }
        var byId: [String: SymmetricKey] = [:]
        for key in keys {
            guard byId[key.id] == nil else { throw .duplicate(key.id) }
            byId[key.id] = key.key
        }
        current = first
        self.byId = byId
    }

    /// Parses the text form (current key first).
    public init(text: String) throws(LoadError) {
        let entries = text.split(whereSeparator: { $0 == "\n" || $0 == "," }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, let bytes = Data(base64Encoded: parts[1]), bytes.count == 32
            else { throw .malformed(line: index + 1) }
            keys.append(Key(id: parts[0], key: SymmetricKey(data: bytes)))
        }
        try self.init(keys: keys)
    }

    /// A ring of one fresh random key (tests, and a server's first start).
    public static func generate(id: String = "k1") -> KeyEncryptionKeys {
        // A one-key ring is never empty and has no duplicate.
        try! KeyEncryptionKeys(keys: [Key(id: id, key: SymmetricKey(size: .bits256))])
    }

    /// The text form, current first.
    public var text: String {
        ids.map { id in
            let key = byId[id]!.withUnsafeBytes { Data($0).base64EncodedString() }
            return "\(id):\(key)"
        }.joined(separator: "\n") + "\n"
    }

    /// The ring with a new random key in front (rotation); every key stays to unwrap.
    public func rotated(newId: String) throws(LoadError) -> KeyEncryptionKeys {
        let older = ids.map { Key(id: $0, key: byId[$0]!) }
        return try KeyEncryptionKeys(keys: [Key(id: newId, key: SymmetricKey(size: .bits256))] + older)
    }

    /// Reads a key file; creates it (0600, one fresh key) when it does not exist and `create`.
    /// Creation is atomic (a complete temporary file hard-linked into place), so server instances
    /// starting together end up with the same one key.
    public static func load(file: URL, create: Bool) throws -> KeyEncryptionKeys {
        if !FileManager.default.fileExists(atPath: file.path), create {
            let fresh = generate(id: "k1")
            let directory = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
            guard
                FileManager.default.createFile(
                    atPath: temporary.path, contents: Data(fresh.text.utf8), attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown) }
            defer { try? FileManager.default.removeItem(at: temporary) }
            if (try? FileManager.default.linkItem(at: temporary, to: file)) != nil { return fresh }
            // Another process made it first: use theirs.
        }
        return try KeyEncryptionKeys(text: String(decoding: try Data(contentsOf: file), as: UTF8.self))
    }

    /// Wraps a tenant's data key under the current key; the tenant is bound as associated data,
    /// so a wrapped key copied to another tenant's row does not unwrap.
    func wrap(_ dataKey: SymmetricKey, tenantId: TenantID) throws -> (kekId: String, wrapped: [UInt8]) {
        let (kekId, sealed) = try seal(dataKey.withUnsafeBytes { Data($0) }, purpose: "data key", tenantId: tenantId)
        return (kekId, sealed)
    }

    /// Unwraps a data key wrapped by any key of the ring.
    func unwrap(_ wrapped: [UInt8], kekId: String, tenantId: TenantID) throws -> SymmetricKey {
        SymmetricKey(data: try open(wrapped, purpose: "data key", kekId: kekId, tenantId: tenantId))
    }

    /// Seals a tenant's secret (an identity provider's client secret) under the current key, bound
    /// to the tenant and to what it is for, so a sealed secret copied to another row, tenant or
    /// use does not open.
    func seal(secret: String, purpose: String, tenantId: TenantID) throws -> (kekId: String, sealed: [UInt8]) {
        try seal(Data(secret.utf8), purpose: purpose, tenantId: tenantId)
    }

    /// Opens a secret sealed by ``seal(secret:purpose:tenantId:)`` under any key of the ring.
    func open(secret sealed: [UInt8], purpose: String, kekId: String, tenantId: TenantID) throws -> String {
        String(decoding: try open(sealed, purpose: purpose, kekId: kekId, tenantId: tenantId), as: UTF8.self)
    }

    /// AES-GCM under the current key with `outpost <purpose>|<tenant>|<key id>` as associated
    /// data: what is sealed for one tenant, use or key opens for no other.
    private func seal(_ plain: Data, purpose: String, tenantId: TenantID) throws -> (kekId: String, sealed: [UInt8]) {
        let box = try AES.GCM.seal(
            plain, using: current.key, authenticating: Self.context(purpose, tenantId, current.id))
        guard let combined = box.combined else { throw EnvelopeError.cannotWrap }
        return (current.id, Array(combined))
    }

    /// Opens what ``seal(_:purpose:tenantId:)`` sealed, under any key of the ring.
    private func open(_ sealed: [UInt8], purpose: String, kekId: String, tenantId: TenantID) throws -> Data {
        guard let kek = byId[kekId] else { throw EnvelopeError.unknownKeyEncryptionKey(kekId) }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: kek, authenticating: Self.context(purpose, tenantId, kekId))
        } catch {
            throw EnvelopeError.cannotUnwrap(kekId)
        }
    }

    private static func context(_ purpose: String, _ tenantId: TenantID, _ kekId: String) -> Data {
        Data("outpost \(purpose)|\(tenantId.wire)|\(kekId)".utf8)
    }
}

/// Why a contact's sensitive fields could not be sealed or opened.
enum EnvelopeError: Error, CustomStringConvertible {
    case cannotWrap
    case unknownKeyEncryptionKey(String)
    case cannotUnwrap(String)
    case cannotOpen

    var description: String {
        switch self {
        case .cannotWrap: "a data key could not be wrapped"
        case .unknownKeyEncryptionKey(let id):
            "a tenant's data key is wrapped by key-encryption key '\(id)', which is not in the server's key ring"
        case .cannotUnwrap(let id): "a tenant's data key does not unwrap with key-encryption key '\(id)'"
        case .cannotOpen: "a contact's sensitive fields do not open with the tenant's data key"
        }
    }
}
