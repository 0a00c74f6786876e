import Crypto
import Foundation
import OutpostCore
import Testing

@testable import OutpostDevice

@Suite("Roster index")
struct RosterIndexTests {
    static func guest(_ name: String, _ email: String, _ code: String) -> LocalGuest {
        LocalGuest(
            id: UUID().lowercasedString, eventId: "e", accessTypeId: "a", name: name, email: email, code: code,
            notes: "",
            status: .confirmed, checkIn: nil)
    }

    let index = RosterIndex(guests: [
        guest("Åse Nordmann", "ase@example.no", "AAAA111111"),
        guest("Bjørn Ødegård", "bjorn@example.no", "BBBB222222"),
        guest("Zoë Ünal", "zoe@example.org", "CCCC333333"),
        guest("Anne Åsheim", "anne@example.no", "DDDD444444"),
        guest("Asegir Berg", "berg@example.com", "ASE0000001"),
        guest("Müller-Lüdenscheidt, Jürgen", "jm@example.de", "EEEE555555"),
    ])

    @Test("prefix from the first character, case- and diacritic-insensitive")
    func folding() {
        #expect(index.search("o").map(\.name) == ["Bjørn Ødegård"])
        #expect(index.search("zoe").map(\.name) == ["Zoë Ünal"])
        #expect(index.search("UNAL").map(\.name) == ["Zoë Ünal"])
        #expect(index.search("lud").map(\.name) == ["Müller-Lüdenscheidt, Jürgen"])
        #expect(index.search("jurg").map(\.name) == ["Müller-Lüdenscheidt, Jürgen"])
        #expect(index.search("   ").isEmpty)
        #expect(index.search("xyz").isEmpty)
    }

    @Test("ranked: exact code, full-name prefix, word prefix, e-mail, code prefix")
    func ranking() {
        #expect(index.search("ase0000001").map(\.name) == ["Asegir Berg"])
        #expect(index.search("as").map(\.name) == ["Åse Nordmann", "Asegir Berg", "Anne Åsheim"])
        #expect(index.search("ase").map(\.name) == ["Åse Nordmann", "Asegir Berg"])
        #expect(index.search("berg").map(\.name) == ["Asegir Berg"])
        #expect(index.search("bbbb").map(\.name) == ["Bjørn Ødegård"])
    }

    @Test("at most 20 results")
    func limit() {
        let many = RosterIndex(guests: (0..<100).map { Self.guest("Guest \($0)", "g\($0)@x.io", "CODE\($0)") })
        #expect(many.search("gu").count == 20)
        #expect(many.count == 100)
    }
}

@Suite("Outbox backoff")
struct OutboxBackoffTests {
    @Test("exponential, capped, jittered between half and the whole ceiling")
    func delays() {
        let backoff = OutboxBackoff(base: 1, cap: 60)
        #expect(
            (1...8).map { backoff.delay(afterAttempts: $0, random: { $0.lowerBound }) } == [
                0.5, 1, 2, 4, 8, 16, 30, 30,
            ])
        #expect(
            (1...8).map { backoff.delay(afterAttempts: $0, random: { $0.upperBound }) } == [1, 2, 4, 8, 16, 32, 60, 60])
        #expect(backoff.delay(afterAttempts: 1000, random: { $0.upperBound }) == 60)
    }
}

@Suite("Sealer")
struct SealerTests {
    @Test("boxes open only with their key; blind indexes are stable, case-folded and keyed")
    func sealing() throws {
        let sealer = Sealer(masterKey: SymmetricKey(size: .bits256))
        let box = try sealer.seal(Data("Åse".utf8))
        #expect(try sealer.open(box) == Data("Åse".utf8))
        #expect(try sealer.seal(Data("Åse".utf8)) != box, "a fresh nonce every time")
        #expect(throws: SealError.self) { try Sealer(masterKey: SymmetricKey(size: .bits256)).open(box) }
        #expect(sealer.blind("ABC123") == sealer.blind(" abc123 "))
        #expect(sealer.blind("ABC123") != Sealer(masterKey: SymmetricKey(size: .bits256)).blind("ABC123"))
    }

    @Test("platform versions compare numerically")
    func versions() {
        #expect(PlatformInfo(os: .ios, version: "16.0").isBelow(minIOS: "16.0", minAndroidAPI: 30) == false)
        #expect(PlatformInfo(os: .ios, version: "15.7.9").isBelow(minIOS: "16.0", minAndroidAPI: 30))
        #expect(PlatformInfo(os: .ios, version: "16.10").isBelow(minIOS: "16.9", minAndroidAPI: 30) == false)
        #expect(PlatformInfo(os: .android, version: "29").isBelow(minIOS: "16.0", minAndroidAPI: 30))
    }
}
