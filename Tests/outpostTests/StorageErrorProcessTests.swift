import Foundation
import Testing

/// A launch whose store cannot be opened is the storage-error screen and nothing else: the
/// command shows it, says why in one sentence, exits non-zero, and nothing is deleted.
@Suite("Storage error at launch (process)")
struct StorageErrorProcessTests {
    @Test(
        "storage-error-launch: a store that cannot be upgraded shows the storage-error screen, exits 3, keeps everything"
    )
    func storageErrorLaunch() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-storage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = ["--home", home.path, "--json"]
        let first = try await CLI.run(["device", "status"] + device)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try CLI.tree(first)["screen"] as? String == "native-shell-signin")
        let files = try FileManager.default.contentsOfDirectory(atPath: home.path).sorted()

        // The switch is kept; the launch it ends with already fails.
        let switched = try await CLI.run(["device", "sim", "migration-failure", "on"] + device)
        #expect(switched.status == 3)
        let failed = try await CLI.run(["device", "status"] + device)
        #expect(failed.status == 3, "a refusal: \(failed.stderr)")
        let tree = try CLI.tree(failed)
        #expect(tree["screen"] as? String == "native-shell-storage-migration-error")
        #expect(tree["visible"] as? [String] == ["native-shell-storage-migration-error"])
        let sentence = failed.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(sentence.hasPrefix("refused: This device's saved data could not be opened or upgraded"), "\(sentence)")
        #expect(sentence.split(separator: "\n").count == 1, "one sentence: \(sentence)")
        // Nothing deleted (that the rows survive a failed upgrade is app-update-migration-failure's).
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: home.path))
        #expect(Set(files).isSubset(of: after), "gone: \(Set(files).subtracting(after))")

        // Fixed (the next app version): the same store opens where it was.
        let fixed = try await CLI.run(["device", "sim", "migration-failure", "off"] + device)
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(try CLI.tree(fixed)["screen"] as? String == "native-shell-signin")
    }
}
