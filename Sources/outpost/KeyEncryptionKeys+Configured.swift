import ArgumentParser
import Foundation
import OutpostServer

extension KeyEncryptionKeys {
    /// The ring a server command uses: `OUTPOST_KEK` when set, else the key file (`--kek-file`,
    /// or `contact-keys` beside the SQLite file, or `./outpost-data/contact-keys`), created with
    /// one fresh key when missing.
    static func configured(file: String?, store: ServerConfiguration.StoreLocation) throws -> KeyEncryptionKeys {
        if let text = ProcessInfo.processInfo.environment["OUTPOST_KEK"], !text.isEmpty {
            do {
                return try KeyEncryptionKeys(text: text)
            } catch {
                throw ValidationError("OUTPOST_KEK: \(error)")
            }
        }
        let url = URL(fileURLWithPath: file ?? defaultFile(for: store))
        do {
            return try KeyEncryptionKeys.load(file: url, create: true)
        } catch {
            throw ValidationError("The key-encryption key file \(url.path): \(error)")
        }
    }

    static func defaultFile(for store: ServerConfiguration.StoreLocation) -> String {
        if case .sqlite(let path) = store {
            return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("contact-keys").path
        }
        return "./outpost-data/contact-keys"
    }
}
