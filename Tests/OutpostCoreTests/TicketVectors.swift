import Crypto
import Foundation
import OutpostCore

/// The committed ticket test vectors (`Fixtures/ticket-vectors.json`) and how they were made.
struct TicketVectors: Codable {
    struct Case: Codable {
        var name: String
        var text: String
        /// nil for the valid ticket; otherwise the ``TicketError`` raw value.
        var error: String?
    }

    var publicKey: String
    var tenantId: String
    var eventId: String
    var guestId: String
    var issuedAt: Int
    var cases: [Case]

    static let privateKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: (1...32).map { UInt8($0) })
    static let otherKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: (101...132).map { UInt8($0) })
    static let tenant = UUID(uuidString: "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab")!
    static let event = UUID(uuidString: "0b6a8c1e-2d3f-4a5b-9c7d-ba9876543210")!
    static let guest = UUID(uuidString: "c0ffee00-1234-4abc-8def-001122334455")!
    static let issued = Date(timeIntervalSince1970: 1_795_000_000)

    static var fixtureURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Fixtures/ticket-vectors.json")
    }

    /// Builds the vectors from fixed keys and ids.
    static func generate() throws -> TicketVectors {
        let keyID = TicketKeyID(publicKey: privateKey.publicKey)
        let payload = TicketPayload(keyID: keyID, tenantId: tenant, eventId: event, guestId: guest, issuedAt: issued)
        let valid = try TicketCodec.encode(payload, signingKey: privateKey)
        var cases = [Case(name: "valid", text: valid, error: nil)]
        let bytes = Base32.decode(valid.dropFirst(3))!
        for index in bytes.indices {
            var flipped = bytes
            flipped[index] ^= 0x01
            let expected: TicketError =
                switch index {
                case 0: .malformed
                case 1..<5: .unknownKey
                case 5..<37: .otherEvent
                default: .badSignature
                }
            cases.append(
                Case(name: "flip byte \(index)", text: "OP1" + Base32.encode(flipped), error: expected.rawValue))
        }
        for cut in [1, 2, 8, 100, valid.count - 3, valid.count] {
            cases.append(
                Case(
                    name: "truncated by \(cut)", text: String(valid.dropLast(cut)),
                    error: TicketError.malformed.rawValue))
        }
        cases.append(Case(name: "one character too many", text: valid + "A", error: TicketError.malformed.rawValue))
        cases.append(Case(name: "lower case", text: valid.lowercased(), error: TicketError.malformed.rawValue))
        cases.append(
            Case(name: "other prefix", text: "OP2" + valid.dropFirst(3), error: TicketError.malformed.rawValue))
        var otherKeyPayload = payload
        otherKeyPayload.keyID = TicketKeyID(publicKey: otherKey.publicKey)
        cases.append(
            Case(
                name: "wrong key", text: try TicketCodec.encode(otherKeyPayload, signingKey: otherKey),
                error: TicketError.unknownKey.rawValue))
        cases.append(
            Case(
                name: "wrong key claiming the right key id",
                text: try TicketCodec.encode(payload, signingKey: otherKey),
                error: TicketError.badSignature.rawValue))
        var otherEvent = payload
        otherEvent.eventId = UUID(uuidString: "0b6a8c1e-2d3f-4a5b-9c7d-ba9876543211")!
        cases.append(
            Case(
                name: "other event", text: try TicketCodec.encode(otherEvent, signingKey: privateKey),
                error: TicketError.otherEvent.rawValue))
        var otherTenant = payload
        otherTenant.tenantId = UUID(uuidString: "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ac")!
        cases.append(
            Case(
                name: "other tenant", text: try TicketCodec.encode(otherTenant, signingKey: otherKey),
                error: TicketError.otherEvent.rawValue))
        return TicketVectors(
            publicKey: Base64URL.encode(privateKey.publicKey.rawRepresentation), tenantId: tenant.lowercasedString,
            eventId: event.lowercasedString, guestId: guest.lowercasedString, issuedAt: 1_795_000_000, cases: cases)
    }
}
