import Foundation

/// Every file of a device home, read byte by byte (the store, its WAL, keys, settings), for the
/// encryption-at-rest scans.
enum DeviceFiles {
    static func readAll(_ home: URL) throws -> [(name: String, bytes: Data)] {
        var files: [(String, Data)] = []
        let enumerator = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let bytes = FileManager.default.contents(atPath: url.path) {
                files.append((url.lastPathComponent, bytes))
            }
        }
        return files
    }

    /// True when any file holds `secret` as UTF-8, lower-cased UTF-8 or UTF-16.
    static func contains(_ files: [(name: String, bytes: Data)], _ secret: String) -> Bool {
        let encodings = [Data(secret.utf8), Data(secret.lowercased().utf8), secret.data(using: .utf16LittleEndian)!]
        return files.contains { file in encodings.contains { file.bytes.range(of: $0) != nil } }
    }
}
