import Foundation
import HTTPTypes
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The server's side: the client address behind a proxy, a private
/// `/metrics` behind one, and a database file only the server's user can read.
@Suite("Deployment")
struct DeploymentTests {
    @Test("client-address: X-Forwarded-For counts only from a trusted proxy, read from its right end")
    func clientAddressResolution() {
        let proxies: Set<String> = ["10.0.0.2", "10.0.0.3"]
        // A direct client: its header is ignored, whatever it says.
        #expect(
            ClientAddress.resolve(peer: "203.0.113.9", forwardedFor: ["198.51.100.1"], trustedProxies: proxies)
                == "203.0.113.9")
        // Through one proxy.
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["198.51.100.1"], trustedProxies: proxies)
                == "198.51.100.1")
        // A client that sends its own header: the left end is its lie; the proxy appended the truth.
        #expect(
            ClientAddress.resolve(
                peer: "10.0.0.2", forwardedFor: ["127.0.0.1, 198.51.100.7"], trustedProxies: proxies) == "198.51.100.7")
        // Through two trusted proxies, over two header lines.
        #expect(
            ClientAddress.resolve(
                peer: "10.0.0.2", forwardedFor: ["198.51.100.7", "10.0.0.3"], trustedProxies: proxies) == "198.51.100.7"
        )
        // A trusted proxy that forwarded nothing is the client itself.
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: [], trustedProxies: proxies) == "10.0.0.2")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: ["1.2.3.4"], trustedProxies: proxies) == nil)
    }

    @Test(
        "trusted-proxy-rate-limit: behind a trusted proxy each forwarded client has its own sign-in limit; without trust the header is ignored",
        arguments: [true, false])
    func trustedProxyRateLimit(trusted: Bool) async throws {
        try await withServer(
            location: .sqliteInMemory, live: true,
            configure: {
                $0.signInFailuresPerAddress = 2
                $0.trustedProxies = trusted ? ["127.0.0.1"] : []
            }
        ) { api in
            let attempt = { (client: String, index: Int) async throws -> Int in
                try await api.request(
                    .post, "/v1/auth/signin",
                    json: SignInRequest(email: "u\(index)@x.test", password: "p", deviceId: "d"),
                    headers: [HTTPField.Name("X-Forwarded-For")!: client]
                ).status
            }
            var statuses: [Int] = []
            for index in 0..<3 { statuses.append(try await attempt("198.51.100.1", index)) }
            // Another venue's client, forwarded by the same proxy.
            statuses.append(try await attempt("198.51.100.2", 3))
            #expect(statuses == [401, 401, 429, trusted ? 401 : 429])
        }
    }

    @Test(
        "metrics-private-behind-proxy: /metrics answers a loopback client, and never a request a proxy forwarded",
        arguments: [true, false])
    func metricsBehindProxy(trusted: Bool) async throws {
        try await withServer(
            location: .sqliteInMemory, live: true, configure: { $0.trustedProxies = trusted ? ["127.0.0.1"] : [] }
        ) { api in
            #expect(try await api.request(.get, "/metrics").status == 200)
            for header in ["X-Forwarded-For", "Forwarded"] {
                let value = header == "Forwarded" ? "for=198.51.100.1" : "198.51.100.1"
                let forwarded = try await api.request(.get, "/metrics", headers: [HTTPField.Name(header)!: value])
                #expect(forwarded.status == 404, "\(header)")
            }
        }
    }

    @Test(
        "database-file-private: the SQLite file and its WAL and shared-memory files are 0600, also when they existed wider"
    )
    func databaseFilePrivate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-perm-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("data/outpost.sqlite").path
        let mode = { (file: String) -> Int in
            ((try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions]) as? Int ?? -1) & 0o777
        }
        do {
            let store = Store(database: try SQLiteDatabase(path: path))
            try await store.migrate()
            _ = try await store.secret(named: "access-token-hmac")
            #expect(mode(directory.appendingPathComponent("data").path) == 0o700)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(FileManager.default.fileExists(atPath: file), "\(file)")
                #expect(mode(file) == 0o600, "\(file): \(String(mode(file), radix: 8))")
            }
        }
        // A file an older server (or a copy) left readable by everyone is narrowed on open.
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        _ = try SQLiteDatabase(path: path)
        #expect(mode(path) == 0o600)
    }
}
