import Foundation

/// Just enough HTTP/1.1 framing for a proxy that forwards bytes: where the head ends, how long
/// the body is, and the head rewritten to close the connection after one exchange.
public struct HTTPFrame: Sendable, Hashable {
    /// The head's lines, start line first, without the blank line.
    public var lines: [String]
    /// How many bytes the head took, including the blank line.
    public var headLength: Int
    /// The body's length from `Content-Length`; nil when the message is delimited by closing.
    public var contentLength: Int?
    public var chunked: Bool

    public enum Failure: Error, Hashable {
        case headTooLarge
        case malformed(String)
    }

    /// Parses the head at the start of `bytes`; nil while the head is still incomplete.
    public static func parse(_ bytes: [UInt8], maxHead: Int = 64 * 1024) throws(Failure) -> HTTPFrame? {
        guard let end = headEnd(bytes) else {
            if bytes.count > maxHead { throw .headTooLarge }
            return nil
        }
        let text = String(decoding: bytes[..<(end - 4)], as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        guard let first = lines.first, first.split(separator: " ").count >= 2 else {
            throw .malformed("no start line")
        }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("header without a colon") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let parsed = Int(value), parsed >= 0 else { throw .malformed("bad Content-Length") }
                length = parsed
            } else if name == "transfer-encoding", value.lowercased().contains("chunked") {
                chunked = true
            }
        }
        return HTTPFrame(lines: lines, headLength: end, contentLength: length, chunked: chunked)
    }

    /// The status code of a response's start line.
    public var status: Int? {
        let parts = lines.first?.split(separator: " ") ?? []
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    /// The head again, with `Connection: close` instead of any connection headers.
    public func headClosingConnection() -> [UInt8] {
        let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection"]
        let kept = lines.filter { line in
            guard let colon = line.firstIndex(of: ":") else { return true }
            return !hopByHop.contains(line[..<colon].lowercased())
        }
        return Array(((kept + ["Connection: close"]).joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = 3
        while index < bytes.count {
            if bytes[index] == 10, bytes[index - 1] == 13, bytes[index - 2] == 10, bytes[index - 3] == 13 {
                return index + 1
            }
            index += 1
        }
        return nil
    }
}
