import Foundation

/// A LAN of network namespaces the run makes and removes itself (root, iproute2 and nftables;
/// the recipe of the venue mesh research, §3): one namespace per door, joined by veth pairs to a
/// bridge in a namespace of its own; the lab's own process (the server and the harness) reaches
/// the bridge through one more veth. Partitions are nftables drops between two bridge ports
/// (non-transitive: two doors cut apart can both still reach a third), a door's or the server's
/// link set down, and heals remove them. Nothing is routed anywhere: the addresses are a private
/// /24 on links the lab made, and the lab refuses to run in the machine's own network namespace
/// (it would leave an address there), so no traffic leaves the namespaces of the run.
package final class NetworkLab: @unchecked Sendable {
    /// The namespaces' names start with this (unique per run: several runs may share a machine).
    package let prefix: String
    package let doors: Int
    private var made: [String] = []
    /// Processes holding a namespace's private /run with its D-Bus and avahi-daemon (by door).
    private var holders: [Int: Process] = [:]
    private let scratch: URL

    /// The server's address on the lab LAN (the lab's own namespace).
    package static let serverAddress = "10.77.0.100"
    package static func address(door: Int) -> String { "10.77.0.\(door + 1)" }

    package var bridge: String { "\(prefix)-br" }
    package func namespace(door: Int) -> String { "\(prefix)-d\(door + 1)" }
    /// A door's port on the bridge (in the bridge's namespace).
    static func port(door: Int) -> String { "d\(door + 1)" }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Makes the LAN; throws (having removed what it made) when a step fails.
    package init(doors: Int, scratch: URL) throws {
        guard Self.inPrivateNetworkNamespace() else {
            throw Failure(
                description:
                    "the mesh lab changes the network: run it in a network namespace of its own (unshare --net; scripts/mesh-soak does)"
            )
        }
        // Foundation's Process waits for its children through a loopback socket pair: in a new
        // namespace, whose loopback starts down, every wait would hang.
        let flags = (try? String(contentsOfFile: "/sys/class/net/lo/flags", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16) }
        guard let flags, flags & 1 == 1 else {
            throw Failure(description: "the loopback of this network namespace is down: `ip link set lo up` first")
        }
        self.doors = doors
        self.scratch = scratch
        prefix = "om\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        do {
            try build()
        } catch {
            tearDown()
            throw error
        }
    }

    /// Whether this process's network namespace is not the machine's (init's).
    static func inPrivateNetworkNamespace() -> Bool {
        let own = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/net")
        let machine = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/1/ns/net")
        return own != nil && own != machine
    }

    private func build() throws {
        try ip("netns", "add", bridge)
        made.append(bridge)
        try ip("-n", bridge, "link", "set", "lo", "up")
        // Snooping off: the bridge floods multicast (mDNS) deterministically.
        try ip("-n", bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        try ip("-n", bridge, "link", "set", "br0", "up")
        try ip("link", "set", "lo", "up")
        try ip("link", "add", "lab0", "type", "veth", "peer", "name", "srv", "netns", bridge)
        try ip("-n", bridge, "link", "set", "srv", "master", "br0")
        try ip("-n", bridge, "link", "set", "srv", "up")
        try ip("addr", "add", "\(Self.serverAddress)/24", "dev", "lab0")
        try ip("link", "set", "lab0", "up")
        for door in 0..<doors {
            let namespace = namespace(door: door)
            try ip("netns", "add", namespace)
            made.append(namespace)
            try ip("-n", namespace, "link", "set", "lo", "up")
            try ip(
                "link", "add", "eth0", "netns", namespace, "type", "veth", "peer", "name", Self.port(door: door),
                "netns", bridge)
            try ip("-n", bridge, "link", "set", Self.port(door: door), "master", "br0")
            try ip("-n", bridge, "link", "set", Self.port(door: door), "up")
            try ip("-n", namespace, "addr", "add", "\(Self.address(door: door))/24", "dev", "eth0")
            try ip("-n", namespace, "link", "set", "eth0", "up")
        }
        try run(
            ["ip", "netns", "exec", bridge, "nft", "-f", "-"],
            input: """
                table bridge lab {
                  set cut { type ifname . ifname; }
                  chain partition { type filter hook forward priority 0; policy accept;
                    iifname . oifname @cut drop; }
                }
                """)
    }

    // MARK: - Partitions

    /// Cuts `a` and `b` apart (both ways, mDNS and TCP alike); each may still reach others.
    package func cut(_ a: Int, _ b: Int) throws {
        let (pa, pb) = (Self.port(door: a), Self.port(door: b))
        try run([
            "ip", "netns", "exec", bridge, "nft", "add", "element", "bridge", "lab", "cut",
            "{ \(pa) . \(pb), \(pb) . \(pa) }",
        ])
    }

    /// Removes every cut.
    package func healCuts() throws {
        try run(["ip", "netns", "exec", bridge, "nft", "flush", "set", "bridge", "lab", "cut"])
    }

    /// Sets a door's bridge port down (isolated) or up.
    package func setDoor(_ door: Int, up: Bool) throws {
        try ip("-n", bridge, "link", "set", Self.port(door: door), up ? "up" : "down")
    }

    /// Sets the server's bridge port down (the doors lose the server; the LAN stays) or up.
    package func setServer(up: Bool) throws {
        try ip("-n", bridge, "link", "set", "srv", up ? "up" : "down")
    }

    /// The bytes `door`'s link has carried so far, both ways: its veth port's counters on the
    /// bridge (the mesh, DNS-SD and ARP, as a Wi-Fi access point would count them).
    package func bytes(door: Int) throws -> UInt64 {
        let port = "/sys/class/net/\(Self.port(door: door))/statistics"
        return try output(["ip", "netns", "exec", bridge, "cat", "\(port)/rx_bytes", "\(port)/tx_bytes"])
            .split(whereSeparator: \.isNewline).compactMap { UInt64($0) }.reduce(0, +)
    }

    // MARK: - Running in a door's namespace

    /// What a command line starts with to run in `door`'s namespace: with its own D-Bus and
    /// avahi-daemon when ``startAvahi(door:)`` gave it one (joined with nsenter, net and mount),
    /// else `ip netns exec`.
    package func launcher(door: Int) -> [String] {
        if let holder = holders[door], holder.isRunning {
            return ["nsenter", "-t", String(holder.processIdentifier), "-n", "-m", "--"]
        }
        return ["ip", "netns", "exec", namespace(door: door)]
    }

    /// Gives `door`'s namespace a private /run with a D-Bus system bus and an avahi-daemon bound to
    /// its eth0 (IPv4 only, host name = the namespace): what DNS-SD needs there. Throws when
    /// Avahi or D-Bus is missing.
    package func startAvahi(door: Int) throws {
        let directory = scratch.appendingPathComponent("avahi-\(door + 1)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = directory.appendingPathComponent("avahi-daemon.conf")
        try """
        [server]
        host-name=\(namespace(door: door))
        use-ipv4=yes
        use-ipv6=no
        allow-interfaces=eth0
        ratelimit-interval-usec=0
        [wide-area]
        enable-wide-area=no
        [publish]
        publish-hinfo=no
        publish-workstation=no
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        holder.arguments = [
            "netns", "exec", namespace(door: door), "sh", "-c",
            "mount -t tmpfs tmpfs /run && mkdir -p /run/dbus /run/avahi-daemon && dbus-daemon --system --fork && avahi-daemon -D --no-rlimits --no-drop-root -f \(configuration.path) && exec sleep infinity",
        ]
        let log = try LabProcess.appending(directory.appendingPathComponent("holder.log"))
        holder.standardOutput = log
        holder.standardError = log
        try holder.run()
        holders[door] = holder
        // Ready when the daemon answers on that bus.
        for _ in 0..<100 {
            guard holder.isRunning else { break }
            if (try? run(launcher(door: door) + ["avahi-browse", "-a", "-t", "-p"])) != nil { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw Failure(
            description: "avahi-daemon did not start in door \(door + 1)'s namespace (\(directory.path)/holder.log)")
    }

    // MARK: - Teardown

    /// Kills every process left in the lab's namespaces and removes them, and the lab's link.
    package func tearDown() {
        for holder in holders.values where holder.isRunning { holder.terminate() }
        for namespace in made.reversed() {
            if let pids = try? output(["ip", "netns", "pids", namespace]) {
                for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
            }
            _ = try? run(["ip", "netns", "del", namespace])
        }
        made = []
        _ = try? run(["ip", "link", "del", "lab0"])
    }

    // MARK: - Commands

    private func ip(_ arguments: String...) throws {
        try run(["ip"] + arguments)
    }

    @discardableResult
    private func run(_ arguments: [String], input: String? = nil) throws -> String {
        try output(arguments, input: input)
    }

    private func output(_ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        let inPipe = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inPipe
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? inPipe.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let said = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description:
                    "`\(arguments.joined(separator: " "))` failed: \(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}
