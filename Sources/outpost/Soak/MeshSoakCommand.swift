import ArgumentParser
import Foundation
import OutpostLab

/// `outpost mesh-soak`: the venue mesh's soak and checker (``MeshSoak``).
struct MeshSoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mesh-soak",
        abstract: "Doors in network namespaces, partitioned, healed and killed offline; check no ticket gets in twice.",
        discussion: """
            Needs root, iproute2 and nftables, and a network namespace of its own (run it under \
            `unshare --net`, as scripts/mesh-soak does): it makes a LAN of namespaces (one a door, \
            a bridge, a veth to this process, which runs the server) and removes it at the end. \
            The doors sign in and sync, the server goes out of their reach, and \
            `outpost device mesh` runs in each door's namespace while a seeded schedule scans \
            (often one guest at several doors at once), cuts pairs of doors apart, heals, isolates \
            doors and kills them. Then all heals, the doors converge, the server comes back and \
            each door syncs. Every admission is classed (first, race within the bound, partition \
            duplicate, violation) and the checks are printed as a table. Exit status 1 when any \
            check fails, violations above 0 among them.
            """)

    @Option(help: "How long the schedule runs, in minutes.")
    var minutes: Double = 5

    @Option(help: "How long the schedule runs, in seconds (overrides --minutes).")
    var seconds: Double?

    @Option(help: "How many doors.")
    var doors = 4

    @Option(help: "How many guests the event has.")
    var guests = 400

    @Option(help: "Seed of every random choice (scans, cuts, kills).")
    var seed: UInt64 = 2026

    @Flag(help: "Doors find each other with DNS-SD (an avahi-daemon in each door's namespace) instead of --join.")
    var discover = false

    @Option(help: "The propagation bound Δ the checker holds the doors to, in seconds.")
    var bound = 1.0

    @Option(
        help: ArgumentHelp(
            "Each door joins only this many doors before it (a relay mesh; entries pass through); default every door.",
            valueName: "K"))
    var joins: Int?

    @Option(
        help: ArgumentHelp("Working directory (logs, door homes); default a new temporary one.", valueName: "dir"))
    var dir: String?

    var duration: Double { seconds ?? minutes * 60 }

    func validate() throws {
        guard (2...50).contains(doors) else { throw ValidationError("--doors is 2 to 50.") }
        guard doors <= 12 || (joins != nil && !discover) else {
            throw ValidationError("over 12 doors, give --joins K (each door joins K doors before it; entries relay).")
        }
        guard joins.map({ $0 >= 1 }) ?? true, !(discover && joins != nil) else {
            throw ValidationError("--joins is at least 1, and not with --discover.")
        }
        guard bound > 0 else { throw ValidationError("--bound is a positive number of seconds.") }
        guard guests >= 10 else { throw ValidationError("--guests must be at least 10.") }
        guard duration >= 5 else { throw ValidationError("the schedule must last at least 5 seconds.") }
    }

    func run() async throws {
        let verdict: MeshSoak.Verdict
        do {
            var soak = MeshSoak(
                duration: duration, doors: doors, guests: guests, seed: seed, discover: discover, joins: joins,
                dir: dir)
            soak.bound = bound
            verdict = try await soak.run()
        } catch let failure as NetworkLab.Failure {
            throw CleanFailure("mesh-soak: \(failure)")
        }
        print(verdict.table)
        print(verdict.passed ? "mesh-soak: passed" : "mesh-soak: FAILED")
        if !verdict.passed { throw ExitCode(1) }
    }
}
