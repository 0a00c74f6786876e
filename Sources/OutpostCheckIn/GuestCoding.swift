import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The plaintext form of a sealed guest: a compact binary layout, tagged `0x01`.
///
/// Profiling roster sync and cold open showed Foundation's JSON coders costing more than the
/// AES-GCM sealing and the SQLite writes together (decode was 29% of a cold open). Guests sealed
/// as JSON by earlier versions start with `{` and are still read; every write uses this form.
///
/// Layout: `0x01`, then the strings id, eventId, accessTypeId, name, email, code, notes, status
/// (each a LEB128 length and UTF-8 bytes), then `0` (no check-in) or `1` followed by the check-in:
/// its time in milliseconds (8 bytes, big-endian, two's complement), byName, deviceId, and a
/// pending byte (0 or 1); then, for a ticket of a block or a guest with field values, the block's
/// id (a string, empty outside every block); then, for a guest with field values, their count
/// (LEB128) and each field's id and value (strings), by id. Guests sealed before blocks end
/// after the check-in and are read as outside every block; those sealed before fields, with none.
package enum GuestCoding {
    package static let tag: UInt8 = 0x01

    package typealias Failure = ByteLayout.Failure

    package static func encode(_ guest: LocalGuest) -> [UInt8] {
        var bytes: [UInt8] = [tag]
        bytes.reserveCapacity(
            64 + guest.name.utf8.count + guest.email.utf8.count + guest.notes.utf8.count + guest.code.utf8.count)
        for text in [guest.id.wire, guest.eventId.wire, guest.accessTypeId.wire] { append(text, to: &bytes) }
        appendDetails(guest, to: &bytes)
        return bytes
    }

    /// What follows the ids in both forms, the row's and a roster page's record: name, e-mail,
    /// code, notes, status, the check-in, the block.
    package static func appendDetails(_ guest: LocalGuest, to bytes: inout [UInt8]) {
        for text in [guest.name, guest.email, guest.code, guest.notes, guest.status.rawValue] {
            append(text, to: &bytes)
        }
        if let checkIn = guest.checkIn {
            bytes.append(1)
            ByteLayout.append(bigEndian: UInt64(bitPattern: checkIn.at.millisecondsSince1970), to: &bytes)
            append(checkIn.byName, to: &bytes)
            append(checkIn.deviceId, to: &bytes)
            bytes.append(checkIn.pending ? 1 : 0)
        } else {
            bytes.append(0)
        }
        let fields = guest.fields ?? [:]
        if guest.blockId != nil || !fields.isEmpty { append(guest.blockId?.wire ?? "", to: &bytes) }
        if !fields.isEmpty {
            ByteLayout.append(UInt(fields.count), to: &bytes)
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                append(key, to: &bytes)
                append(value, to: &bytes)
            }
        }
    }

    /// Reads either form: the binary layout, or the JSON of earlier versions.
    package static func decode(_ data: Data, json decoder: JSONDecoder) throws -> LocalGuest {
        guard data.first == tag else { return try decoder.decode(LocalGuest.self, from: data) }
        return try data.withUnsafeBytes { raw in
            var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self), offset: 1)
            guard let id = GuestID(wire: try reader.string()) else { throw Failure.malformed("id") }
            guard let eventId = EventID(wire: try reader.string()) else { throw Failure.malformed("eventId") }
            guard let accessTypeId = AccessTypeID(wire: try reader.string()) else {
                throw Failure.malformed("accessTypeId")
            }
            return try readDetails(&reader, id: id, eventId: eventId, accessTypeId: accessTypeId)
        }
    }

    /// Reads ``appendDetails(_:to:)``'s fields up to the reader's end, which must be the record's.
    package static func readDetails(
        _ reader: inout ByteLayout.Reader, id: GuestID, eventId: EventID, accessTypeId: AccessTypeID
    ) throws -> LocalGuest {
        let name = try reader.string()
        let email = try reader.string()
        let code = try reader.string()
        let notes = try reader.string()
        let statusText = try reader.string()
        guard let status = GuestStatus(rawValue: statusText) else { throw Failure.malformed("status") }
        var checkIn: LocalCheckIn?
        switch try reader.byte() {
        case 0: break
        case 1:
            let millis = try reader.bigEndian64()
            let byName = try reader.string()
            let deviceId = try reader.string()
            let pending = try reader.byte()
            guard pending <= 1 else { throw Failure.malformed("pending") }
            checkIn = LocalCheckIn(
                at: Date(millisecondsSince1970: Int64(bitPattern: millis)), byName: byName, deviceId: deviceId,
                pending: pending == 1)
        default:
            throw Failure.malformed("check-in flag")
        }
        var blockId: TicketBlockID?
        if !reader.isAtEnd {
            let text = try reader.string()
            if !text.isEmpty {
                guard let block = TicketBlockID(wire: text) else { throw Failure.malformed("blockId") }
                blockId = block
            } else if reader.isAtEnd {
                // An empty block stands only before field values.
                throw Failure.malformed("blockId")
            }
        }
        var fields: GuestFieldValues?
        if !reader.isAtEnd {
            let count = try reader.integer()
            guard count > 0, count <= GuestFieldRules.maxFields * 4 else { throw Failure.malformed("field count") }
            var values: GuestFieldValues = [:]
            for _ in 0..<count { values[try reader.string()] = try reader.string() }
            fields = values
        }
        guard reader.isAtEnd else { throw Failure.malformed("trailing bytes") }
        return LocalGuest(
            id: id, eventId: eventId, accessTypeId: accessTypeId, name: name, email: email, code: code,
            notes: notes, status: status, checkIn: checkIn, blockId: blockId, fields: fields)
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) { ByteLayout.append(text, to: &bytes) }
}
