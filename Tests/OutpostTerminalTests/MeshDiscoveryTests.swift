import OutpostDevice
import OutpostTerminal
import Testing

/// What a door reads to find and join its peers: join codes (typed, or scanned from a station's
/// QR code) and Avahi's browse lines.
@Suite("Venue mesh discovery")
struct MeshDiscoveryTests {
    static let fingerprint = String(repeating: "ab", count: 32)

    @Test(
        "mesh-join-code: a join code carries host, port and the authority's fingerprint and reads back as written; host:port alone parses without one; anything else (no port, port 0 or over 65535, a bad fingerprint, spaces) is nil, never a guess"
    )
    func joinCode() {
        let code = MeshJoinCode(host: "10.77.0.1", port: 7311, authority: Self.fingerprint)
        #expect(code.text == "outpost-mesh://10.77.0.1:7311#\(Self.fingerprint)")
        #expect(MeshJoinCode(parsing: code.text) == code)
        #expect(MeshJoinCode(parsing: "  OUTPOST-MESH://10.77.0.1:7311/#\(Self.fingerprint.uppercased())\n") == code)
        #expect(
            MeshJoinCode(parsing: "door-2.local:7311") == MeshJoinCode(host: "door-2.local", port: 7311, authority: nil)
        )
        let v6 = MeshJoinCode(host: "fd00::1", port: 7311, authority: nil)
        #expect(MeshJoinCode(parsing: v6.text) == v6)
        #expect(MeshJoinCode(parsing: "[fd00::1]:7311") == v6)
        for bad in [
            "10.77.0.1", "10.77.0.1:", ":7311", "10.77.0.1:65536", "10.77.0.1:-1", "10.77.0.1:x",
            "outpost-mesh://10.77.0.1:7311#abc", "outpost-mesh://10.77.0.1:7311#\(String(repeating: "zz", count: 32))",
            "10.77.0 .1:7311", "http://10.77.0.1:7311", "",
        ] {
            #expect(MeshJoinCode(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test(
        "mesh-avahi-lines: avahi-browse's resolved IPv4 lines give instance (unescaped), address, port and TXT; new, gone, IPv6 and damaged lines give nothing"
    )
    func avahiLines() {
        let line = #"=;eth0;IPv4;door\0321;_outpost-mesh._tcp;local;d1.local;10.77.0.1;7311;"v=1" "e=0011223344556677""#
        let service = AvahiBrowseLine(line)
        #expect(service?.instance == "door 1")
        #expect(service?.address == "10.77.0.1")
        #expect(service?.port == 7311)
        #expect(service?.text == ["v": "1", "e": "0011223344556677"])
        for other in [
            "+;eth0;IPv4;door1;_outpost-mesh._tcp;local",
            "-;eth0;IPv4;door1;_outpost-mesh._tcp;local",
            #"=;eth0;IPv6;door1;_outpost-mesh._tcp;local;d1.local;fe80::1;7311;"v=1""#,
            #"=;eth0;IPv4;door1;_outpost-mesh._tcp;local;d1.local;10.77.0.1;99999;"v=1""#,
            #"=;eth0;IPv4;door1;_outpost-mesh._tcp;local;d1.local;;7311;"v=1""#,
            "=;eth0;IPv4", "",
        ] {
            #expect(AvahiBrowseLine(other) == nil, "\(other)")
        }
    }
}
