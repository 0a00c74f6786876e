import Crypto
import Foundation
import OutpostCore

/// libFuzzer entry: any bytes as a scanned ticket text. Parsing, verifying against the committed
/// test vectors' key, and the Idempotency-Key and Base32 parsers must reject bad input with a
/// typed error, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTicketDecoder(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    FuzzTicketDecoder.run(text)
    return 0
}

enum FuzzTicketDecoder {
    // The key, tenant and event of Tests/OutpostCoreTests/Fixtures/ticket-vectors.json.
    static let key = try! Curve25519.Signing.PublicKey(
        rawRepresentation: Base64URL.decode("ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ")!)
    static let tenant = UUID(uuidString: "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab")!
    static let event = UUID(uuidString: "0b6a8c1e-2d3f-4a5b-9c7d-ba9876543210")!

    static func run(_ text: String) {
        if let parsed = try? TicketCodec.parse(text) {
            _ = try? TicketCodec.verify(text, tenantId: tenant, eventId: event, keys: [parsed.payload.keyID: key])
        }
        _ = try? TicketCodec.verify(text, tenantId: tenant, eventId: event, keys: [:])
        _ = IdempotencyKey(parsing: text)
        _ = Base32.decode(text)
        _ = Base64URL.decode(text)
    }
}
