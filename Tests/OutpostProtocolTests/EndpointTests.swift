import Foundation
import OutpostCore
import OutpostProtocol
import Testing

/// The route description makes every client's paths: parameters in order, encoded as one
/// segment each; queries encoded and without the values not given.
@Suite("Endpoints")
struct EndpointTests {
    static let event = EventID(UUID(uuidString: "9B2F8D0E-6C1A-4C55-9A43-0F3C2B1D4E5F")!)
    static let guest = GuestID(UUID(uuidString: "0F3C2B1D-4E5F-4C55-9A43-9B2F8D0E6C1A")!)

    @Test("typed-api-paths: parameters fill the template in order, typed ids in their wire form")
    func paths() {
        #expect(API.checkIn.path(Self.event) == "/v1/events/9b2f8d0e-6c1a-4c55-9a43-0f3c2b1d4e5f/checkins")
        #expect(
            API.showGuest.path(Self.event, Self.guest)
                == "/v1/events/9b2f8d0e-6c1a-4c55-9a43-0f3c2b1d4e5f/guests/0f3c2b1d-4e5f-4c55-9a43-9b2f8d0e6c1a")
        #expect(API.checkInBatch.path(Self.event).hasSuffix("/checkins:batch"))
        #expect(API.listContacts.path() == "/v1/contacts")
        #expect(API.showGuest.parameterNames == ["eventId", "guestId"])
        #expect(API.finaliseWeek.line(UserID(Self.event.uuid), "2026-W48").description.hasPrefix("POST /v1/tracking/"))
    }

    @Test("typed-api-paths: a text parameter is one segment, whatever it holds")
    func textSegments() {
        // A device id with a slash, a space and a non-ASCII letter stays one segment.
        #expect(API.reportUserDevice.path("door 2/Å") == "/v1/me/devices/door%202%2F%C3%85")
        #expect(String(pathSegment: "door 2") == "door 2")
        #expect(EventID(pathSegment: "not-an-id") == nil)
        #expect(EventID(pathSegment: Substring(Self.event.wire)) == Self.event)
    }

    @Test("typed-api-paths: queries are encoded, and a value not given is left out")
    func queries() {
        #expect(
            API.roster.path(Self.event, query: [("limit", "500"), ("since", nil)])
                == "/v1/events/9b2f8d0e-6c1a-4c55-9a43-0f3c2b1d4e5f/roster?limit=500")
        #expect(
            API.listGuests.path(Self.event, query: [("q", "Åse & Ng+1=?#")]).hasSuffix(
                "/guests?q=%C3%85se%20%26%20Ng%2B1%3D%3F%23"))
        #expect(API.listEvents.path(query: [("range", nil)]) == "/v1/events")
    }

    @Test("typed-api-description: every route once, every template's parameters named once")
    func table() {
        #expect(Set(API.all).count == API.all.count, "a route is described twice")
        for route in API.all {
            #expect(route.template.hasPrefix("/"), "\(route)")
            #expect(Set(route.parameterNames).count == route.parameterNames.count, "\(route) names a parameter twice")
            #expect(
                route.parameterNames.count == route.parameterTypes.count,
                "\(route) names \(route.parameterNames) but takes \(route.parameterTypes)")
        }
        #expect(API.signInRoutes.isSubset(of: Set(API.all)))
    }
}
