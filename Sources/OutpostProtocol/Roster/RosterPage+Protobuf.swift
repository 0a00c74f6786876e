import Foundation
import OutpostCore
import SwiftProtobuf

/// The roster page in its compact form (Protos/outpost/v1/roster.proto), field for field the
/// JSON page: ids as their 16 bytes, times as milliseconds (the JSON form's precision).
extension RosterPage {
    /// The page as protobuf bytes.
    public func protobufData() throws -> Data {
        var message = Outpost_V1_RosterPage()
        message.accessTypes = accessTypes.map { type in
            var wire = Outpost_V1_AccessType()
            wire.id = type.id.uuid.bytes
            wire.name = type.name
            wire.walkInAllowed = type.walkInAllowed
            if let capacity = type.walkInCapacity { wire.walkInCapacity = UInt32(clamping: capacity) }
            return wire
        }
        message.guests = guests.map { guest in
            var wire = Outpost_V1_Guest()
            wire.id = guest.id.uuid.bytes
            wire.accessTypeID = guest.accessTypeId.uuid.bytes
            wire.name = guest.name
            wire.email = guest.email
            wire.code = guest.code
            wire.status = Self.wire(guest.status)
            wire.notes = guest.notes
            if let checkIn = guest.checkIn {
                var summary = Outpost_V1_CheckIn()
                summary.atMs = checkIn.at.millisecondsSince1970
                summary.byName = checkIn.byName
                summary.deviceID = checkIn.deviceId
                wire.checkIn = summary
            }
            if let block = guest.blockId { wire.blockID = block.uuid.bytes }
            if let fields = guest.fields { wire.fields = fields }
            return wire
        }
        message.fields = fields.map { field in
            var wire = Outpost_V1_GuestField()
            wire.id = field.id.uuid.bytes
            wire.label = field.label
            wire.kind = Self.wire(field.kind)
            wire.choices = field.choices
            return wire
        }
        message.blocks = blocks.map { block in
            var wire = Outpost_V1_TicketBlock()
            wire.id = block.id.uuid.bytes
            wire.kind = Self.wire(block.kind)
            wire.partner = block.partner
            wire.size = UInt32(clamping: block.size)
            wire.doorNaming = block.doorNaming
            return wire
        }
        message.keys = keys.map { key in
            var wire = Outpost_V1_RosterKey()
            wire.keyID = key.keyId
            wire.publicKey = key.publicKey
            return wire
        }
        if let kiosk {
            var wire = Outpost_V1_Kiosk()
            wire.passcodeHash = kiosk.passcodeHash
            wire.orientation = kiosk.orientation == .portrait ? .portrait : .landscape
            message.kiosk = wire
        }
        message.cursor = cursor
        message.hasMore_p = hasMore  // swift-protobuf names has_more so beside its has* accessors
        message.remaining = Int64(remaining)
        message.serverTimeMs = serverTime.millisecondsSince1970
        message.complete = true
        return try message.serializedData()
    }

    /// Reads protobuf bytes; anything that is not a whole page (bytes that do not parse or stop
    /// before the page's last field, an id that is not 16 bytes, a status or orientation this
    /// version does not know) throws
    /// ``RosterWireError`` and nothing of it is used.
    public init(protobuf data: Data) throws {
        let message: Outpost_V1_RosterPage
        do {
            message = try Outpost_V1_RosterPage(serializedBytes: data)
        } catch {
            throw RosterWireError(reason: "not a roster page: \(error)")
        }
        // Written last: without it the bytes stopped at a field's boundary.
        guard message.complete else { throw RosterWireError(reason: "the page was cut short") }
        self.init(
            accessTypes: try message.accessTypes.map { type in
                AccessTypeInfo(
                    id: try Self.id(type.id), name: type.name, walkInAllowed: type.walkInAllowed,
                    walkInCapacity: type.hasWalkInCapacity ? Int(type.walkInCapacity) : nil)
            },
            guests: try message.guests.map { guest in
                GuestInfo(
                    id: try Self.id(guest.id), accessTypeId: try Self.id(guest.accessTypeID), name: guest.name,
                    email: guest.email, code: guest.code, status: try Self.status(guest.status), notes: guest.notes,
                    checkIn: guest.hasCheckIn
                        ? CheckInSummary(
                            at: Date(millisecondsSince1970: guest.checkIn.atMs), byName: guest.checkIn.byName,
                            deviceId: guest.checkIn.deviceID) : nil,
                    blockId: guest.blockID.isEmpty ? nil : try Self.id(guest.blockID),
                    fields: guest.fields.isEmpty ? nil : guest.fields)
            },
            keys: message.keys.map { RosterKey(keyId: $0.keyID, publicKey: $0.publicKey) },
            kiosk: message.hasKiosk
                ? KioskInfo(
                    passcodeHash: message.kiosk.passcodeHash,
                    orientation: try Self.orientation(message.kiosk.orientation))
                : nil,
            cursor: message.cursor, hasMore: message.hasMore_p, remaining: Int(message.remaining),
            serverTime: Date(millisecondsSince1970: message.serverTimeMs),
            blocks: try message.blocks.map { block in
                RosterBlock(
                    id: try Self.id(block.id), kind: try Self.kind(block.kind), partner: block.partner,
                    size: Int(block.size), doorNaming: block.doorNaming)
            },
            fields: try message.fields.map { field in
                GuestField(
                    id: try Self.id(field.id), label: field.label, kind: try Self.kind(field.kind),
                    choices: field.choices)
            })
    }

    private static func wire(_ kind: GuestFieldKind) -> Outpost_V1_GuestFieldKind {
        switch kind {
        case .text: .text
        case .choice: .choice
        case .checkbox: .checkbox
        }
    }

    private static func kind(_ wire: Outpost_V1_GuestFieldKind) throws -> GuestFieldKind {
        switch wire {
        case .text: .text
        case .choice: .choice
        case .checkbox: .checkbox
        case .unspecified, .UNRECOGNIZED: throw RosterWireError(reason: "a guest field's kind is \(wire)")
        }
    }

    private static func wire(_ kind: PartnerKind) -> Outpost_V1_PartnerKind {
        switch kind {
        case .sponsor: .sponsor
        case .company: .company
        case .agency: .agency
        case .partner: .partner
        }
    }

    private static func kind(_ wire: Outpost_V1_PartnerKind) throws -> PartnerKind {
        switch wire {
        case .sponsor: .sponsor
        case .company: .company
        case .agency: .agency
        case .partner: .partner
        case .unspecified, .UNRECOGNIZED: throw RosterWireError(reason: "a ticket block's partner kind is \(wire)")
        }
    }

    private static func wire(_ status: GuestStatus) -> Outpost_V1_GuestStatus {
        switch status {
        case .confirmed: .confirmed
        case .cancelled: .cancelled
        case .revoked: .revoked
        }
    }

    private static func status(_ wire: Outpost_V1_GuestStatus) throws -> GuestStatus {
        switch wire {
        case .confirmed: .confirmed
        case .cancelled: .cancelled
        case .revoked: .revoked
        case .unspecified, .UNRECOGNIZED: throw RosterWireError(reason: "a guest's status is \(wire)")
        }
    }

    private static func orientation(_ wire: Outpost_V1_KioskOrientation) throws -> KioskOrientation {
        switch wire {
        case .portrait: .portrait
        case .landscape: .landscape
        case .unspecified, .UNRECOGNIZED: throw RosterWireError(reason: "the kiosk's orientation is \(wire)")
        }
    }

    private static func id<Kind>(_ bytes: Data) throws -> TypedID<Kind> {
        guard bytes.count == 16 else { throw RosterWireError(reason: "an id of \(bytes.count) bytes, not 16") }
        let uuid = bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }
        return TypedID(UUID(uuid: uuid))
    }
}

extension UUID {
    /// The UUID's 16 bytes, in order.
    var bytes: Data { withUnsafeBytes(of: uuid) { Data($0) } }
}

/// A compact roster page that cannot be read.
public struct RosterWireError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { "unreadable roster page: \(reason)" }
}
