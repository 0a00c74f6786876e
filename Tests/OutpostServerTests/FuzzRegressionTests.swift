import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostServer

/// Every input of the fuzzers' committed seed corpus (`Fuzz/Corpus/TARGET/`) and every crash the
/// fuzzers ever found (`Fuzz/Crashes/TARGET/`), replayed through the code the fuzz target drives.
/// `ok-*` inputs must be accepted and `bad-*` inputs refused with a typed error; crash inputs only
/// have to come back at all, which the crash they once caused did not.
@Suite("fuzz regressions")
struct FuzzRegressionTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The inputs of one target: (file name, bytes), corpus and crashes together.
    static func inputs(_ target: String) throws -> [(String, Data)] {
        var found: [(String, Data)] = []
        for folder in ["Corpus", "Crashes"] {
            let directory = fuzzDirectory.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                found.append((name, try Data(contentsOf: directory.appendingPathComponent(name))))
            }
        }
        return found
    }

    @Test("ticket decoder: the seed corpus and every crash input")
    func ticketDecoder() throws {
        let key = try Curve25519.Signing.PublicKey(
            rawRepresentation: try #require(Base64URL.decode("ebVWLo_mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmQ")))
        let tenant = try #require(UUID(uuidString: "6f1c2d3e-4a5b-4c6d-8e7f-0123456789ab"))
        let event = try #require(UUID(uuidString: "0b6a8c1e-2d3f-4a5b-9c7d-ba9876543210"))
        let inputs = try Self.inputs("FuzzTicketDecoder")
        #expect(inputs.count >= 10)
        for (name, data) in inputs {
            let text = String(decoding: data, as: UTF8.self)
            let keys = (try? TicketCodec.parse(text)).map { [$0.payload.keyID: key] } ?? [:]
            let verified = Result { () throws(TicketError) in
                try TicketCodec.verify(text, tenantId: tenant, eventId: event, keys: keys)
            }
            _ = IdempotencyKey(parsing: text)
            _ = Base32.decode(text)
            if name.hasPrefix("ok-") {
                #expect((try? verified.get()) != nil, "\(name) should verify")
            } else if name.hasPrefix("bad-") {
                #expect((try? verified.get()) == nil, "\(name) should be refused")
            }
        }
    }

    @Test("CSV importer: the seed corpus and every crash input")
    func csvImport() throws {
        let types = [
            AccessTypeInfo(
                id: AccessTypeID(wire: "5c3d1e2f-0a1b-4c2d-8e3f-405162738495")!, name: "General", walkInAllowed: true),
            AccessTypeInfo(
                id: AccessTypeID(wire: "6d4e2f30-1b2c-4d3e-9f40-516273849506")!, name: "VIP Ø", walkInAllowed: false),
        ]
        let inputs = try Self.inputs("FuzzCSVImport")
        #expect(inputs.count >= 5)
        for (name, data) in inputs {
            let result = Result { try GuestImport.plan(csv: Array(data), accessTypes: types) }
            // Streamed in small pieces (as an upload arrives), the plan is the same.
            for pieceSize in [1, 7] {
                let streamed = Result {
                    try GuestImport.plan(csv: Array(data), accessTypes: types, pieceSize: pieceSize)
                }
                switch (result, streamed) {
                case (.success(let whole), .success(let pieces)):
                    #expect(
                        pieces.guests.map(\.name) == whole.guests.map(\.name), "\(name) in \(pieceSize)-byte pieces")
                    #expect(pieces.errors == whole.errors, "\(name) in \(pieceSize)-byte pieces")
                case (.failure, .failure): break
                default: Issue.record("\(name): streamed in \(pieceSize)-byte pieces it answered differently")
                }
            }
            if name.hasPrefix("ok-") {
                let plan = try #require(try? result.get(), "\(name) should import")
                #expect(!plan.guests.isEmpty, "\(name) should give guests: \(plan.errors)")
            } else if name.hasPrefix("bad-") {
                #expect(throws: APIError.self, "\(name) should be refused") { try result.get() }
            }
        }
        // The rows of the mixed file: the good ones import, each bad one is reported by its line.
        let mixed = try #require(inputs.first { $0.0 == "ok-bom-and-bad-rows" })
        let plan = try GuestImport.plan(csv: Array(mixed.1), accessTypes: types)
        #expect(plan.errors.map(\.line) == [3, 4, 5, 6])
        #expect(plan.guests.map(\.name) == ["Good Row"])
    }

    @Test("request bodies: the seed corpus and every crash input")
    func requestBodies() throws {
        let inputs = try Self.inputs("FuzzRequestBodies")
        #expect(inputs.count >= 8)
        for (name, body) in inputs {
            var decoded = [
                (try? OutpostJSON.decode(SignInRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(RefreshRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(CheckInRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(CreateEventRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(CreateAccessTypeRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(CreateGuestRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(UpdateGuestRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(CreateUserRequest.self, from: body)) != nil,
                (try? OutpostJSON.decode(KioskSetupRequest.self, from: body)) != nil,
            ]
            if name.hasPrefix("ok-") {
                #expect(decoded.contains(true), "\(name) should decode as some request")
            } else if name.hasPrefix("bad-") {
                // Any JSON object is a valid UpdateGuestRequest (all its fields are optional).
                decoded.remove(at: 6)
                #expect(!decoded.contains(true), "\(name) should decode as no request")
            }
        }
    }
}
