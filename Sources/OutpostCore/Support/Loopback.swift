/// Whether an address names this machine: `localhost`, 127.0.0.0/8, `::1`, and IPv4-mapped
/// loopback (`::ffff:127.…`). Brackets around an IPv6 literal and letter case are ignored. The
/// server uses it for its private `/metrics`, the device to allow plain HTTP to itself.
public enum Loopback {
    public static func contains(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.") || host.hasPrefix("::ffff:127.")
    }
}
