import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Custody: a door hands in the venue mesh entries it holds, its peers' too, so a door that
/// admitted guests offline and never came back still has its admissions reach the server; the
/// author's own request, whenever it comes, is the same check-in.
@Suite("Mesh custody")
struct MeshCustodyTests {
    /// A door at the event: its device id and key, certified for the event as `session`.
    struct Door {
        var device: String
        var key: P256.Signing.PrivateKey
        var staff: String
        var entries: [MeshEntry] = []

        /// Signs its next entry: `guest` admitted at `scannedAt`.
        mutating func admit(_ guest: GuestID, event: EventID, at scannedAt: Date) throws -> MeshEntry {
            var entry = MeshEntry(
                event: event, guest: guest, author: device, seq: UInt64(entries.count + 1),
                previous: entries.last?.id ?? MeshEntry.noPrevious, scannedAt: scannedAt.millisecondsSince1970,
                door: device, staff: staff)
            try entry.sign(with: key)
            entries.append(entry)
            return entry
        }
    }

    static func door(_ api: TestAPI, _ session: Session, event: EventID, device: String) async throws -> Door {
        let key = P256.Signing.PrivateKey()
        let answer = try await MeshCertificateTests.certify(api, session, event: event, device: device, key: key)
        #expect(answer.status == 200, "\(answer.text)")
        return Door(device: device, key: key, staff: session.user.name)
    }

    static func upload(
        _ api: TestAPI, _ session: Session, event: EventID, by device: String, _ entries: [MeshEntry],
        raw: [String] = [], peers: [String] = []
    ) async throws -> MeshUploadAnswer {
        let response = try await api.request(
            .post, API.meshEntries.path(event), token: session.accessToken,
            json: MeshUpload(
                device: device, entries: entries.map { Data($0.encoded).base64EncodedString() } + raw,
                held: entries.count, peers: peers))
        #expect(response.status == 200, "\(response.text)")
        return try response.decode(MeshUploadAnswer.self)
    }

    /// The check-ins export's line of `guest` (by name).
    static func exported(_ api: TestAPI, _ world: World, _ guest: GuestInfo) async throws -> String? {
        let csv = try await api.request(
            .get, API.exportCheckIns.path(world.event.id), token: world.organizer.accessToken)
        return csv.text.split(separator: "\n").map(String.init).first { $0.contains(guest.name) }
    }

    @Test(
        "mesh-custody: Bea's door hands in Alex's admissions (Alex's door never came back): each is Alex's check-in on Alex's door, once; Alex's own request later is answered as a retry and fills in the method and note, where it was a 422 idempotency_key_reused",
        arguments: StoreKind.allCases)
    func custody(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            var alex = try await Self.door(api, world.staff1, event: event, device: "door-alex")
            let bea = try await Self.door(api, world.staff2, event: event, device: "door-bea")
            let scanned = Date(millisecondsSince1970: api.clock.now.millisecondsSince1970 - 60_000)
            let first = try alex.admit(world.guests[0].id, event: event, at: scanned)
            let second = try alex.admit(world.guests[1].id, event: event, at: scanned.addingTimeInterval(5))

            // Only the vector at first: nothing held.
            let empty = try await Self.upload(api, world.staff2, event: event, by: bea.device, [])
            #expect(empty.vector.isEmpty && empty.results.isEmpty)

            let answer = try await Self.upload(
                api, world.staff2, event: event, by: bea.device, [first, second], peers: [alex.device])
            #expect(answer.results.map(\.outcome) == [.applied, .applied])
            #expect(answer.vector == [alex.device: 2])
            let line = try #require(try await Self.exported(api, world, world.guests[0]))
            #expect(line.contains("Alex") && line.contains("door-alex") && line.contains(",mesh,"), "\(line)")

            // Handed in again (another door, the same door later): held, nothing applied twice.
            let again = try await Self.upload(api, world.staff2, event: event, by: bea.device, [first])
            #expect(again.results.map(\.outcome) == [.held])
            let counts = try await api.store.checkInCounts(eventId: event, guestId: world.guests[0].id)
            #expect(counts.checkIns == 1 && counts.events == 0)

            // Alex's door comes back and sends its own request: a retry of the custody check-in.
            let own = try await api.checkIn(
                world.staff1, event: event, guest: world.guests[0].id, deviceId: alex.device, scannedAt: scanned,
                method: .qr, note: "wristband given")
            #expect(own.status == 201, "\(own.text)")
            #expect(try own.decode(CheckInResponse.self).result == .checkedIn)
            let filled = try #require(try await Self.exported(api, world, world.guests[0]))
            #expect(filled.contains(",qr,") && filled.contains("wristband given"), "\(filled)")
            // Its retry, byte for byte; and a changed body under the key is refused as before.
            let retry = try await api.checkIn(
                world.staff1, event: event, guest: world.guests[0].id, deviceId: alex.device, scannedAt: scanned,
                method: .qr, note: "wristband given")
            #expect(retry.status == 201 && retry.text == own.text)
            let changed = try await api.checkIn(
                world.staff1, event: event, guest: world.guests[0].id, deviceId: alex.device, scannedAt: scanned,
                method: .manual)
            #expect(changed.status == 422, "\(changed.text)")
            let after = try await api.store.checkInCounts(eventId: event, guestId: world.guests[0].id)
            #expect(after.checkIns == 1 && after.events == 0)

            // The other way round: Alex's door sent its own first; the entry is applied as a
            // retry of it (no repeat in the history), and the check-in keeps Alex's method.
            let third = try alex.admit(world.guests[2].id, event: event, at: scanned.addingTimeInterval(9))
            let sent = try await api.checkIn(
                world.staff1, event: event, guest: world.guests[2].id, deviceId: alex.device,
                scannedAt: Date(millisecondsSince1970: third.scannedAt), method: .manual)
            #expect(sent.status == 201)
            let late = try await Self.upload(api, world.staff2, event: event, by: bea.device, [third])
            #expect(late.results.map(\.outcome) == [.applied])
            #expect(late.vector == [alex.device: 3])
            let kept = try await api.store.checkInCounts(eventId: event, guestId: world.guests[2].id)
            #expect(kept.checkIns == 1 && kept.events == 0)
            let manual = try #require(try await Self.exported(api, world, world.guests[2]))
            #expect(manual.contains(",manual,"), "\(manual)")
        }
    }

    @Test(
        "mesh-custody-duplicate: an admission at a door cut off from the others, of a guest already checked in elsewhere, is handed in as its author's repeat: kept, flagged as today, the first check-in stays",
        arguments: StoreKind.allCases)
    func duplicate(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            var alex = try await Self.door(api, world.staff1, event: event, device: "door-alex")
            let guest = world.guests[0]
            let online = try await api.checkIn(world.staff2, event: event, guest: guest.id, deviceId: "door-bea")
            #expect(online.status == 201)
            let entry = try alex.admit(guest.id, event: event, at: api.clock.now.addingTimeInterval(30))
            let answer = try await Self.upload(api, world.staff2, event: event, by: "door-bea", [entry])
            #expect(answer.results.map(\.outcome) == [.applied])
            let counts = try await api.store.checkInCounts(eventId: event, guestId: guest.id)
            #expect(counts.checkIns == 1 && counts.events == 1)
            let line = try #require(try await Self.exported(api, world, guest))
            #expect(line.contains("door-bea") && line.contains("Bea"), "\(line)")
        }
    }

    @Test(
        "mesh-custody-refused: a forged, another event's, unknown author's, malformed, forked or revoked entry is refused with its reason and checks nobody in; an entry made before its certificate was revoked still counts",
        arguments: StoreKind.allCases)
    func refused(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 6)
            let event = world.event.id
            var alex = try await Self.door(api, world.staff1, event: event, device: "door-alex")
            let now = api.clock.now
            let guests = world.guests.map(\.id)

            // Forged: Alex's entry signed by another key.
            var forged = MeshEntry(
                event: event, guest: guests[0], author: alex.device, seq: 1, previous: MeshEntry.noPrevious,
                scannedAt: now.millisecondsSince1970, door: alex.device, staff: "Alex")
            try forged.sign(with: P256.Signing.PrivateKey())
            // Changed on the way: Alex's real entry, another guest put in.
            var tampered = try alex.admit(guests[1], event: event, at: now)
            tampered.guest = guests[2]
            // Another event's, by an author with no certificate, and not an entry at all.
            var otherEvent = MeshEntry(
                event: world.otherEvent.id, guest: world.otherGuest.id, author: alex.device, seq: 9,
                previous: MeshEntry.noPrevious, scannedAt: now.millisecondsSince1970, door: "x", staff: "x")
            try otherEvent.sign(with: alex.key)
            var stranger = MeshEntry(
                event: event, guest: guests[3], author: "door-stranger", seq: 1, previous: MeshEntry.noPrevious,
                scannedAt: now.millisecondsSince1970, door: "x", staff: "x")
            try stranger.sign(with: P256.Signing.PrivateKey())
            let answer = try await Self.upload(
                api, world.staff2, event: event, by: "door-bea", [forged, tampered, otherEvent, stranger],
                raw: ["not base64!", Data([1, 2, 3]).base64EncodedString()])
            #expect(
                answer.results.map(\.reason)
                    == [.unsigned, .unsigned, .otherEvent, .unsigned, .malformed, .malformed])
            #expect(answer.results.allSatisfy { $0.outcome == .refused })
            #expect(answer.vector.isEmpty)

            // A fork: Alex's number 1 held, then another entry under number 1.
            alex.entries = []
            let real = try alex.admit(guests[4], event: event, at: now)
            #expect(
                try await Self.upload(api, world.staff2, event: event, by: "door-bea", [real]).results.map(\.outcome)
                    == [.applied])
            alex.entries = []
            let fork = try alex.admit(guests[5], event: event, at: now)
            let forkAnswer = try await Self.upload(api, world.staff2, event: event, by: "door-bea", [fork])
            #expect(forkAnswer.results.map(\.reason) == [.fork])

            // Alex's door is reset (a new key revokes the old certificate): an entry the old
            // key made before counts, one dated after is refused.
            let before = try alex.admit(guests[1], event: event, at: now.addingTimeInterval(-5))
            api.clock.advance(by: 60)
            _ = try await MeshCertificateTests.certify(
                api, world.staff1, event: event, device: alex.device, key: P256.Signing.PrivateKey())
            let after = try alex.admit(guests[2], event: event, at: api.clock.now.addingTimeInterval(1))
            let revoked = try await Self.upload(api, world.staff2, event: event, by: "door-bea", [before, after])
            #expect(revoked.results.map(\.outcome) == [.applied, .refused])
            #expect(revoked.results.last?.reason == .revoked)

            for (guest, checkedIn) in zip(guests, [false, true, false, false, true, false]) {
                let counts = try await api.store.checkInCounts(eventId: event, guestId: guest)
                #expect(counts.checkIns == (checkedIn ? 1 : 0), "guest \(guest)")
            }
            let otherCounts = try await api.store.checkInCounts(
                eventId: world.otherEvent.id, guestId: world.otherGuest.id)
            #expect(otherCounts.checkIns == 0)
        }
    }

    @Test(
        "mesh-dashboard: the dashboard shows the doors meshed while offline: the one that reported the doors it met, and the one that never came back, whose admissions other doors handed in, marked for someone to look for it; a door alone is not listed",
        arguments: StoreKind.allCases)
    func dashboard(kind: StoreKind) async throws {
        try await withTestServer(kind, configure: { $0.consoleStreamLifetime = 0 }) { api in
            let world = try await World.make(api)
            let event = world.event.id
            var alex = try await Self.door(api, world.staff1, event: event, device: "door-alex")
            let scanned = api.clock.now
            let entries = [
                try alex.admit(world.guests[0].id, event: event, at: scanned),
                try alex.admit(world.guests[1].id, event: event, at: scanned.addingTimeInterval(2)),
            ]
            // A door alone hands in its own entry and met nobody: not in the mesh section.
            var solo = try await Self.door(api, world.staff2, event: event, device: "door-solo")
            _ = try await Self.upload(
                api, world.staff2, event: event, by: solo.device,
                [try solo.admit(world.guests[2].id, event: event, at: scanned)])
            _ = try await Self.upload(
                api, world.staff2, event: event, by: "door-bea", entries, peers: [alex.device])
            let board = try await api.request(
                .get, API.dashboard.path(event), token: world.organizer.accessToken
            ).decode(DoorDashboard.self)
            #expect(board.mesh.map(\.deviceId) == ["door-alex", "door-bea"], "\(board.mesh)")
            let dark = try #require(board.mesh.first)
            #expect(dark.admitted == 2 && dark.throughOthers == 2 && dark.reportedAt == nil && dark.userName == "Alex")
            let bea = try #require(board.mesh.last)
            #expect(bea.peers == ["door-alex"] && bea.held == 2 && bea.reportedAt != nil && bea.userName == "Bea")

            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get("/admin/events/\(event.wire)/dashboard").text
            #expect(page.contains("<section id=\"mesh-section\">"), "shown")
            #expect(
                page.contains(
                    "<tr class=\"attention\"><td>door-alex</td><td>Alex</td><td>none reported</td><td>2 (2 through other doors)</td><td>never: its admissions came through other doors</td></tr>"
                ), "\(page)")
            #expect(page.contains("<td>door-bea</td><td>Bea</td><td>door-alex</td><td>0</td>"))
            #expect(!page.contains("door-solo</td><td>Bea"))
        }
    }

    @Test(
        "mesh-custody-roles: only those who work the event's doors hand entries in; another tenant's organizer gets 404; more than 256 entries is a 422",
        arguments: [StoreKind.sqlite])
    func roles(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let path = API.meshEntries.path(world.event.id)
            let upload = MeshUpload(device: "door-x", entries: [], held: 0, peers: [])
            let other = try await api.request(.post, path, token: world.otherOrganizer.accessToken, json: upload)
            #expect(other.status == 404)
            let tooMany = MeshUpload(
                device: "door-x", entries: Array(repeating: "AA==", count: 257), held: 0, peers: [])
            let large = try await api.request(.post, path, token: world.staff1.accessToken, json: tooMany)
            #expect(large.status == 422)
            let badDevice = MeshUpload(device: "door x", entries: [], held: 0, peers: [])
            #expect(try await api.request(.post, path, token: world.staff1.accessToken, json: badDevice).status == 422)
        }
    }
}
