import Crypto
import Foundation
import OutpostCore
import Testing

@Suite("Scanned text normalisation")
struct ScannedTextTests {
    static let ticket: String = {
        let payload = TicketPayload(
            keyID: TicketKeyID(publicKey: TicketVectors.privateKey.publicKey), tenantId: TicketVectors.tenant,
            eventId: TicketVectors.event, guestId: TicketVectors.guest, issuedAt: TicketVectors.issued)
        return try! TicketCodec.encode(payload, signingKey: TicketVectors.privateKey)
    }()

    /// What keyboard-wedge scanners are commonly set to add around the data.
    static let framings: [(String, String)] = [
        ("", " "), ("", "\r"), ("", "\n"), ("", "\r\n"), ("", "\t"), (" ", " \r\n"), ("\u{02}", "\u{03}"),
        ("\u{02}", "\u{04}\r"), ("]Q1", "\r"), ("]Q3", ""), ("\u{FEFF}", "\n"), ("\u{1D}", "\u{1E}\n"),
    ]

    @Test("scanner-suffix: every common prefix and suffix is removed, and the ticket verifies", arguments: 0..<12)
    func framing(index: Int) throws {
        let (prefix, suffix) = Self.framings[index]
        let scanned = prefix + Self.ticket + suffix
        #expect(ScannedText.normalized(scanned) == Self.ticket, "\(scanned.debugDescription.prefix(12))")
        let keys = [TicketKeyID(publicKey: TicketVectors.privateKey.publicKey): TicketVectors.privateKey.publicKey]
        _ = try TicketCodec.verify(
            ScannedText.normalized(scanned), tenantId: TicketVectors.tenant, eventId: TicketVectors.event, keys: keys)
    }

    @Test("a lower-cased ticket (Caps Lock, a scanner's case mapping) is folded back; other text keeps its case")
    func caseFolding() {
        #expect(ScannedText.normalized(Self.ticket.lowercased() + "\r") == Self.ticket)
        #expect(ScannedText.normalized("  Anna Larsen\n") == "Anna Larsen")
        #expect(ScannedText.normalized("anna@Example.org\t") == "anna@Example.org")
        #expect(ScannedText.normalized("op1abc") == "op1abc", "too short to be a ticket: unchanged")
    }

    @Test("text that is only framing, or an identifier alone, never traps")
    func edges() {
        #expect(ScannedText.normalized("") == "")
        #expect(ScannedText.normalized("\r\n\t ") == "")
        #expect(ScannedText.normalized("]Q1") == "]Q1", "an identifier with no data is left as typed")
        #expect(ScannedText.normalized("]") == "]")
        #expect(ScannedText.normalized("]Q1 OP1") == "OP1")
        #expect(ScannedText.normalized(Self.ticket) == Self.ticket, "a clean ticket is unchanged")
    }
}
