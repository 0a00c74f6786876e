import ArgumentParser
import Foundation
import OutpostServer

#if canImport(Glibc)
import Glibc
#endif

/// `outpost admin rotate-kek`: puts a new key-encryption key in front of the key file's ring.
struct RotateKEKCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-kek",
        abstract: "Add a new current key-encryption key to a key file (rotation without re-encrypting data).",
        discussion: """
            The new key wraps every tenant's data key from the next time the server uses it (the \
            server re-wraps on use; the contacts' encrypted fields are never rewritten). The old \
            keys stay in the file to unwrap keys not yet re-wrapped. Restart every server \
            instance with the new file. Prints the ring's key ids, current first.
            """
    )

    @Option(name: .customLong("kek-file"), help: ArgumentHelp("The key file to rotate.", valueName: "file"))
    var kekFile: String

    @Option(help: "The new key's id (default: k<unix time>).")
    var id: String?

    func run() throws {
        let url = URL(fileURLWithPath: kekFile)
        let ring = try KeyEncryptionKeys.load(file: url, create: false)
        let rotated = try ring.rotated(newId: id ?? "k\(Int(Date().timeIntervalSince1970))")
        // The new ring is written whole (0600 from the start) beside the file, then renamed over
        // it: a crash leaves the old file or the new one, never half of either.
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString)")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: Data(rotated.text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw ValidationError("Could not write beside \(url.path).") }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw ValidationError("Could not replace \(url.path): \(String(cString: strerror(errno))).")
        }
        print(rotated.ids.joined(separator: " "))
    }
}
