import Foundation
import OutpostCore
import OutpostProtocol

/// A guest as the device keeps it (sealed at rest).
public struct LocalGuest: Codable, Sendable, Hashable {
    public var id: GuestID
    public var eventId: EventID
    public var accessTypeId: AccessTypeID
    public var name: String
    public var email: String
    public var code: String
    public var notes: String
    public var status: GuestStatus
    public var checkIn: LocalCheckIn?
    /// The ticket block the ticket belongs to (the roster's blocks say whose); an unnamed
    /// ticket of a block has an empty name.
    public var blockId: TicketBlockID?
    /// The guest's values of the event's guest fields, by field id (the roster's fields say
    /// their labels); nil when there are none.
    public var fields: GuestFieldValues?

    package init(
        id: GuestID, eventId: EventID, accessTypeId: AccessTypeID, name: String, email: String, code: String,
        notes: String, status: GuestStatus, checkIn: LocalCheckIn?, blockId: TicketBlockID? = nil,
        fields: GuestFieldValues? = nil
    ) {
        self.id = id
        self.eventId = eventId
        self.accessTypeId = accessTypeId
        self.name = name
        self.email = email
        self.code = code
        self.notes = notes
        self.status = status
        self.checkIn = checkIn
        self.blockId = blockId
        self.fields = fields.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A ticket of a block its partner has not named yet: the door names it (when the block
    /// allows) before it is admitted; the kiosk never admits it.
    public var isUnnamedBlockTicket: Bool { blockId != nil && name.isEmpty }
}

/// The first check-in of a guest as the device knows it.
public struct LocalCheckIn: Codable, Sendable, Hashable {
    /// Server time once the server answered; until then the device's time of the scan.
    public var at: Date
    public var byName: String
    public var deviceId: String
    /// True while only this device knows of it (its outbox entry is not answered yet).
    public var pending: Bool

    package init(at: Date, byName: String, deviceId: String, pending: Bool) {
        self.at = at
        self.byName = byName
        self.deviceId = deviceId
        self.pending = pending
    }
}
