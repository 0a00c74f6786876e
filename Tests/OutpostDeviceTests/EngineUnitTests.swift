import Crypto
import Foundation
import OutpostCore
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

@Suite("Roster index")
struct RosterIndexTests {
    static let event = EventID.random()
    static let accessType = AccessTypeID.random()

    static func guest(_ name: String, _ email: String, _ code: String) -> LocalGuest {
        LocalGuest(
            id: .random(), eventId: Self.event, accessTypeId: Self.accessType, name: name, email: email, code: code,
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

    @Test(
        "roster-index-composed-keys: a name stored decomposed (NFD) is found by the composed query and the other way round, in scripts folding does not turn into ASCII"
    )
    func composedKeys() {
        // 한국 with 한 as three jamo (NFD), 서울 composed; Ωμέγα with its accent as a mark.
        let index = RosterIndex(guests: [
            Self.guest("\u{1112}\u{1161}\u{11AB}국 Kim", "kim@example.kr", "KR00000001"),
            Self.guest("서울 Park", "park@example.kr", "KR00000002"),
            Self.guest("Ωμε\u{0301}γα Papadopoulou", "omega@example.gr", "GR00000001"),
        ])
        #expect(index.search("한").map(\.name) == ["\u{1112}\u{1161}\u{11AB}국 Kim"])
        #expect(index.search("\u{1109}\u{1165}\u{110B}\u{116E}\u{11AF}").map(\.name) == ["서울 Park"])
        #expect(index.search("ωμεγ").map(\.name) == ["Ωμε\u{0301}γα Papadopoulou"])
        #expect(index.search("ΩΜΈΓΑ").map(\.name) == ["Ωμε\u{0301}γα Papadopoulou"])
    }

    @Test(
        "roster-index-long-text: a name past 65,535 bytes is indexed up to a character boundary below that, and its snapshot opens"
    )
    func longText() throws {
        let long = "Ødegård " + String(repeating: "é", count: 40_000)
        let index = RosterIndex(guests: [Self.guest(long, "long@example.org", "LONG000001")])
        let opened = try RosterIndex(snapshot: index.snapshot())
        #expect(opened.search("odegard ee").count == 1)
        let name = try #require(opened.search("long000001").first?.name)
        #expect(name.utf8.count <= 65_535 && name.utf8.count > 65_000)
        #expect(long.hasPrefix(name), "cut at a character boundary, not inside one")
    }

    @Test(
        "roster-lookup-candidates: a code or an e-mail names the guests whose key is exactly it (folded and trimmed, never a longer key), from the built index and from the changes since, without removed guests"
    )
    func lookupCandidates() {
        let long = String(repeating: "l", count: 400) + "@example.org"
        let accented = Self.guest("José Acento", "josé@example.org", "ACC0000001")
        let plain = Self.guest("Jose Plano", "jose@example.org", "ACC00000011")
        let longMail = Self.guest("Long Mail", long, "LONG000001")
        var index = RosterIndex(guests: [accented, plain, longMail, Self.guest("Other", "o@example.org", "OTHER00001")])
        #expect(index.candidates(code: " acc0000001 ") == [accented.id], "not the longer ACC00000011")
        #expect(index.candidates(code: "ACC000000").isEmpty, "a prefix is not a code")
        // Folding drops the accent: both are candidates; the module keeps the one whose own
        // e-mail is equal.
        #expect(Set(index.candidates(email: "JOSE@example.org")) == [accented.id, plain.id])
        #expect(index.candidates(email: long.uppercased()) == [longMail.id])
        #expect(index.candidates(email: long + "x").isEmpty && index.candidates(email: "l@example.org").isEmpty)
        #expect(index.candidates(email: "").isEmpty && index.candidates(code: "   ").isEmpty)
        var recoded = plain
        recoded.code = "NEW0000001"
        let added = Self.guest("Added Later", "added@example.org", "ADD0000001")
        index.apply(changed: [recoded, added], removed: [accented.id])
        #expect(index.candidates(code: "ACC00000011").isEmpty, "the old code is hidden")
        #expect(index.candidates(code: "new0000001") == [plain.id])
        #expect(index.candidates(email: "added@example.org") == [added.id])
        #expect(index.candidates(email: "josé@example.org") == [plain.id], "a removed guest is no candidate")
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

@Suite("Roster index against a linear scan")
struct RosterIndexPropertyTests {
    /// A guest's folded keys, computed once.
    struct Folded {
        var guest: LocalGuest
        var name: String
        var words: [String]
        var email: String
        var code: String

        init(_ guest: LocalGuest) {
            self.guest = guest
            name = RosterIndex.fold(guest.name)
            words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            email = RosterIndex.fold(guest.email)
            code = RosterIndex.fold(guest.code)
        }
    }

    /// The ranking the index promises, computed the slow way: a scan of every guest.
    static func expected(_ guests: [Folded], _ query: String) -> [GuestID] {
        let needle = RosterIndex.fold(query)
        func rank(_ guest: Folded) -> Int? {
            if guest.code == needle { return 0 }
            if guest.name.hasPrefix(needle) { return 1 }
            if guest.words.contains(where: { $0.hasPrefix(needle) }) { return 2 }
            if guest.email.hasPrefix(needle) { return 3 }
            if guest.code.hasPrefix(needle) { return 4 }
            return nil
        }
        return guests.compactMap { guest in rank(guest).map { (rank: $0, guest: guest) } }
            .sorted { ($0.rank, $0.guest.name, $0.guest.guest.id) < ($1.rank, $1.guest.name, $1.guest.guest.id) }
            .prefix(20).map(\.guest.guest.id)
    }

    /// `count` guests with many shared first names, last names and e-mail prefixes.
    static func seededGuests(count: Int) -> [LocalGuest] {
        var random = SeededRandom(seed: 99)
        let first = ["Åse", "Anne", "Ann", "Bjørn", "Zoë", "José", "Jo", "Mei", "Kwame", "Ingrid", "Ola", "Ole"]
        let last = ["Nordmann", "Ødegård", "García", "Chen", "Mensah", "Larsen", "Lars", "An", "Dubois", "Müller"]
        return (0..<count).map { index in
            LocalGuest(
                id: GuestID(wire: String(format: "00000000-0000-4000-8000-%012d", index))!,
                eventId: RosterIndexTests.event,
                accessTypeId: RosterIndexTests.accessType,
                name: "\(first.randomElement(using: &random)!) \(last.randomElement(using: &random)!)",
                email: "\(["ann", "jo", "x", "ole"].randomElement(using: &random)!)\(index)@example.org",
                code: String(format: "C%04X", index), notes: "", status: .confirmed, checkIn: nil)
        }
    }

    @Test(
        "roster-index-overlay-follows: renames, new guests and removals applied to a built index and to one opened from its snapshot rank 1,500 seeded queries exactly like a linear scan of the roster they make, and fold into a snapshot that does too"
    )
    func overlayFollows() throws {
        var guests = Self.seededGuests(count: 3_000)
        var built = RosterIndex(guests: guests)
        var opened = try RosterIndex(snapshot: built.snapshot())
        var random = SeededRandom(seed: 101)
        let alphabet = Array("abcdefghijklmnorstuzøåëé0123c")
        let names = ["Annabel Zed", "Åse Quist", "Olaf Ann", "Jo Nordmann", "Zoë Ann-Marie"]
        func queries(_ count: Int) -> [String] {
            (0..<count).map { _ in
                String((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            }
        }
        for round in 0..<5 {
            var changed: [LocalGuest] = []
            var gone: [GuestID] = []
            for step in 0..<40 {
                let at = Int.random(in: 0..<guests.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    guests[at].name = names.randomElement(using: &random)!
                    changed.append(guests[at])
                case 1:
                    guests[at].code = "Z\(round)\(step)"
                    guests[at].email = "moved\(round)-\(step)@example.org"
                    changed.append(guests[at])
                case 2:
                    let new = LocalGuest(
                        id: GuestID(wire: String(format: "00000000-0000-4000-9000-%012d", round * 100 + step))!,
                        eventId: RosterIndexTests.event, accessTypeId: RosterIndexTests.accessType,
                        name: names.randomElement(using: &random)!, email: "new\(round)-\(step)@example.org",
                        code: String(format: "N%04d", round * 100 + step), notes: "", status: .confirmed, checkIn: nil)
                    guests.append(new)
                    changed.append(new)
                default:
                    gone.append(guests.remove(at: at).id)
                }
            }
            built.apply(changed: changed, removed: gone)
            opened.apply(changed: changed, removed: gone)
            let folded = guests.map(Folded.init)
            for query in queries(300) {
                #expect(built.search(query).map(\.id) == Self.expected(folded, query), "round \(round): \(query)")
                #expect(opened.search(query) == built.search(query), "round \(round): \(query)")
            }
        }
        #expect(built.count == guests.count)
        #expect(built.changedSinceBuilt > 0)
        let merged = try RosterIndex(snapshot: built.snapshot())
        #expect(merged.changedSinceBuilt == 0 && merged.count == guests.count)
        let folded = guests.map(Folded.init)
        for query in queries(300) {
            #expect(merged.search(query).map(\.id) == Self.expected(folded, query), "\(query)")
        }
    }

    @Test("2,000 seeded queries over 3,000 guests rank exactly like a linear scan")
    func matchesLinearScan() {
        let guests = Self.seededGuests(count: 3_000)
        var random = SeededRandom(seed: 100)
        var index = RosterIndex(guests: guests)
        let folded = guests.map(Folded.init)
        let alphabet = Array("abcdefghijklmnorstuzøåëé0123c")
        for _ in 0..<2_000 {
            let length = Int.random(in: 1...4, using: &random)
            let query = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            #expect(index.search(query).map(\.id) == Self.expected(folded, query), "\(query)")
        }
        // Updates keep the index exact.
        var renamed = guests[7]
        renamed.name = "Annabel Zed"
        index.update(renamed)
        var updated = folded
        updated[7] = Folded(renamed)
        #expect(index.search("annab").map(\.id) == Self.expected(updated, "annab"))
        #expect(index.search("c0007").map(\.id).first == renamed.id)
    }
}

@Suite("Guest coding")
struct GuestCodingTests {
    static let event = EventID.random()
    static let accessType = AccessTypeID.random()
    static let guests: [LocalGuest] = [
        LocalGuest(
            id: .random(), eventId: event, accessTypeId: accessType, name: "Åse Ødegård 🎟️", email: "ase@example.org",
            code: "K7Q2",
            notes: String(repeating: "long note ", count: 40), status: .confirmed, checkIn: nil),
        LocalGuest(
            id: .random(), eventId: event, accessTypeId: accessType, name: "", email: "", code: "", notes: "",
            status: .revoked,
            checkIn: LocalCheckIn(
                at: Date(millisecondsSince1970: -1_234), byName: "Sam", deviceId: "device:with:colons", pending: true)),
        LocalGuest(
            id: .random(), eventId: event, accessTypeId: accessType, name: "Zoë", email: "z@e.org", code: "C",
            notes: "",
            status: .cancelled,
            checkIn: LocalCheckIn(
                at: Date(millisecondsSince1970: 1_795_000_000_123), byName: "", deviceId: "d", pending: false)),
    ]

    @Test(
        "guest-card-fields-coding: the binary form round-trips every field (the block and the guest field values too), and guests sealed as JSON or before fields by earlier versions still open"
    )
    func roundTrip() throws {
        let decoder = JSONDecoder.outpostDevice
        for guest in Self.guests {
            let bytes = GuestCoding.encode(guest)
            #expect(bytes.first == GuestCoding.tag)
            #expect(try GuestCoding.decode(Data(bytes), json: decoder) == guest)
            let legacy = try JSONEncoder.outpostDevice.encode(guest)
            #expect(try GuestCoding.decode(legacy, json: decoder) == guest)
        }
        // A block's ticket carries its block after the check-in; a guest without one ends there.
        var blockTicket = Self.guests[1]
        blockTicket.blockId = .random()
        let withBlock = GuestCoding.encode(blockTicket)
        #expect(try GuestCoding.decode(Data(withBlock), json: decoder) == blockTicket)
        #expect(withBlock.starts(with: GuestCoding.encode(Self.guests[1])))
        // Field values follow the block (empty outside every block), by id; guests sealed
        // before fields read with none.
        var withFields = Self.guests[0]
        withFields.fields = ["b-field": "yes", "a-field": "Vegan, no nuts ü"]
        let fieldBytes = GuestCoding.encode(withFields)
        #expect(try GuestCoding.decode(Data(fieldBytes), json: decoder) == withFields)
        #expect(fieldBytes.starts(with: GuestCoding.encode(Self.guests[0])))
        blockTicket.fields = ["a-field": "M"]
        #expect(try GuestCoding.decode(Data(GuestCoding.encode(blockTicket)), json: decoder) == blockTicket)
        #expect(try GuestCoding.decode(try JSONEncoder.outpostDevice.encode(withFields), json: decoder) == withFields)
        var noFields = withFields
        noFields.fields = [:]
        #expect(GuestCoding.encode(noFields) == GuestCoding.encode(Self.guests[0]), "empty values are none")
        let sealer = Sealer(masterKey: SymmetricKey(size: .bits256))
        #expect(try sealer.openGuest(try sealer.seal(guest: Self.guests[1])) == Self.guests[1])
        #expect(try sealer.openGuest(try sealer.seal(json: Self.guests[0])) == Self.guests[0])
    }

    @Test("every truncation, a bad flag and a stored id that is not an id are refused with an error, never a crash")
    func damagedInput() {
        let decoder = JSONDecoder.outpostDevice
        for guest in Self.guests {
            let bytes = GuestCoding.encode(guest)
            for length in 1..<bytes.count {
                #expect(throws: (any Error).self) { try GuestCoding.decode(Data(bytes.prefix(length)), json: decoder) }
            }
            #expect(throws: GuestCoding.Failure.self) { try GuestCoding.decode(Data(bytes + [0]), json: decoder) }
        }
        var flagged = GuestCoding.encode(Self.guests[0])
        flagged[flagged.count - 1] = 7
        #expect(throws: GuestCoding.Failure.malformed("check-in flag")) {
            try GuestCoding.decode(Data(flagged), json: decoder)
        }
        // typed-ids-strict: a stored id that is no longer an id is an error, never a made-up id.
        var renamed = GuestCoding.encode(Self.guests[0])
        #expect(renamed[1] == 36, "the id is the first string: its length, then its 36 characters")
        renamed[2] = UInt8(ascii: "z")
        #expect(throws: GuestCoding.Failure.malformed("id")) { try GuestCoding.decode(Data(renamed), json: decoder) }
    }
}
