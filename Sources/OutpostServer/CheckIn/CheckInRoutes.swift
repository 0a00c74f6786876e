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
        group.on(API.checkIn, use: checkIn)
        group.on(API.checkInBatch, use: batch)
        group.on(API.undoCheckIn, use: undo)
    }

    /// Takes a check-in back (organizer, support), with a reason; at most once per check-in (a
    /// repeat answers as the first did). The check-in is kept whole; the guest is not checked in
    /// from then on and can be checked in again.
    @Sendable func undo(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, checkInId) = try API.undoCheckIn.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer, .support])
        let body = try await HTTPHelpers.decode(UndoCheckInRequest.self, from: request)
        let reason = body.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty, reason.count <= UndoCheckInRequest.maxReason else {
            throw APIError.invalidRequest(
                "Say why the check-in is taken back, in at most \(UndoCheckInRequest.maxReason) characters.",
                status: .unprocessableContent)
        }
        guard
            let undone = try await dependencies.store.undoCheckIn(
                event: event, checkInId: checkInId, caller: context.caller, reason: reason,
                now: dependencies.clock.now())
        else { throw APIError.notFound }
        return try HTTPHelpers.json(undone)
    }

    /// A device's queue in one request: each entry decided on its own, in order, exactly as the
    /// single route would (its own Idempotency-Key, its own answer, stored under its key), all of
    /// them in one transaction with one commit (``Store/checkIns(_:render:)``, with whatever else
    /// arrives for the event meanwhile: ``CheckInGroups``); when that
    /// transaction fails, each entry in a transaction of its own. On an event the caller cannot
    /// see, the whole answer is the API's 404.
    /// The answer embeds each entry's stored bytes unchanged: `{"results":[{"idempotencyKey":…,
    /// "status":…,"answer":<bytes>}]}`.
    @Sendable func batch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.checkInBatch.parameters(in: context)
        let body = try await HTTPHelpers.decode(CheckInBatchRequest.self, from: request)
        guard !body.entries.isEmpty, body.entries.count <= CheckInBatchRequest.maxEntries else {
            throw APIError.invalidRequest(
                "A batch holds 1 to \(CheckInBatchRequest.maxEntries) check-ins.", status: .unprocessableContent)
        }
        // An event the caller cannot see is the API's plain 404, as on every route; each entry is
        // still decided (refused, recorded under the caller's tenant, its answer kept under its key).
        let visible = try await dependencies.store.event(eventId, visibleTo: context.caller) != nil
        var results: [StoredAnswer?] = Array(repeating: nil, count: body.entries.count)
        var commands: [(index: Int, command: CheckInCommand)] = []
        for (index, entry) in body.entries.enumerated() {
            // The key must survive its own wire form (a device id with a space or outside ASCII would not).
            guard IdempotencyKey(parsing: entry.idempotencyKey.description) == entry.idempotencyKey else {
                results[index] = try APIError.invalidRequest(
                    "The deviceId must be ASCII without spaces (it is part of the Idempotency-Key, deviceId:guestId:scannedAtMillis)."
                ).storedAnswer()
                continue
            }
            commands.append((index, try command(entry, key: entry.idempotencyKey, eventId: eventId, context: context)))
        }
        var answers: [CheckInAnswer]
        do {
            answers = try await dependencies.checkInGroups.checkIns(commands.map(\.command))
            dependencies.metrics.countBatch(commit: "one")
        } catch {
            dependencies.metrics.countBatch(commit: "per_entry")
            // Rolled back whole (e.g. a deadlock with another device's batch): one by one.
            dependencies.logger.notice("check-in batch retried entry by entry", metadata: ["error": "\(error)"])
            answers = []
            for (_, command) in commands {
                answers.append(try await dependencies.store.checkIn(command, render: Self.render))
            }
        }
        for ((index, command), answer) in zip(commands, answers) {
            do {
                results[index] = try stored(answer, command, context: context)
            } catch let error as APIError {
                results[index] = try error.storedAnswer()
            }
        }
        var out = Array(#"{"results":["#.utf8)
        for (index, (entry, result)) in zip(body.entries, results).enumerated() {
            guard let result else { throw StoreError.notFound }
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += Array(#"{"idempotencyKey":"#.utf8) + (try OutpostJSON.encode(entry.idempotencyKey.description))
            out += Array(#","status":\#(result.status),"answer":"#.utf8) + result.body + [UInt8(ascii: "}")]
        }
        out += Array("]}".utf8)
        guard visible else { throw APIError.notFound }
        return HTTPHelpers.bytes(out, status: .ok, contentType: "application/json")
    }

    @Sendable func checkIn(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let eventId = try API.checkIn.parameters(in: context)
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

    /// A check-in under its key, the single route's: decided now or replayed (the stored answer).
    private func apply(
        _ body: CheckInRequest, key: IdempotencyKey, eventId: EventID, context: AuthenticatedContext
    ) async throws -> StoredAnswer {
        let command = try command(body, key: key, eventId: eventId, context: context)
        guard let answer = try await dependencies.checkInGroups.checkIns([command]).first else {
            throw StoreError.notFound
        }
        return try stored(answer, command, context: context)
    }

    private func command(
        _ body: CheckInRequest, key: IdempotencyKey, eventId: EventID, context: AuthenticatedContext
    ) throws -> CheckInCommand {
        CheckInCommand(
            caller: context.caller, eventId: eventId, guestId: body.guestId, idempotencyKey: key.description,
            requestHash: try Self.requestHash(eventId: eventId, body: body), request: body,
            now: dependencies.clock.now(), dedupeWindow: dependencies.configuration.dedupeWindow)
    }

    /// How a check-in ended, as the answer sent (and counted in the metrics); a key used for
    /// another request is the 422 `idempotency_key_reused` (thrown by the single route, the
    /// entry's answer in a batch).
    private func stored(
        _ answer: CheckInAnswer, _ command: CheckInCommand, context: AuthenticatedContext
    ) throws -> StoredAnswer {
        switch answer {
        case .fresh(let stored, let outcome):
            dependencies.metrics.countCheckIn(result: Self.metricName(outcome))
            if outcome == .eventNotVisible {
                // For the operator: the organizer's list is GET /v1/audit/refused.
                dependencies.logger.notice(
                    "check-in refused: the event is not visible to the caller",
                    metadata: [
                        "tenant": "\(context.caller.tenantId)", "user": "\(context.caller.userId)",
                        "event": "\(command.eventId)", "device": "\(command.request.deviceId)",
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
    static func requestHash(eventId: EventID, body: CheckInRequest) throws -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(eventId.wire.utf8))
        hasher.update(data: try OutpostJSON.encode(body))
        return Array(hasher.finalize())
    }

    @Sendable static func render(_ outcome: CheckInOutcome) throws -> StoredAnswer {
        switch outcome {
        case .checkedIn(let record):
            return StoredAnswer(status: 201, body: CheckInResponse(result: .checkedIn, checkIn: record).json)
        case .alreadyCheckedIn(let record):
            return StoredAnswer(status: 200, body: CheckInResponse(result: .alreadyCheckedIn, checkIn: record).json)
        case .reconfirmed(let record):
            return StoredAnswer(status: 200, body: CheckInResponse(result: .reconfirmed, checkIn: record).json)
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
