import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Every route with another tenant's ids answers 404 with the same body as an unknown id, and
/// 401 without a token.
@Suite("Tenant isolation")
struct TenantIsolationTests {
    @Test(
        "another tenant's events, guests and users are 404 on every route; no token is 401",
        arguments: StoreKind.allCases)
    func everyRoute(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let event = world.event.id
            let guest = world.guests[0].id
            let user = world.staff1.user.id
            let key = HTTPField.Name("Idempotency-Key")!
            let checkInBody = CheckInRequest(
                guestId: guest, deviceId: "d", scannedAt: Date(millisecondsSince1970: 1_795_000_000_000), method: .qr)
            let routes: [(HTTPRequest.Method, String, (any Encodable & Sendable)?, HTTPFields)] = [
                (.get, "/v1/events/\(event)/roster", nil, [:]),
                (.post, "/v1/events/\(event)/checkins", checkInBody, [key: "d:\(guest):1795000000000"]),
                (.get, "/v1/events/\(event)/guests/\(guest)/ticket", nil, [:]),
                (.put, "/v1/events/\(event)/kiosk", KioskSetupRequest(passcode: "394817", orientation: .portrait), [:]),
                (.post, "/v1/events/\(event)/access-types", CreateAccessTypeRequest(name: "X"), [:]),
                (
                    .post, "/v1/events/\(event)/guests",
                    CreateGuestRequest(name: "X", email: "x@y.z", accessTypeId: world.accessType.id), [:]
                ),
                (.patch, "/v1/events/\(event)/guests/\(guest)", UpdateGuestRequest(status: .revoked), [:]),
                (.post, "/v1/events/\(event)/guests:import", nil, [:]),
                (.put, "/v1/events/\(event)/staff/\(user)", nil, [:]),
                (.put, "/v1/events/\(world.otherEvent.id)/staff/\(user)", nil, [:]),
                (.get, "/v1/events/\(event)/stats", nil, [:]),
                (.get, "/v1/events/\(event)/audit", nil, [:]),
            ]
            let unknownEvent = try await api.request(
                .get, "/v1/events/\(UUID().lowercasedString)/roster", token: world.otherOrganizer.accessToken)
            #expect(unknownEvent.status == 404)
            for (method, path, json, headers) in routes {
                let crossTenant = try await api.request(
                    method, path, token: world.otherOrganizer.accessToken, json: json, headers: headers)
                if path.contains(world.otherEvent.id) {
                    #expect(crossTenant.status == 404, "user of another tenant on \(path)")
                } else {
                    #expect(crossTenant.status == 404, "\(method) \(path)")
                    #expect(crossTenant.body == unknownEvent.body, "\(method) \(path)")
                }
                let anonymous = try await api.request(method, path, json: json, headers: headers)
                #expect(anonymous.status == 401, "\(method) \(path) without a token")
            }
            // Staff not assigned to an event cannot tell it from a missing one.
            let loner = try await api.createUser(
                world.organizer, email: "loner@acme.test", role: .checkinStaff, name: "Loner")
            let unassigned = try await api.request(.get, "/v1/events/\(event)/roster", token: loner.accessToken)
            #expect(unassigned.status == 404 && unassigned.body == unknownEvent.body)
            let otherList: EventList = try await api.request(
                .get, "/v1/events", token: world.otherOrganizer.accessToken
            ).decode()
            #expect(!otherList.events.contains { $0.id == event })
            // Nothing of tenant A changed.
            let guests = try await api.roster(world.organizer, event: world.event).flatMap(\.guests)
            #expect(guests.count == 3 && guests.allSatisfy { $0.status == .confirmed && $0.checkIn == nil })
        }
    }
}
