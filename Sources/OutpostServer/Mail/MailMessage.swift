import Foundation

/// A plain-text e-mail, with files attached or not, rendered as RFC 5322 (MIME, RFC 2045–2046)
/// for an SMTP `DATA` command. Pure.
public struct MailMessage: Sendable, Hashable {
    /// A file sent with the mail (a ticket's PDF).
    public struct Attachment: Sendable, Hashable {
        public var filename: String
        public var contentType: String
        public var bytes: [UInt8]

        public init(filename: String, contentType: String, bytes: [UInt8]) {
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    public var from: String
    public var to: String
    public var subject: String
    /// The body; its first line is what the reader (and a test) takes first.
    public var body: String
    public var attachments: [Attachment]

    public init(from: String, to: String, subject: String, body: String, attachments: [Attachment] = []) {
        self.from = from
        self.to = to
        self.subject = subject
        self.body = body
        self.attachments = attachments
    }

    /// The message as it is sent after `DATA`: headers, a blank line, the body; CRLF line
    /// endings; a line starting with "." doubled (RFC 5321 4.5.2). Header values are checked:
    /// an address or subject with a line break is refused (no header injection).
    public func rendered(date: Date, messageID: String) throws -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        for value in [from, to, subject] where value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw MailError.invalidHeader
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        var headers = [
            "From: \(from)", "To: \(to)", "Subject: \(Self.encodedWord(subject))",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(messageID)>", "MIME-Version: 1.0",
        ]
        let text = body.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        let textHeaders = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit"]
        var lines: [String]
        if attachments.isEmpty {
            headers += textHeaders
            lines = text
        } else {
            for attachment in attachments
            where (attachment.filename + attachment.contentType).unicodeScalars.contains(where: {
                $0 == "\r" || $0 == "\n" || $0 == "\""
            }) {
                throw MailError.invalidHeader
            }
            // The message id is unique, so the boundary never occurs in the parts (base64 and the
            // text cannot hold "=_" followed by it by chance).
            let boundary = "=_outpost_" + messageID.filter { $0.isLetter || $0.isNumber }
            headers.append("Content-Type: multipart/mixed; boundary=\"\(boundary)\"")
            lines = ["This is a multi-part message in MIME format.", "--\(boundary)"] + textHeaders + [""] + text
            for attachment in attachments {
                let encoded = Data(attachment.bytes).base64EncodedString()
                lines += [
                    "--\(boundary)", "Content-Type: \(attachment.contentType); name=\"\(attachment.filename)\"",
                    "Content-Disposition: attachment; filename=\"\(attachment.filename)\"",
                    "Content-Transfer-Encoding: base64", "",
                ]
                var index = encoded.startIndex
                while index < encoded.endIndex {
                    let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
                    lines.append(String(encoded[index..<end]))
                    index = end
                }
            }
            lines.append("--\(boundary)--")
        }
        let stuffed = lines.map { $0.hasPrefix(".") ? "." + $0 : $0 }
        return (headers + [""] + stuffed).joined(separator: "\r\n") + "\r\n"
    }

    /// A subject outside ASCII as an RFC 2047 encoded word.
    static func encodedWord(_ text: String) -> String {
        guard !text.allSatisfy({ $0.isASCII }) else { return text }
        return "=?utf-8?B?\(Data(text.utf8).base64EncodedString())?="
    }
}

/// Why a mail did not go out.
public enum MailError: Error, Equatable, CustomStringConvertible {
    case invalidHeader
    case notConfigured
    case connectionFailed(String)
    case rejected(code: Int, line: String)
    case timedOut

    public var description: String {
        switch self {
        case .invalidHeader: "an address or subject contains a line break"
        case .notConfigured: "no SMTP relay is configured (outpost serve --smtp-relay HOST:PORT)"
        case .connectionFailed(let reason): "the SMTP relay could not be reached: \(reason)"
        case .rejected(let code, let line): "the SMTP relay refused the mail: \(code) \(line)"
        case .timedOut: "the SMTP relay did not answer in time"
        }
    }
}
