import Foundation
import OutpostDevice

/// DNS-SD on Linux through Avahi (Debian's avahi-daemon and avahi-utils): a door announces its
/// mesh node as `_outpost-mesh._tcp` (instance: its device id; TXT `v=1` and `e=` the event's
/// tag, no names and no ticket data) with `avahi-publish`, and follows `avahi-browse` for the
/// doors of the same event. Both talk to the system's avahi-daemon over D-Bus, which must run.
/// Discovery only suggests: each peer found is joined, and the handshake decides. On Apple
/// platforms the same port is NWListener's service and NWBrowser.
public actor AvahiDiscovery {
    public static let serviceType = "_outpost-mesh._tcp"

    private var publisher: Process?
    private var browser: Process?

    public enum Failure: Error, CustomStringConvertible {
        case unavailable(String)

        public var description: String {
            switch self {
            case .unavailable(let why): "Avahi is not available (\(why))"
            }
        }
    }

    public init() {}

    /// Announces `instance` at `port` and calls `found` for each door of the same event that
    /// appears or moves (its instance, and where it is now; IPv4 only: Avahi's fe80:: answers need an interface scope), this door excepted.
    /// Throws when Avahi's tools are missing or the daemon does not answer.
    public func start(
        instance: String, port: Int, eventTag: String,
        found: @escaping @Sendable (_ instance: String, MeshJoinCode) -> Void
    ) throws {
        let publish = try Self.process(
            "avahi-publish", ["-s", instance, Self.serviceType, "\(port)", "v=1", "e=\(eventTag)"])
        let errors = Pipe()
        publish.standardError = errors
        publish.standardOutput = FileHandle.nullDevice
        try publish.run()
        publisher = publish
        let browse = try Self.process("avahi-browse", ["-r", "-p", "-k", Self.serviceType])
        let lines = Pipe()
        browse.standardOutput = lines
        browse.standardError = FileHandle.nullDevice
        try browse.run()
        browser = browse
        Thread.detachNewThread {
            var buffer = Data()
            let handle = lines.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if let service = AvahiBrowseLine(line), service.instance != instance,
                        service.text["e"] == eventTag
                    {
                        found(service.instance, MeshJoinCode(host: service.address, port: service.port, authority: nil))
                    }
                }
            }
        }
        // A daemon that is not running: avahi-publish says so and exits at once.
        Thread.sleep(forTimeInterval: 0.3)
        if !publish.isRunning {
            let said = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
            stop()
            throw Failure.unavailable(said.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Withdraws the announcement and stops browsing.
    public func stop() {
        for process in [publisher, browser].compactMap({ $0 }) where process.isRunning { process.terminate() }
        publisher = nil
        browser = nil
    }

    private static func process(_ tool: String, _ arguments: [String]) throws -> Process {
        let paths = ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"]
        guard let path = paths.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Failure.unavailable("\(tool) is not installed: apt-get install avahi-utils avahi-daemon")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        return process
    }
}

/// One resolved service of `avahi-browse -r -p`:
/// `=;eth0;IPv4;INSTANCE;_outpost-mesh._tcp;local;HOST.local;10.77.0.1;7311;"v=1" "e=…"`.
/// Other lines (`+` new, `-` gone, IPv6) are nil.
public struct AvahiBrowseLine: Sendable, Hashable {
    public var instance: String
    public var address: String
    public var port: Int
    public var text: [String: String]

    public init?(_ line: String) {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 10, fields[0] == "=", fields[2] == "IPv4", let port = Int(fields[8]),
            (1...65_535).contains(port), !fields[7].isEmpty
        else { return nil }
        instance = Self.unescape(fields[3])
        address = fields[7]
        self.port = port
        var text: [String: String] = [:]
        // The TXT field: quoted strings separated by spaces ("v=1" "e=abcd").
        let record = fields[9...].joined(separator: ";")
        for match in record.split(separator: "\"") where match.contains("=") {
            let pair = match.split(separator: "=", maxSplits: 1).map(String.init)
            text[pair[0]] = pair.count > 1 ? pair[1] : ""
        }
        self.text = text
    }

    /// Avahi's parsable output escapes a name's dots, semicolons and spaces as `\DDD` (decimal).
    static func unescape(_ name: String) -> String {
        var result = ""
        var characters = Array(name)[...]
        while let first = characters.first {
            characters = characters.dropFirst()
            if first == "\\", characters.count >= 3, let code = UInt8(String(characters.prefix(3))) {
                result.append(Character(UnicodeScalar(code)))
                characters = characters.dropFirst(3)
            } else {
                result.append(first)
            }
        }
        return result
    }
}
