import ArgumentParser
import Foundation
import OutpostLab
import OutpostProtocol

/// `outpost soak-worker`: one device of the soak (``SoakWorker``), as its own process, until it
/// is killed. `--drain` syncs until the outbox is empty and prints the ledger as one JSON line.
struct SoakWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak-worker",
        abstract: "One device of `outpost soak` (started and killed by the soak).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The device's state directory (signed in, event open).", valueName: "dir"))
    var home: String

    @Option(help: ArgumentHelp("A file with one ticket text per line (QR contents).", valueName: "path"))
    var tickets: String?

    @Option(help: "Seed of this worker's choices.")
    var seed: UInt64 = 1

    @Option(name: .customLong("hot-seed"), help: "Seed shared by all workers for the guest they all scan at once.")
    var hotSeed: UInt64 = 1

    @Option(help: "Stop after this many scans (the soak kills workers long before).")
    var scans = 1_000_000

    @Flag(help: "Sync until the outbox is empty, then print the ledger as JSON.")
    var drain = false

    func validate() throws {
        if !drain, tickets == nil { throw ValidationError("--tickets is required unless --drain is given.") }
    }

    @MainActor
    func run() async throws {
        let worker = try SoakWorker(app: try DeviceOptions.parse(["--home", home]).launch())
        if drain {
            print(String(decoding: try OutpostJSON.encode(await worker.drain()), as: UTF8.self))
            return
        }
        let texts = try String(contentsOfFile: tickets ?? "", encoding: .utf8).split(separator: "\n").map(String.init)
        try await worker.scan(texts: texts, seed: seed, hotSeed: hotSeed, scans: scans)
    }
}
