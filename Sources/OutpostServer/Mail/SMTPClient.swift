import Foundation
import NIOCore
import NIOExtras
import NIOPosix

/// Sends mail to an SMTP relay (RFC 5321) over SwiftNIO: EHLO, MAIL FROM, RCPT TO, DATA, QUIT,
/// one connection per message. The relay is the operator's (a local MTA, a provider's
/// submission port behind one); the server never delivers to recipients' domains itself.
public struct SMTPClient: Sendable {
    public var host: String
    public var port: Int
    /// The name this server gives in EHLO.
    public var heloName: String
    public var timeout: Duration

    public init(host: String, port: Int, heloName: String = "outpost.localhost", timeout: Duration = .seconds(10)) {
        self.host = host
        self.port = port
        self.heloName = heloName
        self.timeout = timeout
    }

    /// Parses `HOST:PORT` (an IPv6 host in brackets).
    public init?(relay: String) {
        let host: Substring
        let portText: Substring
        if relay.hasPrefix("["), let close = relay.firstIndex(of: "]") {
            host = relay[relay.index(after: relay.startIndex)..<close]
            portText = relay[relay.index(after: close)...].dropFirst()
        } else {
            guard let colon = relay.lastIndex(of: ":") else { return nil }
            host = relay[..<colon]
            portText = relay[relay.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port)
    }

    /// Sends `message`; returns once the relay has accepted it (250 after the data).
    public func send(_ message: MailMessage, now: Date = Date()) async throws {
        try await send(
            rendered: try message.rendered(date: now, messageID: newMessageID()), from: message.from, to: message.to)
    }

    /// A Message-ID for a mail this server sends.
    public func newMessageID() -> String { "\(UUID().uuidString.lowercased())@\(heloName)" }

    /// Sends a message already rendered (``MailMessage/rendered(date:messageID:)``) from and to
    /// the envelope addresses given: what the mail queue stored.
    public func send(rendered data: String, from: String, to: String) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.converse(from: from, to: to, data: data) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw MailError.timedOut
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func converse(from: String, to: String, data: String) async throws {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw MailError.connectionFailed("\(error)")
        }
        try await channel.executeThenClose { inbound, outbound in
            var lines = inbound.makeAsyncIterator()
            /// One reply (the last line of a multi-line one decides), checked against `expected`.
            func expect(_ expected: Int) async throws {
                while true {
                    guard var buffer = try await lines.next(),
                        let line = buffer.readString(length: buffer.readableBytes)
                    else { throw MailError.connectionFailed("the relay closed the connection") }
                    let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
                    guard trimmed.count >= 3, let code = Int(trimmed.prefix(3)) else {
                        throw MailError.rejected(code: 0, line: trimmed)
                    }
                    if trimmed.count > 3, trimmed[trimmed.index(trimmed.startIndex, offsetBy: 3)] == "-" { continue }
                    guard code == expected else { throw MailError.rejected(code: code, line: trimmed) }
                    return
                }
            }
            func say(_ text: String) async throws {
                try await outbound.write(ByteBuffer(string: text + "\r\n"))
            }
            try await expect(220)
            try await say("EHLO \(heloName)")
            try await expect(250)
            try await say("MAIL FROM:<\(Self.address(from))>")
            try await expect(250)
            try await say("RCPT TO:<\(Self.address(to))>")
            try await expect(250)
            try await say("DATA")
            try await expect(354)
            try await outbound.write(ByteBuffer(string: data + ".\r\n"))
            try await expect(250)
            try await say("QUIT")
            try? await expect(221)
        }
    }

    /// The bare address of "Name <a@b>" or "a@b".
    static func address(_ value: String) -> String {
        if let open = value.lastIndex(of: "<"), let close = value.lastIndex(of: ">"), open < close {
            return String(value[value.index(after: open)..<close])
        }
        return value
    }
}
