import Foundation
import OutpostLab
import OutpostTestSupport
import Testing

/// The SMTP sink is ready only when its own aiosmtpd listens: a port another loopback service
/// took first (the free-port race behind a lost sign-in mail in CI) is not a sink.
@Suite("SMTP sink readiness")
struct SMTPSinkTests {
    @Test("smtp-sink-port-taken: a sink on a port another process listens on refuses to start, a free port works")
    func portTaken() async throws {
        guard let python = SMTPSink.python else {
            print(SMTPSink.skipMessage)
            return
        }
        // Another service holds the port (here: a second sink).
        let first = try await SMTPSink.start(python: python)
        defer { first.stop() }
        await #expect(throws: CleanFailure.self) {
            let second = try await SMTPSink.start(python: python, port: first.port)
            second.stop()
        }
        // Without a chosen port it finds its own.
        let own = try await SMTPSink.start(python: python)
        defer { own.stop() }
        #expect(own.port != first.port)
    }

    @Test("smtp-sink-port-taken: /proc/net/tcp's listening rows are read by local address and state")
    func procTable() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1
               1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 4343 1
               2: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4444 1
            """
        #expect(ListeningSocket.listeningInodes(port: 8080, table: table) == ["4242"])
        #expect(ListeningSocket.listeningInodes(port: 8081, table: table).isEmpty)
    }

    @Test(
        "smtp-sink-port-taken: with 200 listeners open (the proc table past its first page) each one's socket is found"
    )
    func manyListeners() throws {
        #if os(Linux)
        var sockets: [(fd: Int32, port: Int)] = []
        defer { for socket in sockets { close(socket.fd) } }
        for _ in 0..<200 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(bound == 0 && listen(fd, 1) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            sockets.append((fd, Int(UInt16(bigEndian: address.sin_port))))
        }
        let missing = sockets.filter {
            !ListeningSocket.isHeld(port: $0.port, by: ProcessInfo.processInfo.processIdentifier)
        }
        #expect(missing.isEmpty, "\(missing.count) of 200 listeners not found")
        #endif
    }
}
