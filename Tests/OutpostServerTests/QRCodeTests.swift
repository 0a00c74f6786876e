import Crypto
import Foundation
import OutpostCore
import OutpostDrawing
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("QR rendering")
struct QRCodeTests {
    @Test("a ticket is a version 8 QR code at level M; SVG and PNG draw the same modules")
    func ticketSymbol() throws {
        let key = Curve25519.Signing.PrivateKey()
        let text = try TicketCodec.encode(
            TicketPayload(
                keyID: TicketKeyID(publicKey: key.publicKey), tenantId: UUID(), eventId: UUID(), guestId: UUID(),
                issuedAt: Date()),
            signingKey: key)
        let code = try #require(QRCode(text: text))
        #expect(code.version == 8)
        #expect(code.size == 49)
        let darkModules = code.modules.filter { $0 }.count
        #expect(code.svg().components(separatedBy: "h1v1h-1z").count - 1 == darkModules)
        let png = code.png(moduleSize: 4)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let side = UInt32((49 + 8) * 4)
        #expect(png[16..<20].reduce(0) { $0 << 8 | UInt32($1) } == side)
        #expect(png[20..<24].reduce(0) { $0 << 8 | UInt32($1) } == side)
    }

    @Test("text too long for any QR version is refused, not crashed on")
    func tooLong() {
        #expect(QRCode(text: String(repeating: "A", count: 8000)) == nil)
    }
}
