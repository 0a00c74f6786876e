import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `POST /v1/events/{eventId}/checkins`: idempotent check-in ingest.
struct CheckInRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.post("events/{eventId}/checkins", use: checkIn)
        group.post("events/{eventId}/checkins:batch", use: batch)
    }

    /// A device's queue in one request: each entry decided on its own, in order, exactly as the
    /// single route would (its own Idempotency-Key, its own transaction, its own stored answer);
    /// on an event the caller cannot see, the whole answer is the API's 404.
    /// The answer embeds each entry's stored bytes unchanged: `{"results":[{"idempotencyKey":…,
    /// "status":…,"answer":<bytes>}]}`.
    @Sendable func batch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try HTTPHelpers.uuid("eventId", in: context)
        let body = try await HTTPHelpers.decode(CheckInBatchRequest.self, from: request)
        guard !body.entries.isEmpty, body.entries.count <= CheckInBatchRequest.maxEntries else {
            throw APIError.invalidRequest(
                "A batch holds 1 to \(CheckInBatchRequest.maxEntries) check-ins.", status: .unprocessableContent)
        }
        // An event the caller cannot see is the API's plain 404, as on every route; each entry is
        // still decided (refused, recorded under the caller's tenant, its answer kept under its key).
        let visible = try await dependencies.store.event(eventId, visibleTo: context.caller) != nil
        var out = Array(#"{"results":["#.utf8)
        for (index, entry) in body.entries.enumerated() {
            let key = entry.idempotencyKey
            let (status, answer) = try await self.entry(entry, key: key, eventId: eventId, context: context)
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(#"{"idempotencyKey":"#.utf8) + (try OutpostJSON.encode(key.description))
            out += Array(#","status":\#(status),"answer":"#.utf8) + answer + [UInt8(ascii: "}")]
        }
        out += Array("]}".utf8)
        guard visible else { throw APIError.notFound }
        return HTTPHelpers.bytes(out, status: .ok, contentType: "application/json")
    }

    /// One entry of a batch: the status and body the single route would answer.
    private func entry(
        _ entry: CheckInRequest, key: IdempotencyKey, eventId: UUID, context: AuthenticatedContext
    ) async throws -> (Int, [UInt8]) {
        do {
            // The key must survive its own wire form (a device id with a space or outside ASCII would not).
            guard IdempotencyKey(parsing: key.description) == key else {
                throw APIError.invalidRequest(
                    "The deviceId must be ASCII without spaces (it is part of the Idempotency-Key, deviceId:guestId:scannedAtMillis)."
                )
            }
            let stored = try await apply(entry, key: key, eventId: eventId, context: context)
            return (stored.status, stored.body)
        } catch let error as APIError {
            return (Int(error.status.code), try error.body())
        }
    }

    @Sendable func checkIn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try HTTPHelpers.uuid("eventId", in: context)
        guard let keyText = request.headers[.idempotencyKey] else {
            throw APIError.invalidRequest("The Idempotency-Key header is required (deviceId:guestId:scannedAtMillis).")
        }
        guard let key = IdempotencyKey(parsing: keyText) else {
            throw APIError.invalidRequest("The Idempotency-Key header must be deviceId:guestId:scannedAtMillis.")
        }
        let body = try await HTTPHelpers.decode(CheckInRequest.self, from: request)
        guard key == body.idempotencyKey else {
            throw APIError.invalidRequest(
                "The Idempotency-Key must be deviceId:guestId:scannedAtMillis of this request's body.",
                status: .unprocessableContent)
        }
        let stored = try await apply(body, key: key, eventId: eventId, context: context)
        return HTTPHelpers.bytes(stored.body, status: .init(code: stored.status))
    }

    /// A check-in under its key, the single route's and each batch entry's: decided now or
    /// replayed (the stored answer), counted in the metrics; a key used for another request is
    /// the 422 `idempotency_key_reused`.
    private func apply(
        _ body: CheckInRequest, key: IdempotencyKey, eventId: UUID, context: AuthenticatedContext
    ) async throws -> StoredAnswer {
        let command = CheckInCommand(
            caller: context.caller, eventId: eventId, guestId: body.guestId.uuid, idempotencyKey: key.description,
            requestHash: try Self.requestHash(eventId: eventId, body: body), request: body,
            now: dependencies.clock.now(), dedupeWindow: dependencies.configuration.dedupeWindow)
        switch try await dependencies.store.checkIn(command, render: Self.render) {
        case .fresh(let stored, let outcome):
            dependencies.metrics.countCheckIn(result: Self.metricName(outcome))
            if outcome == .eventNotVisible {
                // For the operator: the organizer's list is GET /v1/audit/refused.
                dependencies.logger.notice(
                    "check-in refused: the event is not visible to the caller",
                    metadata: [
                        "tenant": "\(context.caller.tenantId)", "user": "\(context.caller.userId)",
                        "event": "\(eventId)", "device": "\(body.deviceId)",
                    ])
            }
            return stored
        case .replayed(let stored):
            dependencies.metrics.countCheckIn(result: "replayed")
            return stored
        case .keyReused:
            dependencies.metrics.countCheckIn(result: "idempotency_key_reused")
            throw APIError(
                .unprocessableContent, .idempotencyKeyReused,
                "This Idempotency-Key was already used for a different check-in request.")
        }
    }

    /// SHA-256 over the event and the body's canonical JSON (sorted keys), so a retry matches
    /// its original and any changed field does not.
    static func requestHash(eventId: UUID, body: CheckInRequest) throws -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(eventId.lowercasedString.utf8))
        hasher.update(data: try OutpostJSON.encode(body))
        return Array(hasher.finalize())
    }

    @Sendable static func render(_ outcome: CheckInOutcome) throws -> StoredAnswer {
        switch outcome {
        case .checkedIn(let record):
            return StoredAnswer(
                status: 201, body: Array(try OutpostJSON.encode(CheckInResponse(result: .checkedIn, checkIn: record))))
        case .alreadyCheckedIn(let record):
            return StoredAnswer(
                status: 200,
                body: Array(try OutpostJSON.encode(CheckInResponse(result: .alreadyCheckedIn, checkIn: record))))
        case .reconfirmed(let record):
            return StoredAnswer(
                status: 200, body: Array(try OutpostJSON.encode(CheckInResponse(result: .reconfirmed, checkIn: record)))
            )
        case .notAdmissible:
            return StoredAnswer(
                status: 409,
                body: Array(
                    try OutpostJSON.encode(
                        ErrorBody(
                            code: .guestNotAdmissible, message: "This guest's registration is cancelled or revoked."
                        ))))
        case .notFound, .eventNotVisible:
            return StoredAnswer(
                status: 404, body: Array(try OutpostJSON.encode(ErrorBody(code: .notFound, message: "Not found."))))
        }
    }

    static func metricName(_ outcome: CheckInOutcome) -> String {
        switch outcome {
        case .checkedIn: "checked_in"
        case .alreadyCheckedIn: "already_checked_in"
        case .reconfirmed: "reconfirmed"
        case .notAdmissible: "guest_not_admissible"
        case .notFound: "not_found"
        case .eventNotVisible: "event_not_visible"
        }
    }
}

extension HTTPField.Name {
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
}
