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
}
