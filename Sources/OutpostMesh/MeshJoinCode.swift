import Foundation
import NIOCore

/// How one door tells another where to join it: the address it listens on and its authority's
/// fingerprint, as `outpost-mesh://host:port#fingerprint` (the station shows it as a QR code; a
/// door given it checks the fingerprint before it tries, so a code from another organisation's
/// or event's mesh is refused in words, not by a failed handshake). A bare `host:port` parses
/// too, without the fingerprint.
public struct MeshJoinCode: Sendable, Hashable {
    public var host: String
    public var port: Int
    /// The tenant authority's fingerprint (SHA-256 of its certificate, hex), when the code has one.
    public var authority: String?

    /// The port a door listens on unless told otherwise.
    public static let defaultPort = 7311
    static let scheme = "outpost-mesh://"

    public init(host: String, port: Int, authority: String?) {
        self.host = host
        self.port = port
        self.authority = authority
    }

    /// Parses a join code or a `host:port`; nil for anything else.
    public init?(parsing text: String) {
        var rest = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var authority: String?
        if rest.lowercased().hasPrefix(Self.scheme) {
            rest.removeFirst(Self.scheme.count)
            if let hash = rest.firstIndex(of: "#") {
                let fingerprint = rest[rest.index(after: hash)...].lowercased()
                guard fingerprint.count == 64, fingerprint.allSatisfy(\.isHexDigit) else { return nil }
                authority = fingerprint
                rest = String(rest[..<hash])
            }
            if rest.hasSuffix("/") { rest.removeLast() }
        }
        guard let (host, port) = Self.address(rest) else { return nil }
        self.init(host: host, port: port, authority: authority)
    }

    /// `host:port` (an IPv6 host in brackets) split; nil unless the port is 1–65535 and the host
    /// is not empty.
    public static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65_535).contains(port) || port == 0
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "#" }) else { return nil }
        return (host, port)
    }

    /// The code as text (what the QR code holds).
    public var text: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return Self.scheme + "\(shown):\(port)" + (authority.map { "#\($0)" } ?? "")
    }

    /// This machine's first IPv4 address that is not loopback: what a door listening on every
    /// address puts in its join code.
    public static func lanAddress() -> String? {
        let devices = (try? System.enumerateDevices()) ?? []
        for device in devices {
            guard let address = device.address, case .v4 = address, let ip = address.ipAddress, !ip.hasPrefix("127.")
            else { continue }
            return ip
        }
        return nil
    }
}
