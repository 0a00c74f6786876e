import Foundation
import OutpostCore
import OutpostProtocol

/// A new check-in row as written: bound to one statement (a single entry) or encoded with its
/// group's other rows as one JSON document (``CheckInSets``), whose keys are the columns.
struct CheckInRow: Encodable {
    /// The entry's place in its group, from 1.
    var ord: Int
    var id: String
    var eventId: String
    var guestId: String
    var at: Int64
    var clientAt: Int64
    var deviceId: String
    var userId: String
    var byName: String
    var method: String
    var note: String

    init(_ record: CheckInRecord, _ command: CheckInCommand, eventId: EventID, ord: Int) {
        self.ord = ord
        id = record.id.wire
        self.eventId = eventId.wire
        guestId = command.guestId.wire
        at = record.at.millisecondsSince1970
        clientAt = record.clientAt.millisecondsSince1970
        deviceId = record.deviceId
        userId = command.caller.userId.wire
        byName = record.byName
        method = command.method
        note = command.request.note ?? ""
    }

    /// The binds of `INSERT INTO checkins (id, event_id, guest_id, at, client_at, device_id,
    /// user_id, by_name, method, note)`.
    var binds: [SQLValue] {
        [
            .text(id), .text(eventId), .text(guestId), .int(at), .int(clientAt), .text(deviceId), .text(userId),
            .text(byName), .text(method), .text(note),
        ]
    }
}

/// One attempt in a check-in's history (a repeat, a reconfirmation).
struct CheckInEventRow: Encodable {
    var id: String
    var checkinId: String
    var eventId: String
    var guestId: String
    var kind: String
    var at: Int64
    var clientAt: Int64
    var deviceId: String
    var userId: String
    var method: String
    var note: String?

    init(_ command: CheckInCommand, checkInId: CheckInID, kind: String) {
        id = UUID().lowercasedString
        checkinId = checkInId.wire
        eventId = command.eventId.wire
        guestId = command.guestId.wire
        self.kind = kind
        at = command.now.millisecondsSince1970
        clientAt = command.request.scannedAt.millisecondsSince1970
        deviceId = command.request.deviceId
        userId = command.caller.userId.wire
        method = command.method
        note = command.request.note
    }

    static let columns = "id, checkin_id, event_id, guest_id, kind, at, client_at, device_id, user_id, method, note"
    static let insert = "INSERT INTO checkin_events (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    var binds: [SQLValue] {
        [
            .text(id), .text(checkinId), .text(eventId), .text(guestId), .text(kind), .int(at), .int(clientAt),
            .text(deviceId), .text(userId), .text(method), .optionalText(note),
        ]
    }
}
