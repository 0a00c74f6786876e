import Foundation
import OutpostCore

/// What a guest field holds: free text, one of a list of choices, or a tick.
public enum GuestFieldKind: String, Codable, Sendable, CaseIterable {
    case text
    case choice
    case checkbox
}

/// A field an event asks of its guests beyond name and e-mail ("T-shirt size", "Dietary needs",
/// "Photo consent"), defined per event and shown on the door's guest card.
public struct GuestField: Codable, Sendable, Hashable {
    public var id: GuestFieldID
    public var label: String
    public var kind: GuestFieldKind
    /// A choice field's choices, in order; empty for the other kinds.
    public var choices: [String]

    public init(id: GuestFieldID, label: String, kind: GuestFieldKind, choices: [String] = []) {
        self.id = id
        self.label = label
        self.kind = kind
        self.choices = choices
    }
}

/// `GET` and `PUT /v1/events/{eventId}/guest-fields`: the event's guest fields, in order.
public struct GuestFieldList: Codable, Sendable, Hashable {
    public var fields: [GuestField]

    public init(fields: [GuestField]) { self.fields = fields }
}

/// A guest's values of the event's fields, by field id (its wire form). Text is as typed, a
/// choice is one of the field's choices, a ticked checkbox is `yes` (an unticked one has no
/// value).
public typealias GuestFieldValues = [String: String]
