import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import OutpostServer

/// A response as a test sees it.
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: HTTPFields
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try OutpostJSON.decode(type, from: Data(body))
    }

    /// The `error` code of an error body.
    public var errorCode: String? { try? decode(ErrorBody.self).error }
}

/// Drives one server in a test: raw requests plus the set-up steps the tests share.
public struct TestAPI: Sendable {
    public let client: any TestClientProtocol
    public let store: Store
    public let clock: ManualClock
    public let configuration: ServerConfiguration

    public init(client: any TestClientProtocol, store: Store, clock: ManualClock, configuration: ServerConfiguration) {
        self.client = client
        self.store = store
        self.clock = clock
        self.configuration = configuration
    }

    public func request(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: (any Encodable & Sendable)? = nil,
        body: [UInt8]? = nil, headers: HTTPFields = [:]
    ) async throws -> APIResponse {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let json {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(bytes: try OutpostJSON.encode(json))
        } else if let body {
            buffer = ByteBuffer(bytes: body)
        }
        let response = try await client.execute(
            within: testRequestLimit, uri: path, method: method, headers: headers, body: buffer)
        return APIResponse(
            status: Int(response.status.code), headers: response.headers, body: Array(buffer: response.body))
    }

    /// The lab's client (the device's `APIClient`) over this server's test client, as `session`.
    package func lab(_ session: Session? = nil) -> LabClient {
        LabClient(
            transport: RouterTransport(client: client),
            pair: session.map {
                TokenPair(accessToken: $0.accessToken, refreshToken: $0.refreshToken, expiresIn: 0, user: $0.user)
            })
    }

    /// Creates a tenant and its organizer directly in the store, returning a signed-in token.
    public func bootstrapTenant(
        _ name: String, email: String, password: String = "organizer-pass"
    ) async throws -> Session {
        _ = try await OutpostServer.bootstrap(
            store: store, tenant: name, email: email, password: password, name: "\(name) Organizer", bcryptCost: 4)
        return try await signIn(email: email, password: password)
    }

    public func signIn(email: String, password: String, deviceId: String = "test-device") async throws -> Session {
        let pair = try await LabClient(
            transport: RouterTransport(client: client),
            credentials: LabClient.Credentials(email: email, password: password, deviceId: deviceId)
        ).signIn()
        return Session(accessToken: pair.accessToken, refreshToken: pair.refreshToken, user: pair.user)
    }

    public func createUser(_ organizer: Session, email: String, role: UserRole, name: String) async throws -> Session {
        _ = try await lab(organizer).createUser(
            CreateUserRequest(email: email, name: name, role: role, password: "staff-password"))
        return try await signIn(email: email, password: "staff-password")
    }

    public func createEvent(
        _ organizer: Session, name: String = "Gala", startsAt: Date? = nil
    ) async throws -> EventInfo {
        let start = startsAt ?? clock.now
        return try await lab(organizer).createEvent(
            CreateEventRequest(name: name, startsAt: start, endsAt: start + 6 * 3600, timeZone: "Europe/Oslo"))
    }

    public func createAccessType(
        _ organizer: Session, event: EventInfo, name: String = "General"
    ) async throws -> AccessTypeInfo {
        try await lab(organizer).createAccessType(
            event: event.id, CreateAccessTypeRequest(name: name, walkInAllowed: true))
    }

    public func createGuest(
        _ organizer: Session, event: EventInfo, accessType: AccessTypeInfo, name: String, email: String? = nil
    ) async throws -> GuestInfo {
        try await lab(organizer).createGuest(
            event: event.id,
            CreateGuestRequest(
                name: name, email: email ?? "\(name.lowercased().filter(\.isLetter))@example.org",
                accessTypeId: accessType.id, notes: "note for \(name)"))
    }

    public func assign(_ organizer: Session, staff: Session, to event: EventInfo) async throws {
        try await lab(organizer).assignStaff(user: staff.user.id, event: event.id)
    }

    /// Sends a check-in with the Idempotency-Key of its body.
    public func checkIn(
        _ session: Session, event: EventID, guest: GuestID, deviceId: String = "device-1", scannedAt: Date? = nil,
        method: CheckInMethod = .qr, ticket: String? = nil, reconfirm: Bool? = nil, note: String? = nil
    ) async throws -> APIResponse {
        let at = Date(millisecondsSince1970: (scannedAt ?? clock.now).millisecondsSince1970)
        let body = CheckInRequest(
            guestId: guest, deviceId: deviceId, scannedAt: at, method: method, ticket: ticket, reconfirm: reconfirm,
            note: note)
        return try await request(
            .post, API.checkIn.path(event), token: session.accessToken, json: body,
            headers: [.init("Idempotency-Key")!: body.idempotencyKey.description])
    }

    /// Pages through the whole roster from `since`, returning the pages.
    public func roster(
        _ session: Session, event: EventInfo, since: String? = nil, limit: Int = 1000
    ) async throws -> [RosterPage] {
        var pages: [RosterPage] = []
        try await lab(session).roster(event: event.id, limit: limit, since: since) { pages.append($0) }
        return pages
    }

    public func audit(_ session: Session, event: EventInfo) async throws -> [AuditEntry] {
        try await lab(session).audit(event: event.id)
    }
}

/// The test server's client (router or live loopback) as the device's ``Transport``, so the
/// tests drive it through the same ``APIClient`` as the lab and the device.
public struct RouterTransport: Transport {
    public let client: any TestClientProtocol

    public init(client: any TestClientProtocol) {
        self.client = client
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard let method = HTTPRequest.Method(request.method) else {
            throw TransportError.connectionFailed("no such method \(request.method)")
        }
        var headers = HTTPFields()
        for (name, value) in request.headers {
            guard let field = HTTPField.Name(name) else { continue }
            headers[field] = value
        }
        let response = try await client.execute(
            within: testRequestLimit, uri: request.path, method: method, headers: headers,
            body: request.body.map { ByteBuffer(bytes: $0) })
        return TransportResponse(
            status: Int(response.status.code), body: Data(response.body.readableBytesView),
            contentType: response.headers[.contentType])
    }
}

/// A signed-in user.
public struct Session: Sendable {
    public var accessToken: String
    public var refreshToken: String
    public var user: UserInfo
}

/// Builds the application exactly as `outpost serve` does, on the given store, and runs `body`
/// against it: through the router (no sockets), or `live` on a loopback port.
public func withServer<T: Sendable>(
    location: ServerConfiguration.StoreLocation,
    live: Bool = false,
    clock: ManualClock = ManualClock(Date(timeIntervalSince1970: 1_795_000_000)),
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestAPI) async throws -> T
) async throws -> T {
    var configuration = ServerConfiguration(
        store: location, port: 0, clock: clock.wallClock, bcryptCost: 4, postgresPoolSize: 8)
    // The live test client holds one connection and never reconnects: under a loaded parallel run
    // a test can leave it idle past the server's 60 s, and the server's close then fails its next
    // call with "I/O on closed channel". The devices' own pools close idle connections first.
    if live { configuration.idleTimeout = 3600 }
    configure(&configuration)
    let parts = try OutpostServer.makeParts(configuration, logger: TestSupport.logger)
    let app = try OutpostServer.buildApplication(configuration, parts: parts, logger: TestSupport.logger)
    let finalConfiguration = configuration
    return try await app.test(live ? .live : .router) { client in
        try await body(TestAPI(client: client, store: parts.store, clock: clock, configuration: finalConfiguration))
    }
}

/// Shared bits of the test support.
public enum TestSupport {
    public static var logger: Logger {
        var logger = Logger(label: "outpost-test")
        logger.logLevel = .warning
        return logger
    }
}

/// The usual world: tenant A with an organizer, a support user, two assigned staff, one event
/// with an access type and three guests; tenant B with its own organizer, event and guest.
public struct World: Sendable {
    public var api: TestAPI
    public var organizer: Session
    public var support: Session
    public var staff1: Session
    public var staff2: Session
    public var event: EventInfo
    public var accessType: AccessTypeInfo
    public var guests: [GuestInfo]
    public var otherOrganizer: Session
    public var otherEvent: EventInfo
    public var otherGuest: GuestInfo

    public static func make(_ api: TestAPI, guests count: Int = 3) async throws -> World {
        let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
        let support = try await api.createUser(
            organizer, email: "support@acme.test", role: .support, name: "Sam Support")
        let staff1 = try await api.createUser(organizer, email: "alex@acme.test", role: .checkinStaff, name: "Alex")
        let staff2 = try await api.createUser(organizer, email: "bea@acme.test", role: .checkinStaff, name: "Bea")
        let event = try await api.createEvent(organizer)
        let accessType = try await api.createAccessType(organizer, event: event)
        var guests: [GuestInfo] = []
        for index in 0..<count {
            guests.append(
                try await api.createGuest(
                    organizer, event: event, accessType: accessType, name: "Guest\(Self.letters(index))"))
        }
        try await api.assign(organizer, staff: staff1, to: event)
        try await api.assign(organizer, staff: staff2, to: event)
        let otherOrganizer = try await api.bootstrapTenant("Other", email: "org@other.test")
        let otherEvent = try await api.createEvent(otherOrganizer, name: "Other Gala")
        let otherType = try await api.createAccessType(otherOrganizer, event: otherEvent)
        let otherGuest = try await api.createGuest(
            otherOrganizer, event: otherEvent, accessType: otherType, name: "Outsider")
        return World(
            api: api, organizer: organizer, support: support, staff1: staff1, staff2: staff2, event: event,
            accessType: accessType, guests: guests, otherOrganizer: otherOrganizer, otherEvent: otherEvent,
            otherGuest: otherGuest)
    }

    public static func letters(_ index: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz")
        return String(alphabet[index % 26]) + String(alphabet[(index / 26) % 26]) + String(alphabet[(index / 676) % 26])
    }
}
