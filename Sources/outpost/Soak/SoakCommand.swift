import ArgumentParser
import Foundation
import OutpostLab

/// `outpost soak`: devices as processes, scanning through a fault-injecting proxy while they and
/// the server are SIGKILLed; then every device drains and the soak checks that nothing was lost
/// and nothing was counted twice.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Scan through a faulty network while devices and servers are killed; check nothing is lost.",
        discussion: """
            Starts `outpost serve` (--instances of them on one store), a chaos proxy in front \
            (30% of requests and 30% of responses dropped, 10% duplicated, 5% reset, some \
            truncated and delayed), and --devices `outpost soak-worker` processes that scan random \
            guests, often the same guest at nearly the same time. Workers are SIGKILLed at random \
            and restarted, the servers are SIGKILLed and restarted, the network is switched off \
            and on. At the end the faults stop, every device drains its outbox, and the checks \
            are printed as a table. Exit status 1 when any check fails.

            Also: access tokens last --access-ttl seconds, so every device refreshes many times \
            (and some refresh answers are lost); 5% of requests get a captive portal's HTML page \
            (200, 302 or 403); a third of the scans carry a scanner's prefix or suffix; device 0 \
            is shared by two staff who take turns with sign-out --keep; and after the faulty \
            phase one pending outbox row per device is damaged on disk (it must be quarantined \
            and shown, and every other entry must still land).
            """
    )

    @Option(help: "How long the faulty phase runs, in minutes.")
    var minutes: Double = 5

    @Option(help: "How long the faulty phase runs, in seconds (overrides --minutes).")
    var seconds: Double?

    @Option(help: ArgumentHelp("The PostgreSQL database to use (it is written to).", valueName: "url"))
    var postgres: String?

    @Option(help: "How many server instances share the store behind the proxy.")
    var instances = 1

    @Option(help: "How many device processes scan at once.")
    var devices = 4

    @Option(help: "How many guests the event has.")
    var guests = 2000

    @Option(help: "Seed of every random choice (faults, kills, scans).")
    var seed: UInt64 = 2026

    @Option(help: "How many times the server is SIGKILLed and restarted.")
    var serverKills = 2

    @Option(
        name: .customLong("access-ttl"),
        help: "Seconds an access token lasts on the soak's servers (short, so every device refreshes many times).")
    var accessTTL = 10

    @Option(
        help: ArgumentHelp("Working directory (logs, device homes); default a new temporary one.", valueName: "dir"))
    var dir: String?

    @Option(help: ArgumentHelp("Write the checks and figures as JSON to this file.", valueName: "path"))
    var output: String?

    func validate() throws {
        guard (1...4).contains(instances) else { throw ValidationError("--instances is 1 to 4.") }
        guard (1...16).contains(devices) else { throw ValidationError("--devices is 1 to 16.") }
        guard guests >= 10 else { throw ValidationError("--guests must be at least 10.") }
        guard duration >= 5 else { throw ValidationError("the faulty phase must last at least 5 seconds.") }
        guard serverKills >= 0 else { throw ValidationError("--server-kills cannot be negative.") }
        guard accessTTL >= 5 else { throw ValidationError("--access-ttl must be at least 5 seconds.") }
    }

    var duration: Double { seconds ?? minutes * 60 }

    func run() async throws {
        let soak = Soak(
            duration: duration, postgres: postgres, instances: instances, devices: devices, guests: guests, seed: seed,
            serverKills: serverKills, accessTTL: accessTTL, dir: dir, output: output)
        guard try await soak.run().passed else { throw ExitCode(1) }
    }
}
