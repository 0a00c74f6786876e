import OutpostCore
import Testing

@Suite("Loopback addresses")
struct LoopbackTests {
    @Test("names of this machine, in every spelling a URL or a socket gives")
    func loopback() {
        for host in ["localhost", "LOCALHOST", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "::ffff:127.0.0.1"] {
            #expect(Loopback.contains(host), "\(host)")
        }
        for host in ["10.0.0.1", "128.0.0.1", "::2", "localhost.example.org", "example.org", "[::ffff:10.0.0.1]", ""] {
            #expect(!Loopback.contains(host), "\(host)")
        }
    }
}
