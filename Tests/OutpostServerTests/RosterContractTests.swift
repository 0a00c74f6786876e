import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

@Suite("Roster contract")
struct RosterContractTests {
    @Test("pages are ordered and resumable from any stored cursor", arguments: StoreKind.allCases)
    func paging(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 25)
            let pages = try await api.roster(world.staff1, event: world.event, limit: 10)
            #expect(pages.map(\.guests.count) == [10, 10, 5])
            #expect(pages.map(\.hasMore) == [true, true, false])
            #expect(pages.map(\.remaining) == [15, 5, 0])
            let all = pages.flatMap(\.guests)
            #expect(Set(all.map(\.id)) == Set(world.guests.map(\.id)))
            #expect(all.allSatisfy { $0.checkIn == nil && $0.status == .confirmed })
            #expect(pages[0].accessTypes == [world.accessType])
            // A device killed after storing page 1's cursor resumes exactly where it stopped.
            let resumed = try await api.roster(world.staff1, event: world.event, since: pages[0].cursor, limit: 10)
            #expect(resumed.flatMap(\.guests).map(\.id) == Array(all.dropFirst(10)).map(\.id))
            // Nothing changed: an empty delta that keeps the cursor.
            let empty = try await api.roster(world.staff1, event: world.event, since: pages.last!.cursor)
            #expect(empty.count == 1 && empty[0].guests.isEmpty && empty[0].cursor == pages.last!.cursor)
        }
    }

    @Test(
        "deltas carry guest edits, status changes and every device's check-ins, nothing else",
        arguments: StoreKind.allCases)
    func deltas(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 6)
            let cursor = try await api.roster(world.staff1, event: world.event).last!.cursor
            _ = try await api.checkIn(
                world.staff2, event: world.event.id, guest: world.guests[0].id, deviceId: "phone-bea")
            _ = try await api.request(
                .patch, "/v1/events/\(world.event.id)/guests/\(world.guests[1].id)", token: world.organizer.accessToken,
                json: UpdateGuestRequest(status: .revoked))
            _ = try await api.request(
                .patch, "/v1/events/\(world.event.id)/guests/\(world.guests[2].id)", token: world.organizer.accessToken,
                json: UpdateGuestRequest(name: "Renamed Guest", notes: "VIP"))
            let added = try await api.createGuest(
                world.organizer, event: world.event, accessType: world.accessType, name: "Latecomer")
            let delta = try await api.roster(world.staff1, event: world.event, since: cursor).flatMap(\.guests)
            #expect(delta.map(\.id) == [world.guests[0].id, world.guests[1].id, world.guests[2].id, added.id])
            #expect(delta[0].checkIn?.byName == "Bea")
            #expect(delta[0].checkIn?.deviceId == "phone-bea")
            #expect(delta[1].status == .revoked)
            #expect(delta[2].name == "Renamed Guest" && delta[2].notes == "VIP")
        }
    }

    @Test(
        "the roster lists the event's public keys; tickets verify offline with them; the private key is never served",
        arguments: StoreKind.allCases)
    func keys(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let page = try await api.roster(world.staff1, event: world.event)[0]
            #expect(page.keys.count == 1)
            let key = try Curve25519.Signing.PublicKey(
                rawRepresentation: try #require(Base64URL.decode(page.keys[0].publicKey)))
            #expect(page.keys[0].keyId == TicketKeyID(publicKey: key).description)
            let ticket = try await api.request(
                .get, "/v1/events/\(world.event.id)/guests/\(world.guests[0].id)/ticket?format=text",
                token: world.organizer.accessToken)
            #expect(ticket.status == 200)
            let payload = try TicketCodec.verify(
                ticket.text.trimmingCharacters(in: .newlines), tenantId: world.organizer.user.tenantId.uuid,
                eventId: world.event.id.uuid, keys: [TicketKeyID(publicKey: key): key])
            #expect(GuestID(payload.guestId) == world.guests[0].id)
            let privateKey = try await api.store.database.read {
                try await $0.queryOne("SELECT private_key FROM event_keys", [])!.blob("private_key")
            }
            for response in [
                try await api.request(.get, "/v1/events/\(world.event.id)/roster", token: world.organizer.accessToken),
                ticket,
            ] {
                #expect(!response.text.contains(Base64URL.encode(privateKey)))
                #expect(!response.text.contains(Data(privateKey).base64EncodedString()))
            }
        }
    }

    @Test("a bad cursor or limit is 400; a cursor is opaque", arguments: StoreKind.allCases)
    func badCursor(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            for query in ["since=garbage", "since=R0000", "limit=0", "limit=abc", "limit=1000000"] {
                let response = try await api.request(
                    .get, "/v1/events/\(world.event.id)/roster?\(query)", token: world.staff1.accessToken)
                #expect(response.status == 400, "\(query)")
                #expect(response.errorCode == "invalid_request")
            }
        }
    }

    @Test(
        "roster-protobuf-served-by-accept: Accept: application/x-protobuf answers the same page in protobuf; JSON stays the default",
        arguments: StoreKind.allCases)
    func protobufByAccept(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 7)
            _ = try await api.checkIn(
                world.staff2, event: world.event.id, guest: world.guests[3].id, deviceId: "phone-bea")
            let path = "/v1/events/\(world.event.id)/roster?limit=5"
            let token = world.staff1.accessToken
            let json = try await api.request(.get, path, token: token)
            #expect(json.headers[.contentType] == "application/json")
            #expect(json.headers[.vary] == "Accept")
            let asked = try await api.request(.get, path, token: token, headers: [.accept: RosterWire.deviceAccept])
            #expect(asked.status == 200)
            #expect(asked.headers[.contentType] == RosterWire.protobufMediaType)
            #expect(asked.headers[.vary] == "Accept")
            let page = try RosterPage(protobuf: Data(asked.body))
            #expect(page == (try json.decode(RosterPage.self)))
            #expect(page.guests.count == 5 && page.hasMore && page.remaining == 2)
            // The cursor of a protobuf page continues a JSON sync and back: one cursor, two forms.
            let rest = try await api.request(
                .get, path + "&since=\(page.cursor)", token: token, headers: [.accept: "application/json"])
            #expect(try rest.decode(RosterPage.self).guests.count == 2)
            #expect(try rest.decode(RosterPage.self).guests.contains { $0.checkIn?.byName == "Bea" })
            // A browser's Accept, `*/*`, or none: JSON.
            for accept in ["*/*", "text/html,application/xhtml+xml,*/*;q=0.8"] {
                let other = try await api.request(.get, path, token: token, headers: [.accept: accept])
                #expect(other.headers[.contentType] == "application/json")
            }
            // Errors stay JSON, whatever was asked.
            let refused = try await api.request(
                .get, path + "&since=not-a-cursor", token: token, headers: [.accept: RosterWire.protobufMediaType])
            #expect(refused.status == 400 && refused.errorCode == "invalid_request")
        }
    }
}
