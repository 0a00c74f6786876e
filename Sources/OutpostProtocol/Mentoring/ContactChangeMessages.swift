import Foundation
import OutpostCore

/// `PATCH /v1/contacts/{id}` (organizer): a contact's details. Absent fields stay; a sensitive
/// field given as the empty text is removed.
public struct UpdateContactRequest: Codable, Sendable, Hashable {
    public var name: String?
    public var area: String?
    public var address: String?
    public var phone: String?
    public var healthNotes: String?

    public init(
        name: String? = nil, area: String? = nil, address: String? = nil, phone: String? = nil,
        healthNotes: String? = nil
    ) {
        self.name = name
        self.area = area
        self.address = address
        self.phone = phone
        self.healthNotes = healthNotes
    }
}

/// A coordinator's change of a contact, as the contacts' audit keeps it: who, when, which
/// fields (never their values), and, for an erasure, how many activities were kept.
public struct ContactChange: Codable, Sendable, Hashable {
    public enum Action: String, Codable, Sendable, Hashable {
        case edited
        case erased
    }

    public var contactId: ContactID
    public var userId: UserID
    public var action: Action
    public var fields: [String]
    /// For an erasure: the contact's activities kept (counted, their notes emptied).
    public var activitiesKept: Int?
    public var at: Date

    public init(
        contactId: ContactID, userId: UserID, action: Action, fields: [String], activitiesKept: Int?, at: Date
    ) {
        self.contactId = contactId
        self.userId = userId
        self.action = action
        self.fields = fields
        self.activitiesKept = activitiesKept
        self.at = at
    }
}

/// `GET /v1/contacts/changes` (organizer): the tenant's contact edits and erasures, oldest first.
public struct ContactChangeList: Codable, Sendable, Hashable {
    public var changes: [ContactChange]

    public init(changes: [ContactChange]) { self.changes = changes }
}
