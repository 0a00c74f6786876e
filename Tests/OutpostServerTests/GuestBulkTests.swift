import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// One change to many guests through the API.
@Suite("Bulk guest changes")
struct GuestBulkTests {
    @Test(
        "guest-bulk-update: one request cancels or re-types many guests (those it would not change are left alone and counted, ids no guest of the event are counted as not found, an id named twice counts once); more than 500 are written in several transactions; the doors' roster carries each change; nothing said, none or more than 5,000 guests, or an unknown access type is 422 and changes nothing; support is 403, another tenant 404",
        arguments: StoreKind.allCases)
    func bulk(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api, guests: 4)
            let event = world.event.id
            let token = world.organizer.accessToken
            let path = API.bulkUpdateGuests.path(event)
            let door = world.staff1.accessToken
            let roster: RosterPage = try await api.request(.get, API.roster.path(event), token: door).decode()
            let ids = world.guests.map(\.id)
            _ = try await api.request(
                .patch, API.updateGuest.path(event, ids[3]), token: token, json: UpdateGuestRequest(status: .cancelled))
            func send(_ update: BulkGuestUpdate, _ caller: String? = nil) async throws -> APIResponse {
                try await api.request(.post, path, token: caller ?? token, json: update)
            }
            #expect(
                try await send(BulkGuestUpdate(guestIds: ids, status: .cancelled), world.support.accessToken).status
                    == 403)
            #expect(
                try await send(BulkGuestUpdate(guestIds: ids, status: .cancelled), world.otherOrganizer.accessToken)
                    .status == 404)
            #expect(try await send(BulkGuestUpdate(guestIds: ids)).status == 422)
            #expect(try await send(BulkGuestUpdate(guestIds: [], status: .cancelled)).status == 422)
            #expect(
                try await send(
                    BulkGuestUpdate(
                        guestIds: (0...BulkGuestUpdate.maxGuests).map { _ in GuestID.random() }, status: .cancelled)
                ).status == 422)
            #expect(try await send(BulkGuestUpdate(guestIds: ids, accessTypeId: .random())).status == 422)
            let answer = try await send(
                BulkGuestUpdate(
                    guestIds: [ids[0], ids[1], ids[1], ids[3], world.otherGuest.id, .random()], status: .cancelled))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try answer.decode(BulkGuestResult.self) == BulkGuestResult(changed: 2, unchanged: 1, notFound: 2))
            let page: GuestPage = try await api.request(.get, API.listGuests.path(event), token: token).decode()
            #expect(
                page.guests.filter { $0.status == .cancelled }.map(\.id).sorted() == [ids[0], ids[1], ids[3]].sorted())
            #expect(
                try await api.request(.get, API.showGuest.path(event, ids[2]), token: token).decode(GuestInfo.self)
                    .status
                    == .confirmed)
            // The doors' next sync brings the two changed.
            let delta: RosterPage = try await api.request(
                .get, API.roster.path(event, query: [("since", roster.cursor)]), token: door
            ).decode()
            #expect(Set(delta.guests.filter { $0.status == .cancelled }.map(\.id)) == [ids[0], ids[1], ids[3]])
            // More than one transaction's worth: 1,203 guests re-typed, the unknown ones counted.
            let vip = try await api.createAccessType(world.organizer, event: world.event, name: "VIP")
            let csv =
                "name,email,access_type\r\n"
                + (0..<1_200).map { "Bulk \($0),bulk\($0)@example.org,General\r\n" }.joined()
            _ = try await api.request(
                .post, API.importGuests.path(event), token: token, body: Array(csv.utf8),
                headers: [.contentType: "text/csv"])
            var all: [GuestID] = []
            var after: String?
            repeat {
                let page: GuestPage = try await api.request(
                    .get, API.listGuests.path(event, query: [("limit", "500"), ("after", after)]), token: token
                ).decode()
                all += page.guests.map(\.id)
                after = page.next
            } while after != nil
            #expect(all.count == 1_204)
            let many = try await send(BulkGuestUpdate(guestIds: all + [.random()], accessTypeId: vip.id))
            #expect(try many.decode(BulkGuestResult.self) == BulkGuestResult(changed: 1_204, unchanged: 0, notFound: 1))
            let again = try await send(BulkGuestUpdate(guestIds: all, accessTypeId: vip.id))
            #expect(
                try again.decode(BulkGuestResult.self) == BulkGuestResult(changed: 0, unchanged: 1_204, notFound: 0))
        }
    }
}
