import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@Suite("Roster wire forms")
struct RosterWireTests {
    @Test(
        "roster-wire-negotiates: protobuf only when the Accept header names it and weighs it at least as much as JSON",
        arguments: [
            (nil, RosterWire.json),
            ("", .json),
            ("*/*", .json),
            ("application/json", .json),
            ("application/*", .json),
            ("text/html,application/xhtml+xml,*/*;q=0.8", .json),
            (RosterWire.deviceAccept, .protobuf),
            ("application/x-protobuf", .protobuf),
            ("Application/X-Protobuf ; q=1", .protobuf),
            ("application/x-protobuf;q=0", .json),
            ("application/x-protobuf;q=0.1, application/json", .json),
            ("application/json;q=0.1, application/x-protobuf;q=0.2", .protobuf),
            ("application/x-protobuf;q=0.5, */*", .json),
            ("application/json;q=0.2, application/x-protobuf;q=0.5, */*", .protobuf),
            ("application/x-protobuf;q=nonsense", .json),
        ] as [(String?, RosterWire)])
    func negotiates(accept: String?, expected: RosterWire) {
        #expect(RosterWire.negotiate(accept: accept) == expected)
    }

    static let page = RosterPage(
        accessTypes: [
            AccessTypeInfo(id: .random(), name: "General", walkInAllowed: true, walkInCapacity: 40),
            AccessTypeInfo(id: .random(), name: "VIP ✨", walkInAllowed: false),
        ],
        guests: [
            GuestInfo(
                id: .random(), accessTypeId: .random(), name: "Ada Lovelace", email: "ada@example.org",
                code: "OP1.abc", status: .confirmed, notes: "", checkIn: nil),
            GuestInfo(
                id: .random(), accessTypeId: .random(), name: "<img src=x onerror=alert(1)>", email: "m@example.org",
                code: "OP1.def", status: .cancelled, notes: "line one\nline two",
                checkIn: CheckInSummary(
                    at: Date(millisecondsSince1970: 1_795_290_067_123), byName: "Bea", deviceId: "phone-bea")),
            GuestInfo(
                id: .random(), accessTypeId: .random(), name: "Zoë Ørsted", email: "z@example.org", code: "OP1.ghi",
                status: .revoked, notes: "", checkIn: nil),
        ],
        keys: [RosterKey(keyId: "0a1b2c3d", publicKey: "MCowBQYDK2VwAyEA")],
        kiosk: KioskInfo(passcodeHash: "$2b$12$abcdefghijklmnopqrstuv", orientation: .landscape),
        cursor: "c2luY2U6NDI", hasMore: true, remaining: 1_234,
        serverTime: Date(millisecondsSince1970: 1_795_290_999_001))

    @Test("roster-protobuf-round-trip: every field of a page comes back as it went, with and without a kiosk")
    func roundTrip() throws {
        #expect(try RosterPage(protobuf: Self.page.protobufData()) == Self.page)
        var bare = Self.page
        bare.kiosk = nil
        bare.hasMore = false
        bare.remaining = 0
        bare.guests = []
        #expect(try RosterPage(protobuf: bare.protobufData()) == bare)
        // The same page as JSON is the same value: the two forms carry one page.
        #expect(try OutpostJSON.decode(RosterPage.self, from: OutpostJSON.encode(Self.page)) == Self.page)
    }

    @Test("roster-protobuf-is-compact: a page of guests is at most two thirds of its JSON")
    func compact() throws {
        let guests = (0..<1_000).map { index in
            GuestInfo(
                id: .random(), accessTypeId: .random(), name: "Guest \(index)", email: "guest\(index)@example.org",
                code: "OP1." + String(repeating: "x", count: 120), status: .confirmed, notes: "", checkIn: nil)
        }
        var page = Self.page
        page.guests = guests
        let protobuf = try page.protobufData().count
        let json = try OutpostJSON.encode(page).count
        #expect(protobuf * 3 <= json * 2, "protobuf \(protobuf) bytes, JSON \(json)")
    }

    @Test(
        "roster-protobuf-refuses-damage: cut bytes, a short id, an unknown status or orientation are errors, not a page"
    )
    func refusesDamage() throws {
        let bytes = try Self.page.protobufData()
        // Cut anywhere, also at a field's boundary (the last field, the server's time, 7 bytes back).
        for cut in 1..<bytes.count {
            #expect(throws: RosterWireError.self, "\(cut) bytes cut") { try RosterPage(protobuf: bytes.prefix(cut)) }
        }
        #expect(throws: RosterWireError.self) { try RosterPage(protobuf: Data("<html>portal</html>".utf8)) }

        var message = try Outpost_V1_RosterPage(serializedBytes: bytes)
        message.guests[0].id = message.guests[0].id.prefix(15)
        #expect(throws: RosterWireError.self) { try RosterPage(protobuf: message.serializedData()) }

        message = try Outpost_V1_RosterPage(serializedBytes: bytes)
        message.guests[1].status = .unspecified
        #expect(throws: RosterWireError.self) { try RosterPage(protobuf: message.serializedData()) }

        message = try Outpost_V1_RosterPage(serializedBytes: bytes)
        message.guests[1].status = .UNRECOGNIZED(9)
        #expect(throws: RosterWireError.self) { try RosterPage(protobuf: message.serializedData()) }

        message = try Outpost_V1_RosterPage(serializedBytes: bytes)
        message.kiosk.orientation = .unspecified
        #expect(throws: RosterWireError.self) { try RosterPage(protobuf: message.serializedData()) }
    }
}
