import CTurboJPEG
import Crypto
import Foundation
import OutpostCore
import OutpostDrawing
import OutpostServer
import Testing

@testable import OutpostTerminal

@Suite("Camera stand-in (zbar)")
struct QRImageDecoderTests {
    static func ticket() throws -> String {
        let key = Curve25519.Signing.PrivateKey()
        return try TicketCodec.encode(
            TicketPayload(
                keyID: TicketKeyID(publicKey: key.publicKey), tenantId: UUID(), eventId: UUID(), guestId: UUID(),
                issuedAt: Date()),
            signingKey: key)
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url.path
    }

    @Test("a PNG of a ticket decodes to the exact ticket text")
    func png() throws {
        let text = try Self.ticket()
        let path = try Self.write(try #require(QRCode(text: text)).png(moduleSize: 6), "ticket.png")
        #expect(try QRImageDecoder.decode(path: path) == [text])
    }

    @Test("a JPEG photo of a ticket decodes too")
    func jpeg() throws {
        let text = try Self.ticket()
        let png = try #require(QRCode(text: text)).png(moduleSize: 6)
        let (pixels, width, height) = try QRImageDecoder.grayscale(png)
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var source = pixels
        let status = tjCompress2(
            handle, &source, Int32(width), Int32(width), Int32(height), Int32(TJPF_GRAY.rawValue), &output, &size,
            Int32(TJSAMP_GRAY.rawValue), 85, 0)
        #expect(status == 0)
        let jpeg = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        tjFree(output)
        #expect(try QRImageDecoder.decode(path: try Self.write(jpeg, "ticket.jpg")) == [text])
    }

    @Test("an image without a code, a non-image and a missing file give clear errors")
    func errors() throws {
        let blank = try #require(QRCode(text: "x")).png(moduleSize: 1)
        var pixels = try QRImageDecoder.grayscale(blank)
        pixels.pixels = [UInt8](repeating: 255, count: pixels.pixels.count)
        #expect(throws: QRImageDecoder.DecodeError.noCode) {
            try QRImageDecoder.scan(pixels: pixels.pixels, width: pixels.width, height: pixels.height)
        }
        #expect(throws: QRImageDecoder.DecodeError.unsupportedFormat) {
            try QRImageDecoder.decode(path: try Self.write(Array("hello".utf8), "note.txt"))
        }
        #expect(throws: QRImageDecoder.DecodeError.self) { try QRImageDecoder.decode(path: "/nonexistent/ticket.png") }
        #expect(QRImageDecoder.DecodeError.noCode.description.contains("No QR code was found"))
    }
}
