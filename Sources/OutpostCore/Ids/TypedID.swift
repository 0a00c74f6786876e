import Foundation

/// What a ``TypedID`` names. Each id kind is an empty enum conforming to this.
public protocol IDKind: Sendable {}

/// An id whose type says what it names: a `UserID` cannot be passed where an `EventID` is
/// expected. On the wire it is the canonical lower-case UUID text; decoding is strict (anything
/// else is a decoding error, never a made-up id).
public struct TypedID<Kind: IDKind>: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Parses the wire form; nil for anything that is not a UUID.
    public init?(wire: String) {
        guard let uuid = UUID(wire: wire) else { return nil }
        self.uuid = uuid
    }

    /// A new random id.
    public static func random() -> Self { Self(UUID()) }

    /// The wire form: lower-case, hyphenated.
    public var wire: String { uuid.lowercasedString }

    public var description: String { wire }

    /// The id's sixteen bytes: how a store keeps ids where their size matters (the wire text
    /// is 36 bytes, and a table and each of its indexes repeat it).
    public var data: Data { Data(uuid.bytes) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.wire < rhs.wire }
}

extension TypedID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = Self(wire: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an id: \(text.prefix(40))")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wire)
    }
}

public enum UserIDKind: IDKind {}
public enum TenantIDKind: IDKind {}
public enum EventIDKind: IDKind {}
public enum GuestIDKind: IDKind {}
public enum AccessTypeIDKind: IDKind {}
public enum CheckInIDKind: IDKind {}
public enum ContactIDKind: IDKind {}
public enum ActivityIDKind: IDKind {}
public enum LocationIDKind: IDKind {}
public enum ShiftTemplateIDKind: IDKind {}
public enum ShiftIDKind: IDKind {}
public enum AbsenceTemplateIDKind: IDKind {}
public enum AbsenceIDKind: IDKind {}
public enum WalkInLeaseIDKind: IDKind {}
public enum NoteRevisionIDKind: IDKind {}
public enum BadgePrintIDKind: IDKind {}
public enum ZoneIDKind: IDKind {}
public enum ZonePassageIDKind: IDKind {}
public enum PickupItemIDKind: IDKind {}
public enum PickupRedemptionIDKind: IDKind {}
public enum BoothIDKind: IDKind {}
public enum LeadIDKind: IDKind {}
public enum TicketBlockIDKind: IDKind {}
public enum GuestFieldIDKind: IDKind {}

/// A user (staff, organizer, support) of a tenant.
public typealias UserID = TypedID<UserIDKind>
/// A tenant: an organization and everything it owns.
public typealias TenantID = TypedID<TenantIDKind>
/// An event of a tenant.
public typealias EventID = TypedID<EventIDKind>
/// A guest of an event.
public typealias GuestID = TypedID<GuestIDKind>
/// An access type of an event.
public typealias AccessTypeID = TypedID<AccessTypeIDKind>
/// One accepted check-in (the first of a guest, or a re-confirmation).
public typealias CheckInID = TypedID<CheckInIDKind>
/// A person a peer mentor visits (seed 004), a contact of a tenant.
public typealias ContactID = TypedID<ContactIDKind>
/// One registered activity (a visit, a call) of a peer mentor; made by the device that registers it.
public typealias ActivityID = TypedID<ActivityIDKind>
/// A care worker's work location (a geofence), seed 003.
public typealias LocationID = TypedID<LocationIDKind>
/// A reusable shift pattern (seed 003's shift template).
public typealias ShiftTemplateID = TypedID<ShiftTemplateIDKind>
/// A shift placed on a day.
public typealias ShiftID = TypedID<ShiftIDKind>
/// A reusable absence (vacation, sick).
public typealias AbsenceTemplateID = TypedID<AbsenceTemplateIDKind>
/// An absence on a day.
public typealias AbsenceID = TypedID<AbsenceIDKind>
/// A block of walk-in places the server leased one device for one access type.
public typealias WalkInLeaseID = TypedID<WalkInLeaseIDKind>
/// One revision of a note at the door (made by the device that writes it; a note is known by the
/// id of its first revision).
public typealias NoteRevisionID = TypedID<NoteRevisionIDKind>
/// One badge out of a printer (made by the device that printed it: the print job's id).
public typealias BadgePrintID = TypedID<BadgePrintIDKind>
/// A zone of an event (a hall, the VIP lounge, a workshop room) that zone stations guard.
public typealias ZoneID = TypedID<ZoneIDKind>
/// One entry or exit a zone station recorded (made by the station's device).
public typealias ZonePassageID = TypedID<ZonePassageIDKind>
/// An item guests collect at a pickup station (a T-shirt size, a lunch, a welcome bag).
public typealias PickupItemID = TypedID<PickupItemIDKind>
/// One handing-out at a pickup station, of one or several items (made by the station's device).
public typealias PickupRedemptionID = TypedID<PickupRedemptionIDKind>
/// An exhibitor's booth at an event (lead retrieval).
public typealias BoothID = TypedID<BoothIDKind>
/// A lead an exhibitor captured at a booth (made by the exhibitor's device).
public typealias LeadID = TypedID<LeadIDKind>
/// A block of an event's tickets allocated to a partner (a sponsor, a company, a speakers'
/// agency), who names them until a deadline.
public typealias TicketBlockID = TypedID<TicketBlockIDKind>
/// A field an event asks of its guests beyond name and e-mail ("T-shirt size", "Dietary needs").
public typealias GuestFieldID = TypedID<GuestFieldIDKind>
