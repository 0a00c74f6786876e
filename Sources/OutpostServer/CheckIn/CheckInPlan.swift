import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// What one check-in's facts decide before anything is written: the decision itself, or the
/// row the decision depends on (a new check-in whose insert may lose to another device's, a
/// repeat or a reconfirmation that the check-in's history records). Pure over the decision read
/// and the event's ticket keys; a transaction carries it out one entry at a time
/// (``Store/checkIns(_:render:)``) or a group's entries in a few statements (``CheckInSets``).
enum CheckInPlan {
    /// Refused, or the event is not visible: nothing is written but the settle.
    case settled(CheckInDecision)
    /// A new check-in, if the insert wins the guest.
    case insert(CheckInRecord, eventId: EventID)
    /// The guest is in already: the attempt goes into the check-in's history.
    case repeatOf(CheckInRecord, eventId: EventID)
    /// A reconfirmation of the guest's check-in.
    case reconfirm(CheckInRecord, eventId: EventID)

    /// The plan for `command` from the row of ``Store/decisionRead``.
    static func make(_ command: CheckInCommand, read row: SQLRow, keys: TicketKeyCache) async throws -> CheckInPlan {
        let request = command.request
        guard try row.optionalText("id") != nil else {
            return .settled(
                CheckInDecision(
                    outcome: .eventNotVisible, eventId: nil, auditKind: .rejectedNotFound, bumpsGuest: false))
        }
        let event = try Store.event(from: row)
        var facts: GuestFacts?
        var existing: CheckInRecord?
        if let status = try row.optionalText("guest_status") {
            if let checkInId = try row.optionalID("checkin_id", as: CheckInID.self) {
                existing = CheckInRecord(
                    id: checkInId, guestId: command.guestId, at: try row.date("checkin_at"),
                    clientAt: try row.date("checkin_client_at"), byName: try row.text("checkin_by"),
                    deviceId: try row.text("checkin_device"))
            }
            guard let parsed = GuestStatus(rawValue: status) else { throw StoreError.notFound }
            facts = GuestFacts(eventId: event.id.uuid, status: parsed, checkedInAt: existing?.at)
        }
        if let ticket = request.ticket, facts != nil {
            let publicKeys = try await keys.keys(of: event.id, at: command.now)
            // The scanner's framing (a suffix, a prefix, case) is not part of the ticket (``ScannedText``).
            let payload = try? TicketCodec.verify(
                ScannedText.normalized(ticket), tenantId: event.tenantId.uuid, eventId: event.id.uuid, keys: publicKeys)
            if payload?.guestId != command.guestId.uuid { facts = nil }
        }
        func refused(_ outcome: CheckInOutcome, _ kind: AuditKind) -> CheckInPlan {
            .settled(CheckInDecision(outcome: outcome, eventId: event.id, auditKind: kind, bumpsGuest: false))
        }
        switch CheckInRules.decide(guest: facts, eventId: event.id.uuid, reconfirm: request.reconfirm ?? false) {
        case .notFound:
            return refused(.notFound, .rejectedNotFound)
        case .notAdmissible:
            return refused(.notAdmissible, .rejectedNotAdmissible)
        case .checkIn:
            return .insert(
                CheckInRecord(
                    id: .random(), guestId: command.guestId, at: command.now, clientAt: request.scannedAt,
                    byName: try row.optionalText("caller_name") ?? "", deviceId: request.deviceId),
                eventId: event.id)
        case .alreadyCheckedIn:
            guard let existing else { throw StoreError.notFound }
            return .repeatOf(existing, eventId: event.id)
        case .reconfirm:
            guard let existing else { throw StoreError.notFound }
            return .reconfirm(existing, eventId: event.id)
        }
    }

    /// The decision of an insert that won the guest.
    static func checkedIn(_ record: CheckInRecord, eventId: EventID) -> CheckInDecision {
        CheckInDecision(outcome: .checkedIn(record), eventId: eventId, auditKind: .checkedIn, bumpsGuest: true)
    }

    /// The decision of a reconfirmation (its history row and note are the caller's to write).
    static func reconfirmed(_ existing: CheckInRecord, eventId: EventID) -> CheckInDecision {
        CheckInDecision(outcome: .reconfirmed(existing), eventId: eventId, auditKind: .reconfirmed, bumpsGuest: false)
    }

    /// The decision of a repeat of `existing`, and the history row that records the attempt.
    static func repeated(
        _ command: CheckInCommand, _ existing: CheckInRecord, eventId: EventID
    )
        -> (CheckInDecision, CheckInEventRow)
    {
        let kind = CheckInRules.repeatKind(firstAt: existing.at, now: command.now, dedupeWindow: command.dedupeWindow)
        let decision = CheckInDecision(
            outcome: .alreadyCheckedIn(existing), eventId: eventId,
            auditKind: command.request.method == .kiosk ? .kioskAlreadyCheckedIn : .alreadyCheckedIn, bumpsGuest: false)
        return (decision, CheckInEventRow(command, checkInId: existing.id, kind: kind.rawValue))
    }
}

/// An event's ticket keys, read once per transaction however many of its entries carry a
/// ticket (each entry read them again before).
final class TicketKeyCache {
    private let connection: any SQLConnection
    private var events: [EventID: [EventKeyRecord]] = [:]

    init(_ connection: any SQLConnection) { self.connection = connection }

    /// The keys of `eventId` valid at `now`, by id (a key that does not parse verifies nothing).
    func keys(of eventId: EventID, at now: Date) async throws -> [TicketKeyID: Curve25519.Signing.PublicKey] {
        if events[eventId] == nil { events[eventId] = try await Store.allEventKeys(connection, eventId: eventId) }
        var result: [TicketKeyID: Curve25519.Signing.PublicKey] = [:]
        for key in events[eventId] ?? [] where key.isValid(at: now) {
            // A stored key that is not 32 bytes verifies no ticket.
            result[key.keyID] = try? Curve25519.Signing.PublicKey(rawRepresentation: key.publicKey)
        }
        return result
    }
}
