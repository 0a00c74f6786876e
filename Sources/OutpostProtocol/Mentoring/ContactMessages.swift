import Foundation
import OutpostCore

/// A contact as the API lists it: only what a device may keep offline. The sensitive fields
/// (address, phone, health notes) are never in a list; ``sensitiveFields`` names those the
/// contact has, and ``ContactSensitive`` carries them, decrypted, from the reveal route only.
public struct Contact: Codable, Sendable, Hashable {
    public var id: ContactID
    public var name: String
    /// Where the contact lives, coarsely (a town, a care home): for planning, not for finding.
    public var area: String
    /// The newest activity's date (`YYYY-MM-DD`) across every mentor, if any.
    public var lastVisit: String?
    /// Which sensitive fields the contact has (`address`, `phone`, `healthNotes`), sorted.
    public var sensitiveFields: [String]
    /// The mentors the contact is assigned to, sorted.
    public var mentorIds: [UserID]
    public var updatedAt: Date

    public init(
        id: ContactID, name: String, area: String, lastVisit: String?, sensitiveFields: [String],
        mentorIds: [UserID], updatedAt: Date
    ) {
        self.id = id
        self.name = name
        self.area = area
        self.lastVisit = lastVisit
        self.sensitiveFields = sensitiveFields
        self.mentorIds = mentorIds
        self.updatedAt = updatedAt
    }
}

/// `GET /v1/contacts`: ordered by name, then id. Organizers see every contact of the tenant,
/// mentors those assigned to them.
public struct ContactList: Codable, Sendable, Hashable {
    public var contacts: [Contact]
    public var serverTime: Date

    public init(contacts: [Contact], serverTime: Date) {
        self.contacts = contacts
        self.serverTime = serverTime
    }
}

/// The sensitive fields of a contact: encrypted at rest on the server (envelope encryption),
/// answered only by `POST /v1/contacts/{id}/reveal` (audited, `Cache-Control: no-store`).
public struct ContactSensitive: Codable, Sendable, Hashable {
    public var address: String?
    public var phone: String?
    public var healthNotes: String?

    public init(address: String? = nil, phone: String? = nil, healthNotes: String? = nil) {
        self.address = address
        self.phone = phone
        self.healthNotes = healthNotes
    }

    /// The names of the fields present, sorted.
    public var present: [String] {
        [("address", address), ("healthNotes", healthNotes), ("phone", phone)].compactMap { name, value in
            value.map { _ in name }
        }
    }
}

/// `POST /v1/contacts` (organizer).
public struct CreateContactRequest: Codable, Sendable, Hashable {
    public var name: String
    public var area: String
    public var address: String?
    public var phone: String?
    public var healthNotes: String?

    public init(name: String, area: String, address: String? = nil, phone: String? = nil, healthNotes: String? = nil) {
        self.name = name
        self.area = area
        self.address = address
        self.phone = phone
        self.healthNotes = healthNotes
    }

    public var sensitive: ContactSensitive {
        ContactSensitive(address: address, phone: phone, healthNotes: healthNotes)
    }
}

/// One audited reveal of a contact's sensitive fields.
public struct ContactReveal: Codable, Sendable, Hashable {
    public var userId: UserID
    public var at: Date

    public init(userId: UserID, at: Date) {
        self.userId = userId
        self.at = at
    }
}

/// `GET /v1/contacts/{id}/reveals` (organizer): who saw the sensitive fields, oldest first.
public struct ContactRevealList: Codable, Sendable, Hashable {
    public var reveals: [ContactReveal]

    public init(reveals: [ContactReveal]) { self.reveals = reveals }
}
