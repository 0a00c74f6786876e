import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The plaintext of a roster page: up to ``capacity`` guests of one event, sealed on the device
/// as one AES-GCM box instead of one box per guest (``ModuleStore/writeRosterPages``).
///
/// Layout: `0x03`; the event's id; the page's access types (a count, then each id); the number
/// of records; for each record its end, four bytes big-endian, counted from the first record;
/// then the records. A record is the guest's id, its access type's place in the page's list (a
/// LEB128 integer), then the fields of ``GuestCoding/appendDetails(_:to:)``. Every id is its 16
/// bytes. The ends let a lookup read one guest without reading the others, and they must account
/// for every byte: a page cut short, or with bytes after its last record, is refused.
///
/// Pages of the first form (`0x02`, every id as its 36 characters of text: 21 bytes more a
/// guest) are still read.
package enum RosterPageCoding {
    package static let tag: UInt8 = 0x03
    /// The first form: the same layout with every id as text.
    package static let textIdsTag: UInt8 = 0x02

    /// Guests per page. A lookup opens the whole page: 128 records (about 15 KiB) cost one
    /// AES-GCM open of a few microseconds, and the box's nonce and tag (28 bytes) are paid once
    /// per 128 guests instead of per guest.
    package static let capacity = 128

    package typealias Failure = ByteLayout.Failure

    /// The page of `guests`, all of event `eventId`, in the order given (a guest's slot is its
    /// place in `guests`).
    package static func encode(_ guests: ArraySlice<LocalGuest>, eventId: EventID) -> [UInt8] {
        var builder = Builder()
        for guest in guests {
            builder.append(id: guest.id, accessTypeId: guest.accessTypeId) {
                GuestCoding.appendDetails(guest, to: &$0)
            }
        }
        return builder.bytes(eventId: eventId)
    }

    /// Builds a page record by record. The migration from guests sealed one by one copies each
    /// row's fields after its ids as they are (the two forms share them), without decoding.
    package struct Builder {
        private var accessTypes: [AccessTypeID] = []
        private var accessTypeSlot: [AccessTypeID: Int] = [:]
        private var records: [UInt8] = []
        private var ends: [UInt32] = []

        package init() { records.reserveCapacity(capacity * 128) }

        package var count: Int { ends.count }

        /// Appends a record: its ids, then what `details` writes (``GuestCoding/appendDetails(_:to:)``'s fields).
        package mutating func append(id: GuestID, accessTypeId: AccessTypeID, details: (inout [UInt8]) -> Void) {
            let slot: Int
            if let known = accessTypeSlot[accessTypeId] {
                slot = known
            } else {
                slot = accessTypes.count
                accessTypes.append(accessTypeId)
                accessTypeSlot[accessTypeId] = slot
            }
            ByteLayout.append(id.uuid, to: &records)
            ByteLayout.append(UInt(slot), to: &records)
            details(&records)
            ends.append(UInt32(records.count))
        }

        package func bytes(eventId: EventID) -> [UInt8] {
            var bytes: [UInt8] = [tag]
            bytes.reserveCapacity(32 + accessTypes.count * 16 + ends.count * 4 + records.count)
            ByteLayout.append(eventId.uuid, to: &bytes)
            ByteLayout.append(UInt(accessTypes.count), to: &bytes)
            for type in accessTypes { ByteLayout.append(type.uuid, to: &bytes) }
            ByteLayout.append(UInt(ends.count), to: &bytes)
            for end in ends {
                for shift in stride(from: 24, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: end >> shift))
                }
            }
            bytes.append(contentsOf: records)
            return bytes
        }
    }

    /// An opened page, its header read and its record ends checked; records are decoded one at
    /// a time, when asked for.
    package struct Page: Sendable {
        package let eventId: EventID
        private let bytes: Data
        private let accessTypes: [AccessTypeID]
        /// Where each record starts and ends in `bytes`.
        private let bounds: [Range<Int>]
        /// A page of the first form: its guests' ids are text.
        private let textIds: Bool

        package var count: Int { bounds.count }

        package init(_ bytes: Data) throws {
            self.bytes = bytes
            (eventId, accessTypes, bounds, textIds) = try bytes.withUnsafeBytes { raw in
                var reader = ByteLayout.Reader(bytes: raw.bindMemory(to: UInt8.self))
                let form = try reader.byte()
                guard form == tag || form == textIdsTag else { throw Failure.malformed("page tag") }
                let textIds = form == textIdsTag
                func id<Kind>(_ what: String) throws -> TypedID<Kind> {
                    guard textIds else { return TypedID(try reader.uuid()) }
                    guard let id = TypedID<Kind>(wire: try reader.string()) else { throw Failure.malformed(what) }
                    return id
                }
                let eventId: EventID = try id("eventId")
                let typeCount = try reader.integer()
                guard typeCount <= capacity else { throw Failure.malformed("access types") }
                var types: [AccessTypeID] = []
                for _ in 0..<typeCount { types.append(try id("accessTypeId")) }
                let count = try reader.integer()
                guard count <= capacity else { throw Failure.malformed("record count") }
                var ends: [Int] = []
                ends.reserveCapacity(count)
                for _ in 0..<count {
                    var end = 0
                    for _ in 0..<4 { end = end << 8 | Int(try reader.byte()) }
                    ends.append(end)
                }
                let first = reader.offset
                var bounds: [Range<Int>] = []
                bounds.reserveCapacity(count)
                var start = 0
                for end in ends {
                    guard end >= start else { throw Failure.malformed("record ends") }
                    guard first + end <= raw.count else { throw Failure.truncated }
                    bounds.append((first + start)..<(first + end))
                    start = end
                }
                guard first + start == raw.count else { throw Failure.malformed("trailing bytes") }
                return (eventId, types, bounds, textIds)
            }
        }

        /// The guest in `slot`.
        package func guest(at slot: Int) throws -> LocalGuest {
            guard bounds.indices.contains(slot) else { throw Failure.malformed("slot") }
            return try bytes.withUnsafeBytes { raw in
                let record = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[bounds[slot]])
                var reader = ByteLayout.Reader(bytes: record)
                let id: GuestID
                if textIds {
                    guard let parsed = GuestID(wire: try reader.string()) else { throw Failure.malformed("id") }
                    id = parsed
                } else {
                    id = GuestID(try reader.uuid())
                }
                let type = try reader.integer(below: accessTypes.count, "access type")
                return try GuestCoding.readDetails(
                    &reader, id: id, eventId: eventId, accessTypeId: accessTypes[type])
            }
        }
    }
}
