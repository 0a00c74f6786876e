import Crypto
import Foundation
import OutpostCore
import Testing

@Suite("Ticket codec")
struct TicketCodecTests {
    let keys = [TicketKeyID(publicKey: TicketVectors.privateKey.publicKey): TicketVectors.privateKey.publicKey]

    func verify(_ text: String) -> Result<TicketPayload, TicketError> {
        Result { () throws(TicketError) in
            try TicketCodec.verify(text, tenantId: TicketVectors.tenant, eventId: TicketVectors.event, keys: keys)
        }
    }

    @Test("the committed vectors decode to exactly their recorded outcome")
    func committedVectors() throws {
        if ProcessInfo.processInfo.environment["OUTPOST_REGENERATE_VECTORS"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(try TicketVectors.generate()).write(to: TicketVectors.fixtureURL)
        }
        let vectors = try JSONDecoder().decode(TicketVectors.self, from: Data(contentsOf: TicketVectors.fixtureURL))
        #expect(vectors.cases.count > 130)
        #expect(vectors.publicKey == Base64URL.encode(TicketVectors.privateKey.publicKey.rawRepresentation))
        for vector in vectors.cases {
            switch verify(vector.text) {
            case .success(let payload):
                #expect(vector.error == nil, "\(vector.name) was accepted")
                #expect(payload.guestId.lowercasedString == vectors.guestId)
                #expect(payload.issuedAt == Date(timeIntervalSince1970: TimeInterval(vectors.issuedAt)))
            case .failure(let error):
                #expect(vector.error == error.rawValue, "\(vector.name)")
            }
        }
    }

    @Test("a ticket is 197 QR-alphanumeric characters and round-trips")
    func roundTrip() throws {
        let payload = TicketPayload(
            keyID: TicketKeyID(publicKey: TicketVectors.privateKey.publicKey), tenantId: UUID(),
            eventId: TicketVectors.event,
            guestId: UUID(), issuedAt: Date(timeIntervalSince1970: 1_800_000_000.9))
        let text = try TicketCodec.encode(payload, signingKey: TicketVectors.privateKey)
        #expect(text.count == 197)
        #expect(text.count == TicketCodec.textLength)
        #expect(text.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        let parsed = try TicketCodec.parse(text)
        #expect(parsed.payload == payload)
        #expect(parsed.payload.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("10,000 seeded random mutations of a valid ticket are all rejected without a crash")
    func mutationsAreRejected() throws {
        let valid = try #require(try TicketVectors.generate().cases.first?.text)
        var random = SeededRandom(seed: 0x0007_2026)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567019abz+/= \n\u{0}é")
        var outcomes: [TicketError: Int] = [:]
        for _ in 0..<10_000 {
            var characters = Array(valid)
            let edits = Int.random(in: 1...4, using: &random)
            for _ in 0..<edits {
                let position = Int.random(in: 0..<characters.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: characters[position] = alphabet.randomElement(using: &random)!
                case 1: characters.remove(at: position)
                case 2: characters.insert(alphabet.randomElement(using: &random)!, at: position)
                case 3: characters = Array(characters.prefix(position))
                default: characters.swapAt(position, Int.random(in: 0..<characters.count, using: &random))
                }
                if characters.isEmpty { characters = ["O"] }
            }
            let mutated = String(characters)
            guard mutated != valid else { continue }
            switch verify(mutated) {
            case .success: Issue.record("mutation accepted: \(mutated)")
            case .failure(let error): outcomes[error, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) > 9_900)
        #expect(outcomes[.malformed, default: 0] > 0 && outcomes[.badSignature, default: 0] > 0)
    }

    @Test(
        "arbitrary text never crashes the decoder",
        arguments: ["", "OP1", "OP1" + String(repeating: "A", count: 194), "💥", String(repeating: "OP1", count: 70)])
    func arbitraryText(text: String) {
        #expect(throws: TicketError.malformed) { try TicketCodec.parse(text) }
    }
}
