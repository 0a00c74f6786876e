import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@Suite("Wire conventions")
struct OutpostJSONTests {
    @Test(
        "timestamps are RFC 3339 UTC with exactly three fraction digits",
        arguments: [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_795_000_000_123, "2026-11-18T11:06:40.123Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        ])
    func format(millis: Int64, text: String) {
        #expect(OutpostJSON.format(Date(millisecondsSince1970: millis)) == text)
        #expect(OutpostJSON.parse(text)?.millisecondsSince1970 == millis)
    }

    @Test("timestamps parse with or without fractions; garbage is nil")
    func parse() {
        #expect(OutpostJSON.parse("2026-11-21T19:41:07Z")?.millisecondsSince1970 == 1_795_290_067_000)
        #expect(OutpostJSON.parse("2026-11-21T19:41:07.5Z")?.millisecondsSince1970 == 1_795_290_067_500)
        for bad in ["", "yesterday", "2026-13-01T00:00:00Z", String(repeating: "9", count: 100)] {
            #expect(OutpostJSON.parse(bad) == nil)
        }
    }

    @Test(
        "track-strict-input-timestamps: a timestamp parses only when its fields exist as written (no 30 February, no 25:00)",
        arguments: [
            ("2024-02-29T08:00:00Z", true), ("2026-02-28T23:59:59.999Z", true), ("2026-11-24T08:00:00+01:00", true),
            ("2000-02-29T00:00:00Z", true), ("2026-02-29T08:00:00Z", false), ("2026-02-30T08:00:00Z", false),
            ("1900-02-29T08:00:00Z", false), ("2026-04-31T08:00:00Z", false), ("2026-13-01T08:00:00Z", false),
            ("2026-00-10T08:00:00Z", false), ("2026-11-00T08:00:00Z", false), ("2026-11-24T24:00:00Z", false),
            ("2026-11-24T08:60:00Z", false), ("2026-11-24T08:00:60Z", false), ("2026-11-24T08:00:00+24:00", false),
            ("2026-11-24T08:00:00+01:60", false), ("2026-11-24", false), ("２026-11-24T08:00:00Z", false),
        ])
    func strictTimestamps(text: String, valid: Bool) {
        #expect((OutpostJSON.parse(text) != nil) == valid, "\(text)")
    }

    @Test("a guest without a check-in and a page without a kiosk write explicit nulls; keys are sorted")
    func explicitNulls() throws {
        let guest = GuestInfo(
            id: .random(), accessTypeId: .random(), name: "Åse", email: "a@b.c", code: "C", status: .confirmed,
            notes: "",
            checkIn: nil)
        let page = RosterPage(
            accessTypes: [], guests: [guest], keys: [], kiosk: nil, cursor: "R", hasMore: false, remaining: 0,
            serverTime: Date(millisecondsSince1970: 0))
        let text = String(decoding: try OutpostJSON.encode(page), as: UTF8.self)
        #expect(text.contains(#""checkIn":null"#))
        #expect(text.contains(#""kiosk":null"#))
        #expect(text.hasPrefix(#"{"accessTypes":[],"blocks":[],"cursor":"R","fields":[],"guests":"#))
        let decoded = try OutpostJSON.decode(RosterPage.self, from: Data(text.utf8))
        #expect(decoded == page)
    }

    @Test("a check-in request round-trips and encodes identically every time")
    func deterministic() throws {
        let request = CheckInRequest(
            guestId: .random(), deviceId: "ipad",
            scannedAt: Date(millisecondsSince1970: 1_795_000_000_001),
            method: .manual, note: "late")
        let first = try OutpostJSON.encode(request)
        #expect(try OutpostJSON.encode(request) == first)
        #expect(try OutpostJSON.decode(CheckInRequest.self, from: first) == request)
    }

    @Test("typed-ids-strict: ids decode only from their canonical UUID text, never to a made-up id")
    func typedIdsStrict() throws {
        let guest = GuestID.random()
        let valid = #"{"guestId":"\#(guest.wire)","deviceId":"d","scannedAt":"2026-11-18T08:26:40.000Z","method":"qr"}"#
        #expect(try OutpostJSON.decode(CheckInRequest.self, from: Data(valid.utf8)).guestId == guest)
        for bad in ["", "g", "not-a-uuid", String(guest.wire.dropLast()), guest.wire + "0", " " + guest.wire] {
            let body = #"{"guestId":"\#(bad)","deviceId":"d","scannedAt":"2026-11-18T08:26:40.000Z","method":"qr"}"#
            #expect(throws: DecodingError.self, "\(bad)") {
                try OutpostJSON.decode(CheckInRequest.self, from: Data(body.utf8))
            }
        }
        let user =
            #"{"id":"u1","name":"A","email":"a@b.c","role":"organizer","tenantId":"\#(UUID().lowercasedString)"}"#
        #expect(throws: DecodingError.self) { try OutpostJSON.decode(UserInfo.self, from: Data(user.utf8)) }
    }
}
