import Crypto
import Foundation

#if canImport(Security)
import Security
#endif

/// Where the device's master key lives: the one secret that unseals the local store. It also
/// keeps small records that must outlive the app's own files being deleted or put back from an
/// older copy (the kiosk's guard): on Apple platforms Keychain items, which live outside the
/// app's container and its restorable data.
public protocol KeyStore: Sendable {
    /// The master key, created on first use.
    func masterKey() throws -> SymmetricKey
    /// A record by name, nil when none was written.
    func record(named name: String) throws -> Data?
    /// Writes (replaces) a record.
    func setRecord(named name: String, _ data: Data) throws
}

/// Why the key store could not give a key.
public enum KeyStoreError: Error, CustomStringConvertible {
    case unreadable(String)
    case wrongSize(Int)

    public var description: String {
        switch self {
        case .unreadable(let reason): "the device key could not be read: \(reason)"
        case .wrongSize(let size): "the device key file holds \(size) bytes, not 32; it is damaged"
        }
    }
}

/// Linux: a 32-byte key in a file only its owner may read (mode 0600).
public struct FileKeyStore: KeyStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func masterKey() throws -> SymmetricKey {
        let manager = FileManager.default
        if let data = manager.contents(atPath: url.path) {
            guard data.count == 32 else { throw KeyStoreError.wrongSize(data.count) }
            return SymmetricKey(data: data)
        }
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Data($0) }
        // Write to a temporary file with 0600 and link it into place, so a crash never leaves a
        // half-written key and two launches racing agree on one key.
        let temporary = url.appendingPathExtension("tmp-\(UUID().uuidString)")
        guard manager.createFile(atPath: temporary.path, contents: bytes, attributes: [.posixPermissions: 0o600]) else {
            throw KeyStoreError.unreadable("cannot create \(temporary.path)")
        }
        // The temporary name is linked or gone already; a leftover is a stray file, not a key.
        defer { try? manager.removeItem(at: temporary) }
        if link(temporary.path, url.path) != 0, errno != EEXIST {
            throw KeyStoreError.unreadable(String(cString: strerror(errno)))
        }
        guard let stored = manager.contents(atPath: url.path), stored.count == 32 else {
            throw KeyStoreError.unreadable("cannot read \(url.path) back")
        }
        return SymmetricKey(data: stored)
    }
}

extension FileKeyStore {
    /// Records live beside the key, one 0600 file each, outside the store they guard.
    private func recordURL(_ name: String) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".records")
            .appendingPathComponent(name)
    }

    public func record(named name: String) throws -> Data? {
        FileManager.default.contents(atPath: recordURL(name).path)
    }

    /// Written to a temporary file and renamed over the record (a reader sees the old record or
    /// the new, never half of one), with plain system calls: the venue mesh writes one at each
    /// confirm. The folder is made on the first write.
    public func setRecord(named name: String, _ data: Data) throws {
        let target = recordURL(name)
        let temporary = target.appendingPathExtension("tmp-\(UUID().uuidString)")
        var descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if descriptor < 0, errno == ENOENT {
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        guard descriptor >= 0 else {
            throw KeyStoreError.unreadable("cannot create \(temporary.path): \(String(cString: strerror(errno)))")
        }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, rename(temporary.path, target.path) == 0 else {
            let why = String(cString: strerror(errno))
            // Tidying only: the error below is the one that matters.
            unlink(temporary.path)
            throw KeyStoreError.unreadable("cannot write \(target.path): \(why)")
        }
    }
}

/// A key held in memory only: for tests.
public final class InMemoryKeyStore: KeyStore, @unchecked Sendable {
    private let key = SymmetricKey(size: .bits256)
    private let lock = NSLock()
    private var records: [String: Data] = [:]
    public init() {}
    public func masterKey() throws -> SymmetricKey { key }
    public func record(named name: String) throws -> Data? { lock.withLock { records[name] } }
    public func setRecord(named name: String, _ data: Data) throws { lock.withLock { records[name] = data } }
}

#if canImport(Security)
/// Apple platforms: the key in the Keychain, readable only while the device is unlocked and
/// never migrated to another device.
public struct KeychainKeyStore: KeyStore {
    public let service: String
    public let account: String

    public init(service: String = "app.outpost.device", account: String = "master-key") {
        self.service = service
        self.account = account
    }

    public func masterKey() throws -> SymmetricKey {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecSuccess, let data = item as? Data {
            guard data.count == 32 else { throw KeyStoreError.wrongSize(data.count) }
            return SymmetricKey(data: data)
        }
        guard status == errSecItemNotFound else { throw KeyStoreError.unreadable("Keychain status \(status)") }
        let key = SymmetricKey(size: .bits256)
        let add: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: key.withUnsafeBytes { Data($0) },
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let added = SecItemAdd(add as CFDictionary, nil)
        guard added == errSecSuccess || added == errSecDuplicateItem else {
            throw KeyStoreError.unreadable("Keychain status \(added)")
        }
        return added == errSecDuplicateItem ? try masterKey() : key
    }

    public func record(named name: String) throws -> Data? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service + ".records",
            kSecAttrAccount as String: name, kSecReturnData as String: true,
        ]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeyStoreError.unreadable("Keychain status \(status)") }
        return item as? Data
    }

    public func setRecord(named name: String, _ data: Data) throws {
        let match: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service + ".records",
            kSecAttrAccount as String: name,
        ]
        let updated = SecItemUpdate(match as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if updated == errSecItemNotFound {
            var add = match
            add[kSecValueData as String] = data
            add[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let added = SecItemAdd(add as CFDictionary, nil)
            guard added == errSecSuccess else { throw KeyStoreError.unreadable("Keychain status \(added)") }
        } else if updated != errSecSuccess {
            throw KeyStoreError.unreadable("Keychain status \(updated)")
        }
    }
}
#endif
