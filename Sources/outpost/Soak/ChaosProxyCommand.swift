import ArgumentParser
import Foundation
import OutpostChaos
import OutpostLab

/// `outpost chaos-proxy`: the soak's fault-injecting proxy on its own, for trying a device or a
/// station against a bad network by hand.
struct ChaosProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chaos-proxy",
        abstract: "Forward HTTP on loopback to a server, dropping, delaying, duplicating, truncating and resetting.",
        discussion: """
            Listens on 127.0.0.1 only. Each probability applies per request. Prints the port, \
            then a line of counts every --report-every seconds and when stopped (Ctrl-C).
            """
    )

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 0

    @Option(help: ArgumentHelp("A server port on 127.0.0.1 to forward to (repeat for several).", valueName: "port"))
    var upstream: [Int] = []

    @Option(help: "Seed of the fault draws.")
    var seed: UInt64 = 1

    @Flag(
        help:
            "Use the soak's mix (30% drops each way, 10% duplicates, 5% resets, 5% portal pages, some truncation and delay)."
    )
    var soakFaults = false

    @Option(name: .customLong("drop-request"), help: "Probability of closing without forwarding.")
    var dropRequest: Double = 0
    @Option(name: .customLong("drop-response"), help: "Probability of forwarding, then closing without the answer.")
    var dropResponse: Double = 0
    @Option(help: "Probability of sending the request to the server twice.")
    var duplicate: Double = 0
    @Option(help: "Probability of answering as a captive portal (200/302/403 with an HTML page).")
    var portal: Double = 0
    @Option(help: "Probability of a TCP reset.")
    var reset: Double = 0
    @Option(help: "Probability of a delay before forwarding.")
    var delay: Double = 0
    @Option(name: .customLong("max-delay-ms"), help: "The longest delay, in milliseconds.")
    var maxDelay = 200
    @Option(name: .customLong("truncate-request"), help: "Probability of forwarding only part of the body.")
    var truncateRequest: Double = 0
    @Option(name: .customLong("truncate-response"), help: "Probability of giving the client part of the answer.")
    var truncateResponse: Double = 0

    @Option(name: .customLong("report-every"), help: "Seconds between count lines (0: only at the end).")
    var reportEvery = 10

    var faults: ChaosFaults {
        soakFaults
            ? .soak
            : ChaosFaults(
                portal: portal, reset: reset, dropRequest: dropRequest, truncateRequest: truncateRequest, delay: delay,
                duplicate: duplicate, dropResponse: dropResponse, truncateResponse: truncateResponse,
                maxDelayMilliseconds: maxDelay)
    }

    func validate() throws {
        guard !upstream.isEmpty else { throw ValidationError("Give at least one --upstream port.") }
        guard upstream.allSatisfy({ (1...65535).contains($0) }), (0...65535).contains(port) else {
            throw ValidationError("Ports are 1 to 65535.")
        }
        let invalid = faults.invalidFields
        guard invalid.isEmpty else {
            throw ValidationError("Probabilities are 0 to 1: \(invalid.joined(separator: ", ")).")
        }
    }

    func run() async throws {
        let proxy = try await ChaosProxy.bind(
            port: port, upstreams: upstream.map { .init(port: $0) }, faults: faults, seed: seed)
        print(
            "chaos-proxy listening on http://127.0.0.1:\(proxy.port) → \(upstream.map(String.init).joined(separator: ", "))"
        )
        let (signals, continuation) = AsyncStream<Void>.makeStream()
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { continuation.finish() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await proxy.run() }
            group.addTask {
                while reportEvery > 0, !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(reportEvery))
                    if !Task.isCancelled { print(Self.line(proxy.stats)) }
                }
            }
            for await _ in signals {}
            group.cancelAll()
        }
        print(Self.line(proxy.stats))
    }

    static func line(_ stats: ChaosStats) -> String {
        "requests \(stats.requests), delivered \(stats.delivered), "
            + stats.faultsByKind.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            + ", server 5xx \(stats.serverErrors)"
    }
}
