import Foundation
import OutpostCore

/// An access type (ticket class) of an event.
public struct AccessTypeInfo: Codable, Sendable, Hashable {
    public var id: AccessTypeID
    public var name: String
    public var walkInAllowed: Bool
    /// How many walk-ins the access type admits in all; nil: no limit. Devices then admit
    /// offline only from places the server leased them.
    public var walkInCapacity: Int?

    public init(id: AccessTypeID, name: String, walkInAllowed: Bool, walkInCapacity: Int? = nil) {
        self.id = id
        self.name = name
        self.walkInAllowed = walkInAllowed
        self.walkInCapacity = walkInCapacity
    }
}

/// The first check-in of a guest, as the roster shows it.
public struct CheckInSummary: Codable, Sendable, Hashable {
    /// Server time of the first accepted check-in.
    public var at: Date
    public var byName: String
    public var deviceId: String
    /// The check-in's id, to take it back by: in the answers about one guest (show, create,
    /// update), not in the roster or the list.
    public var id: CheckInID?

    public init(at: Date, byName: String, deviceId: String, id: CheckInID? = nil) {
        self.at = at
        self.byName = byName
        self.deviceId = deviceId
        self.id = id
    }
}

/// A guest as the roster, create and update answers show it.
public struct GuestInfo: Codable, Sendable, Hashable {
    public var id: GuestID
    public var accessTypeId: AccessTypeID
    public var name: String
    public var email: String
    public var code: String
    public var status: GuestStatus
    public var notes: String
    /// `null` on the wire until the guest is checked in.
    public var checkIn: CheckInSummary?
    /// The ticket block the guest's ticket belongs to (the page's `blocks` say whose); absent
    /// from the wire for a guest outside every block. A block's unnamed ticket has an empty name.
    public var blockId: TicketBlockID?
    /// The event's own fields the guest has a value for, by field id (``GuestFieldValues``);
    /// absent from the wire when there are none.
    public var fields: GuestFieldValues?

    public init(
        id: GuestID, accessTypeId: AccessTypeID, name: String, email: String, code: String, status: GuestStatus,
        notes: String, checkIn: CheckInSummary?, blockId: TicketBlockID? = nil, fields: GuestFieldValues? = nil
    ) {
        self.id = id
        self.accessTypeId = accessTypeId
        self.name = name
        self.email = email
        self.code = code
        self.status = status
        self.notes = notes
        self.checkIn = checkIn
        self.blockId = blockId
        self.fields = fields.flatMap { $0.isEmpty ? nil : $0 }
    }

    private enum CodingKeys: String, CodingKey {
        case id, accessTypeId, name, email, code, status, notes, checkIn, blockId, fields
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(accessTypeId, forKey: .accessTypeId)
        try container.encode(name, forKey: .name)
        try container.encode(email, forKey: .email)
        try container.encode(code, forKey: .code)
        try container.encode(status, forKey: .status)
        try container.encode(notes, forKey: .notes)
        try container.encode(checkIn, forKey: .checkIn)  // explicit null
        try container.encodeIfPresent(blockId, forKey: .blockId)
        try container.encodeIfPresent(fields, forKey: .fields)
    }
}

/// A public key devices use to verify tickets offline.
public struct RosterKey: Codable, Sendable, Hashable {
    /// Eight lower-case hex digits (``TicketKeyID``).
    public var keyId: String
    /// The raw Ed25519 public key, base64url without padding.
    public var publicKey: String

    public init(keyId: String, publicKey: String) {
        self.keyId = keyId
        self.publicKey = publicKey
    }
}

/// Kiosk settings devices need offline.
public struct KioskInfo: Codable, Sendable, Hashable {
    /// A bcrypt hash of the exit passcode.
    public var passcodeHash: String
    public var orientation: KioskOrientation

    public init(passcodeHash: String, orientation: KioskOrientation) {
        self.passcodeHash = passcodeHash
        self.orientation = orientation
    }
}

/// The screen orientation a kiosk is locked to.
public enum KioskOrientation: String, Codable, Sendable, CaseIterable {
    case portrait
    case landscape
}

/// `GET /v1/events/{eventId}/roster`: one page of guests changed after a cursor.
public struct RosterPage: Codable, Sendable, Hashable {
    public var accessTypes: [AccessTypeInfo]
    /// Ordered by change: a guest changed after the page was read appears again in a later page.
    public var guests: [GuestInfo]
    public var keys: [RosterKey]
    public var kiosk: KioskInfo?
    /// Opaque; pass as `since` to continue.
    public var cursor: String
    public var hasMore: Bool
    /// How many changed guests remain after this page (an Outpost addition to API.md, so a
    /// device can show sync progress as done/total).
    public var remaining: Int
    public var serverTime: Date
    /// The event's ticket blocks (every page carries them all, as it does the access types), so
    /// the door shows a block ticket's scope: "Sponsor: Acme (block of 20)".
    public var blocks: [RosterBlock]
    /// The event's own guest fields, in order (every page carries them all), so the door's card
    /// shows each guest's values by label.
    public var fields: [GuestField]

    public init(
        accessTypes: [AccessTypeInfo], guests: [GuestInfo], keys: [RosterKey], kiosk: KioskInfo?, cursor: String,
        hasMore: Bool, remaining: Int, serverTime: Date, blocks: [RosterBlock] = [], fields: [GuestField] = []
    ) {
        self.accessTypes = accessTypes
        self.guests = guests
        self.keys = keys
        self.kiosk = kiosk
        self.cursor = cursor
        self.hasMore = hasMore
        self.remaining = remaining
        self.serverTime = serverTime
        self.blocks = blocks
        self.fields = fields
    }

    private enum CodingKeys: String, CodingKey {
        case accessTypes, guests, keys, kiosk, cursor, hasMore, remaining, serverTime, blocks, fields
    }

    /// Reads a page; one from a server before ticket blocks (or guest fields) has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            accessTypes: try container.decode([AccessTypeInfo].self, forKey: .accessTypes),
            guests: try container.decode([GuestInfo].self, forKey: .guests),
            keys: try container.decode([RosterKey].self, forKey: .keys),
            kiosk: try container.decodeIfPresent(KioskInfo.self, forKey: .kiosk),
            cursor: try container.decode(String.self, forKey: .cursor),
            hasMore: try container.decode(Bool.self, forKey: .hasMore),
            remaining: try container.decode(Int.self, forKey: .remaining),
            serverTime: try container.decode(Date.self, forKey: .serverTime),
            blocks: try container.decodeIfPresent([RosterBlock].self, forKey: .blocks) ?? [],
            fields: try container.decodeIfPresent([GuestField].self, forKey: .fields) ?? [])
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessTypes, forKey: .accessTypes)
        try container.encode(guests, forKey: .guests)
        try container.encode(keys, forKey: .keys)
        try container.encode(kiosk, forKey: .kiosk)  // explicit null
        try container.encode(cursor, forKey: .cursor)
        try container.encode(hasMore, forKey: .hasMore)
        try container.encode(remaining, forKey: .remaining)
        try container.encode(serverTime, forKey: .serverTime)
        try container.encode(blocks, forKey: .blocks)
        try container.encode(fields, forKey: .fields)
    }
}

/// `POST /v1/events/{eventId}/guests`.
public struct CreateGuestRequest: Codable, Sendable, Hashable {
    public var name: String
    public var email: String
    public var accessTypeId: AccessTypeID
    public var notes: String?
    /// Values of the event's guest fields, by field id.
    public var fields: GuestFieldValues?

    public init(
        name: String, email: String, accessTypeId: AccessTypeID, notes: String? = nil, fields: GuestFieldValues? = nil
    ) {
        self.name = name
        self.email = email
        self.accessTypeId = accessTypeId
        self.notes = notes
        self.fields = fields
    }
}

/// `PATCH /v1/events/{eventId}/guests/{guestId}`: absent fields stay as they are.
public struct UpdateGuestRequest: Codable, Sendable, Hashable {
    public var status: GuestStatus?
    public var name: String?
    public var email: String?
    public var notes: String?
    public var accessTypeId: AccessTypeID?
    /// Guest field values to set, by field id; an empty value clears the field. Fields left out
    /// keep their values.
    public var fields: GuestFieldValues?

    public init(
        status: GuestStatus? = nil, name: String? = nil, email: String? = nil, notes: String? = nil,
        accessTypeId: AccessTypeID? = nil, fields: GuestFieldValues? = nil
    ) {
        self.status = status
        self.name = name
        self.email = email
        self.notes = notes
        self.accessTypeId = accessTypeId
        self.fields = fields
    }
}

/// One rejected CSV row.
public struct ImportRowError: Codable, Sendable, Hashable {
    /// The physical line (1-based, the header is line 1) where the row starts.
    public var line: Int
    public var error: String

    public init(line: Int, error: String) {
        self.line = line
        self.error = error
    }
}

/// `POST /v1/events/{eventId}/guests:import`.
public struct ImportResult: Codable, Sendable, Hashable {
    public var imported: Int
    /// Rows naming an e-mail the event already has (re-imports change nothing).
    public var skipped: Int
    /// The first 1,000 row errors, by line.
    public var errors: [ImportRowError]
    /// Row errors beyond the listed ones.
    public var errorsOmitted: Int

    public init(imported: Int, skipped: Int, errors: [ImportRowError], errorsOmitted: Int = 0) {
        self.imported = imported
        self.skipped = skipped
        self.errors = errors
        self.errorsOmitted = errorsOmitted
    }
}
