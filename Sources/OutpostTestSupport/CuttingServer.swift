import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A loopback socket that listens and never accepts.
package struct SilentListener {
    package let fd: Int32
    package let port: Int

    package init() throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard socketFD >= 0, bound == 0, listen(socketFD, 8) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        fd = socketFD
        port = Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A loopback HTTP server, on a thread of its own, that reads each request whole and then cuts
/// the connection: closing it, sending half an answer's head first, or resetting it.
package final class CuttingServer: @unchecked Sendable {
    package enum Cut: Sendable {
        /// Close right after reading the request.
        case close
        /// Send the first `bytes` of an answer's head, then close.
        case partialHead(bytes: Int)
        /// Abort with a TCP reset (SO_LINGER 0).
        case reset
        /// Answer 200 with this JSON body (and `Connection: close`), then close.
        case answer(String)
    }

    package let port: Int
    private let listener: SilentListener
    private let cuts: [Cut]
    private let thread: Thread
    private let served = LockedCount()

    /// Cuts the n-th connection with `cuts[n % cuts.count]`.
    package init(_ cuts: [Cut]) throws {
        listener = try SilentListener()
        port = listener.port
        self.cuts = cuts
        let listener = listener
        let served = served
        thread = Thread {
            while true {
                let connection = accept(listener.fd, nil, nil)
                guard connection >= 0 else { return }
                let cut = cuts[served.next() % cuts.count]
                Self.readRequest(connection)
                switch cut {
                case .close:
                    break
                case .partialHead(let bytes):
                    let head = Array(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8)
                    _ = head.withUnsafeBytes { send(connection, $0.baseAddress, min(bytes, head.count), 0) }
                case .answer(let body):
                    let answer = Array(
                        ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                            + "Connection: close\r\n\r\n" + body).utf8)
                    _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, answer.count, 0) }
                case .reset:
                    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                    setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                }
                close(connection)
            }
        }
        thread.start()
    }

    /// Connections served so far.
    package var connections: Int { served.value }

    package func stop() {
        shutdown(listener.fd, Int32(SHUT_RDWR))
        close(listener.fd)
    }

    /// Reads a request's head and, by its Content-Length, its body.
    private static func readRequest(_ connection: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, 4096, 0) }
            guard count > 0 else { return }
            received += buffer[..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length =
                head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            if received.count >= text.utf8.distance(from: text.startIndex, to: end.upperBound) + length { return }
        }
    }
}

/// A counter shared with the server's thread.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count before this call, then one more.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}
