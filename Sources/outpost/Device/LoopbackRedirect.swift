import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The headless app's end of a browser sign-in (RFC 8252 §7.3): a listener on the loopback
/// interface, on a port the system picks, that waits for the browser's one redirect to `/cb`,
/// answers it with a page saying the app took over, and hands back its query. Other requests (a
/// browser's favicon) get a 404 and the listener keeps waiting.
final class LoopbackRedirect: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case cannotListen(String)
        case timedOut(TimeInterval)

        var description: String {
            switch self {
            case .cannotListen(let detail): "cannot listen on the loopback interface (\(detail))"
            case .timedOut(let seconds): "no browser came back within \(Int(seconds)) seconds"
            }
        }
    }

    static let path = "/cb"

    private let socket: Int32
    let port: Int

    init() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.cannotListen(String(cString: strerror(errno))) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure.cannotListen(reason)
        }
        socket = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }

    /// The redirect URI to give the server.
    var redirectURI: String { "http://127.0.0.1:\(port)\(Self.path)" }

    /// Waits for the browser's redirect to ``path`` and returns its query items; `answer` words
    /// the page the browser shows from those items.
    func awaitRedirect(
        timeout: TimeInterval, answer: ([String: String]) -> String
    ) throws -> [String: String] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure.timedOut(timeout) }
            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&waiting, 1, Int32(min(remaining, 1) * 1000))
            guard ready > 0 else { continue }
            let client = accept(socket, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            guard let target = Self.requestTarget(client), let components = URLComponents(string: target) else {
                continue
            }
            guard components.path == Self.path else {
                Self.respond(client, status: "404 Not Found", html: "Not found.")
                continue
            }
            var items: [String: String] = [:]
            for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
            Self.respond(client, status: "200 OK", html: answer(items))
            return items
        }
    }

    /// The request line's target, read up to the end of the headers (at most 16 KiB, 5 s).
    private static func requestTarget(_ client: Int32) -> String? {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 16_384 {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { break }
            received += buffer[0..<count]
            if received.count >= 4, Array(received.suffix(4)) == Array("\r\n\r\n".utf8) { break }
        }
        let firstLine = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = firstLine.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    private static func respond(_ client: Int32, status: String, html: String) {
        let body = "<!doctype html><meta charset=utf-8><title>Outpost</title><p>\(html)</p>\n"
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n" + body
        _ = response.utf8CString.withUnsafeBufferPointer { pointer in
            write(client, pointer.baseAddress, pointer.count - 1)
        }
    }
}
