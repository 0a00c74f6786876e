import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// One user's calls to a server, for the lab (bench, soak, demo) and the server tests: the
/// device's ``APIClient`` over any ``Transport`` (URLSession to a real server, or the test
/// router), with the user's bearer token. Given credentials, an expired access token (the soak's
/// `--access-ttl`) signs the user in again and the request is sent once more.
package final class LabClient: @unchecked Sendable {
    package struct Credentials: Sendable {
        package var email: String
        package var password: String
        package var deviceId: String

        package init(email: String, password: String, deviceId: String = "outpost-lab") {
            self.email = email
            self.password = password
            self.deviceId = deviceId
        }
    }

    package let api: APIClient
    package let credentials: Credentials?
    private var storedPair: TokenPair?
    private let lock = NSLock()

    /// A client holding `pair` (nil: not signed in yet).
    package init(transport: any Transport, credentials: Credentials? = nil, pair: TokenPair? = nil) {
        api = APIClient(transport: transport)
        self.credentials = credentials
        storedPair = pair
    }

    /// Signs in with `credentials` and returns the signed-in client.
    package static func signedIn(transport: any Transport, _ credentials: Credentials) async throws -> LabClient {
        let client = LabClient(transport: transport, credentials: credentials)
        try await client.signIn()
        return client
    }

    /// The signed-in pair, if any (guarded: requests run concurrently).
    package var pair: TokenPair? { lock.withLock { storedPair } }

    /// Signs in (again) with the credentials; later requests carry the new access token.
    @discardableResult
    package func signIn() async throws -> TokenPair {
        guard let credentials else { throw CleanFailure("this client has no credentials to sign in with") }
        let response = try await api.request(
            API.signIn.line(), token: nil,
            json: SignInRequest(
                email: credentials.email, password: credentials.password, deviceId: credentials.deviceId))
        guard response.status == 200 else {
            throw CleanFailure("sign-in of \(credentials.email) answered \(Self.describe(response))")
        }
        let pair = try OutpostJSON.decode(TokenPair.self, from: response.body)
        lock.withLock { storedPair = pair }
        return pair
    }

    /// One request as this user: the raw answer, whatever its status.
    package func request(
        _ line: RequestLine, json: (any Encodable & Sendable)? = nil, body: Data? = nil,
        headers: [String: String] = [:]
    ) async throws -> TransportResponse {
        let answer = try await api.request(line, token: pair?.accessToken, json: json, body: body, headers: headers)
        guard answer.status == 401, credentials != nil, pair != nil, !API.signInRoutes.contains(line.route) else {
            return answer
        }
        try await signIn()
        return try await api.request(line, token: pair?.accessToken, json: json, body: body, headers: headers)
    }

    /// A request that must succeed (2xx), decoded as `Answer`; `what` names it in the failure.
    package func call<Answer: Decodable>(
        _ line: RequestLine, json: (any Encodable & Sendable)? = nil, body: Data? = nil,
        headers: [String: String] = [:], what: String, as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        let response = try await expect(line, json: json, body: body, headers: headers, what: what)
        do {
            return try OutpostJSON.decode(answer, from: response.body)
        } catch {
            throw CleanFailure("\(what): the answer is not \(Answer.self): \(error)")
        }
    }

    /// A request that must succeed (2xx); its answer.
    @discardableResult
    /// Calls `endpoint` with `json` and decodes the answer its description declares (the body
    /// and answer types are the route table's, so a call cannot expect another route's answer).
    package func call<Body: Encodable & Sendable, Answer: Decodable, each Parameter: PathValue>(
        _ endpoint: Endpoint<Body, Answer, repeat each Parameter>, _ parameter: repeat each Parameter,
        query: [(String, String?)] = [], json: Body, what: String
    ) async throws -> Answer {
        try await call(endpoint.line(repeat each parameter, query: query), json: json, what: what, as: Answer.self)
    }

    /// The same for an endpoint that takes no body.
    package func call<Answer: Decodable, each Parameter: PathValue>(
        _ endpoint: Endpoint<NoBody, Answer, repeat each Parameter>, _ parameter: repeat each Parameter,
        query: [(String, String?)] = [], what: String
    ) async throws -> Answer {
        try await call(endpoint.line(repeat each parameter, query: query), what: what, as: Answer.self)
    }

    package func expect(
        _ line: RequestLine, json: (any Encodable & Sendable)? = nil, body: Data? = nil,
        headers: [String: String] = [:], what: String
    ) async throws -> TransportResponse {
        let response = try await request(line, json: json, body: body, headers: headers)
        guard (200..<300).contains(response.status) else { throw CleanFailure("\(what): \(Self.describe(response))") }
        return response
    }

    static func describe(_ response: TransportResponse) -> String {
        "\(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))"
    }

    // MARK: The API calls the lab and the tests make

    package func createEvent(_ event: CreateEventRequest) async throws -> EventInfo {
        try await call(API.createEvent, json: event, what: "creating event \(event.name)")
    }

    /// Every event the caller may work.
    package func events() async throws -> [EventInfo] {
        try await call(API.listEvents, query: [("range", "all")], what: "listing events").events
    }

    package func updateEvent(_ event: EventID, _ update: UpdateEventRequest) async throws -> EventInfo {
        try await call(API.updateEvent, event, json: update, what: "updating event \(event)")
    }

    package func updateGuest(_ event: EventID, _ guest: GuestID, _ update: UpdateGuestRequest) async throws -> GuestInfo
    {
        try await call(API.updateGuest, event, guest, json: update, what: "updating guest \(guest)")
    }

    package func createAccessType(event: EventID, _ type: CreateAccessTypeRequest) async throws -> AccessTypeInfo {
        try await call(API.createAccessType, event, json: type, what: "creating access type \(type.name)")
    }

    package func createGuest(event: EventID, _ guest: CreateGuestRequest) async throws -> GuestInfo {
        try await call(API.createGuest, event, json: guest, what: "creating guest \(guest.name)")
    }

    /// `POST …/guests:import` with a CSV body.
    package func importGuests(event: EventID, csv: String) async throws -> ImportResult {
        try await call(
            API.importGuests.line(event), body: Data(csv.utf8), headers: ["Content-Type": "text/csv"],
            what: "importing guests")
    }

    package func createUser(_ user: CreateUserRequest) async throws -> UserInfo {
        try await call(API.createUser, json: user, what: "creating user \(user.email)")
    }

    package func assignStaff(user: UserID, event: EventID) async throws {
        try await expect(API.assignStaff.line(event, user), what: "assigning staff \(user)")
    }

    /// A check-in staff account (role `checkin_staff`) on the staff of `event`.
    @discardableResult
    package func addStaff(email: String, name: String, password: String, event: EventID) async throws -> UserInfo {
        let user = try await createUser(
            CreateUserRequest(email: email, name: name, role: .checkinStaff, password: password))
        try await assignStaff(user: user.id, event: event)
        return user
    }

    package func setUpKiosk(event: EventID, _ setup: KioskSetupRequest) async throws {
        try await expect(API.setUpKiosk.line(event), json: setup, what: "setting up the kiosk")
    }

    package func rosterPage(event: EventID, limit: Int, since cursor: String? = nil) async throws -> RosterPage {
        try await call(API.roster, event, query: [("limit", String(limit)), ("since", cursor)], what: "the roster")
    }

    /// The whole roster from `since`, page by page as a device's sync reads it: guests, pages, seconds.
    @discardableResult
    package func roster(
        event: EventID, limit: Int, since: String? = nil, onPage: (RosterPage) -> Void = { _ in }
    ) async throws -> (guests: Int, pages: Int, seconds: Double) {
        let start = ContinuousClock.now
        var guests = 0
        var pages = 0
        var cursor = since
        var more = true
        while more {
            let page = try await rosterPage(event: event, limit: limit, since: cursor)
            onPage(page)
            guests += page.guests.count
            pages += 1
            cursor = page.cursor
            more = page.hasMore
        }
        return (guests, pages, (ContinuousClock.now - start).seconds)
    }

    /// The ticket text (QR contents) of one guest.
    package func ticket(event: EventID, guest: GuestID) async throws -> String {
        let response = try await expect(API.ticket.line(event, guest), what: "a ticket")
        return String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ticket text of each guest, in the order given (fetched eight at a time).
    package func tickets(event: EventID, guests: [GuestID]) async throws -> [String] {
        try await concurrentMap(guests, width: 8) { try await self.ticket(event: event, guest: $0) }
    }

    /// The whole audit log of the event, oldest first.
    /// One page of the audit log after `since` (a page's cursor; nil: from the start).
    package func auditPage(event: EventID, since: String?, limit: Int = 1000) async throws -> AuditPage {
        try await call(API.audit, event, query: [("limit", String(limit)), ("since", since)], what: "the audit log")
    }

    package func audit(event: EventID) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        var cursor: String?
        repeat {
            let page = try await auditPage(event: event, since: cursor)
            entries += page.entries
            cursor = page.hasMore ? page.cursor : nil
        } while cursor != nil
        return entries
    }

    /// `POST …/checkins` with the Idempotency-Key of its body; the raw answer.
    package func checkIn(event: EventID, _ checkIn: CheckInRequest) async throws -> TransportResponse {
        try await request(
            API.checkIn.line(event), json: checkIn,
            headers: ["Idempotency-Key": checkIn.idempotencyKey.description])
    }
}

/// `transform` over `items`, at most `width` at a time, results in the order of `items`.
package func concurrentMap<Item: Sendable, Result: Sendable>(
    _ items: [Item], width: Int, _ transform: @escaping @Sendable (Item) async throws -> Result
) async throws -> [Result] {
    var results = [Result?](repeating: nil, count: items.count)
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var next = 0
        func launch() {
            let index = next
            next += 1
            group.addTask { (index, try await transform(items[index])) }
        }
        for _ in 0..<min(width, items.count) { launch() }
        while let (index, result) = try await group.next() {
            results[index] = result
            if next < items.count { launch() }
        }
    }
    return results.map { $0! }
}
