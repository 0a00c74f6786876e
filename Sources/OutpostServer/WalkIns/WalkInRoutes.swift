import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Walk-ins (seed 000's Walk-Ins tab): a guest added at the door and checked in in one step,
/// idempotently (`POST /v1/events/{eventId}/walkins`); the places a door may admit offline,
/// leased and sealed (`/walkin-leases`); and for the organizer the list, the per-device
/// end-of-shift summary and its CSV.
struct WalkInRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.addWalkIn, use: add)
        group.on(API.listWalkIns, use: list)
        group.on(API.walkInSummary, use: summary)
        group.on(API.exportWalkInSummary, use: summaryCSV)
        group.on(API.leaseWalkIns, use: lease)
        group.on(API.sealWalkInLease, use: seal)
    }

    @Sendable func add(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.addWalkIn.parameters(in: context)
        guard let keyText = request.headers[.idempotencyKey], let key = IdempotencyKey(parsing: keyText) else {
            throw APIError.invalidRequest("The Idempotency-Key header must be deviceId:guestId:addedAtMillis.")
        }
        var body = try await HTTPHelpers.decode(WalkInRequest.self, from: request)
        guard key == body.idempotencyKey else {
            throw APIError.invalidRequest(
                "The Idempotency-Key must be deviceId:guestId:addedAtMillis of this request's body.",
                status: .unprocessableContent)
        }
        body.name = try HTTPHelpers.nonEmpty(body.name, "name")
        if let email = body.email?.trimmingCharacters(in: .whitespaces), !email.isEmpty {
            body.email = try UserRoutes.validEmail(email)
        } else {
            body.email = nil
        }
        guard body.name.count <= WalkInRequest.maxTextLength else {
            throw APIError.invalidRequest(
                "'name' is at most \(WalkInRequest.maxTextLength) characters.", status: .unprocessableContent)
        }
        if let payment = body.payment, !payment.isWellFormed {
            throw APIError.invalidRequest(
                "'payment' needs an amount from 0 in minor units and a three-letter currency (EUR).",
                status: .unprocessableContent)
        }
        let command = WalkInCommand(
            caller: context.caller, eventId: eventId, request: body, idempotencyKey: key.description,
            requestHash: try Self.requestHash(eventId: eventId, body: body), now: dependencies.clock.now())
        switch try await dependencies.store.addWalkIn(command, render: Self.render) {
        case .fresh(let stored, _), .replayed(let stored):
            return HTTPHelpers.bytes(stored.body, status: .init(code: stored.status), contentType: "application/json")
        case .keyReused:
            throw APIError(
                .unprocessableContent, .idempotencyKeyReused,
                "This Idempotency-Key was already used for a different walk-in.")
        }
    }

    static func requestHash(eventId: EventID, body: WalkInRequest) throws -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("walkin:\(eventId.wire)".utf8))
        hasher.update(data: try OutpostJSON.encode(body))
        return Array(hasher.finalize())
    }

    @Sendable static func render(_ outcome: WalkInOutcome) throws -> StoredAnswer {
        switch outcome {
        case .added(let response):
            return StoredAnswer(status: 201, body: Array(try OutpostJSON.encode(response)))
        case .notAllowed:
            return try APIError(
                .conflict, .walkInNotAllowed, "This access type does not admit walk-ins at this event."
            ).storedAnswer()
        case .guestIdTaken:
            return try APIError.invalidRequest(
                "Another guest already has this guestId; a walk-in needs a new one.", status: .unprocessableContent
            ).storedAnswer()
        case .eventNotVisible:
            return try APIError.notFound.storedAnswer()
        }
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.listWalkIns.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(WalkInList(walkIns: try await dependencies.store.walkIns(eventId: event.id)))
    }

    @Sendable func summary(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.walkInSummary.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await summary(of: event.id))
    }

    func summary(of eventId: EventID) async throws -> WalkInSummary {
        let walkIns = try await dependencies.store.walkIns(eventId: eventId)
        return WalkInSummary(
            devices: WalkInShift.of(walkIns.map { ($0.deviceId, $0.payment) }),
            capacities: try await dependencies.store.walkInCapacities(eventId: eventId))
    }

    @Sendable func summaryCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.exportWalkInSummary.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let text = WalkInSummary.csv(try await summary(of: event.id).devices)
        return ExportRoutes.csv("walkins-by-device.csv") { writer in
            try await writer.write(ByteBuffer(string: text))
        }
    }

    @Sendable func lease(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.leaseWalkIns.parameters(in: context)
        let body = try await HTTPHelpers.decode(WalkInLeaseRequest.self, from: request)
        guard IdempotencyKey.accepts(deviceId: body.deviceId) else {
            throw APIError.invalidRequest("The deviceId must be ASCII without spaces.", status: .unprocessableContent)
        }
        switch try await dependencies.store.leaseWalkIns(
            caller: context.caller, eventId: eventId, request: body, now: dependencies.clock.now())
        {
        case .granted(let lease):
            return try HTTPHelpers.json(lease, status: .created)
        case .full(let name):
            throw APIError(
                .conflict, .walkInCapacityReached, "No walk-in places of \(name) are left to give this device.")
        case .enoughOpen:
            throw APIError(
                .conflict, .walkInCapacityReached,
                "This device already holds \(WalkInLeasePolicy.maxOpenPerDevice) open leases of this access type; seal one first."
            )
        case .noCapacity:
            throw APIError.invalidRequest(
                "This access type has no walk-in capacity: its walk-ins need no lease.", status: .unprocessableContent)
        case .notFound:
            throw APIError.notFound
        }
    }

    @Sendable func seal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, leaseId) = try API.sealWalkInLease.parameters(in: context)
        let body = try await HTTPHelpers.decode(WalkInSealRequest.self, from: request)
        switch try await dependencies.store.sealWalkInLease(
            caller: context.caller, eventId: eventId, leaseId: leaseId, used: body.used, now: dependencies.clock.now())
        {
        case .sealed(let lease):
            return try HTTPHelpers.json(lease)
        case .sealedWith(let used):
            throw APIError(
                .conflict, .versionConflict, "This lease was sealed with \(used) places used; a seal is final.")
        case .tooMany(let granted):
            throw APIError.invalidRequest(
                "'used' is from 0 to the \(granted) places granted.", status: .unprocessableContent)
        case .notFound:
            throw APIError.notFound
        }
    }
}
