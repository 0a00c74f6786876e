import Foundation
import OutpostCore
import OutpostProtocol

/// How saving an event's guest fields ended.
enum GuestFieldsWrite: Sendable, Equatable {
    case saved(GuestFieldList)
    /// A field kept its id with another kind (its label): guests' values of the old kind would
    /// not read as the new one.
    case kindChanged(String)
    /// A field's id is another event's field.
    case idTaken
}

/// The fields an event asks of its guests beyond name and e-mail. A field left out of a new list
/// is removed from the event (its row stays, marked, so its id never changes kind, and guests'
/// values of it are kept but no longer shown).
extension Store {
    func guestFields(eventId: EventID) async throws -> [GuestField] {
        try await database.read { connection in try await Self.guestFields(connection, eventId: eventId) }
    }

    static func guestFields(_ connection: any SQLConnection, eventId: EventID) async throws -> [GuestField] {
        try await connection.query(
            """
            SELECT id, label, kind, choices FROM guest_fields
            WHERE event_id = ? AND removed_at IS NULL ORDER BY position, id
            """, [.id(eventId)]
        ).map { row in
            let choices = try row.text("choices")
            return GuestField(
                id: try row.id("id"), label: try row.text("label"),
                kind: try row.enumeration("kind", as: GuestFieldKind.self),
                choices: choices.isEmpty ? [] : choices.components(separatedBy: "\n"))
        }
    }

    /// Replaces the event's guest fields with `list` (already checked by ``GuestFieldRules``).
    func setGuestFields(eventId: EventID, list: GuestFieldList, now: Date) async throws -> GuestFieldsWrite {
        try await database.transaction { connection in
            for field in list.fields {
                guard
                    let row = try await connection.queryOne(
                        "SELECT event_id, kind FROM guest_fields WHERE id = ?", [.id(field.id)])
                else { continue }
                guard try row.id("event_id", as: EventID.self) == eventId else { return .idTaken }
                guard try row.text("kind") == field.kind.rawValue else { return .kindChanged(field.label) }
            }
            try await connection.execute(
                "UPDATE guest_fields SET removed_at = ? WHERE event_id = ? AND removed_at IS NULL",
                [.date(now), .id(eventId)])
            for (position, field) in list.fields.enumerated() {
                try await connection.execute(
                    """
                    INSERT INTO guest_fields (id, event_id, position, label, kind, choices, removed_at)
                    VALUES (?, ?, ?, ?, ?, ?, NULL)
                    ON CONFLICT (id) DO UPDATE SET position = excluded.position, label = excluded.label,
                        choices = excluded.choices, removed_at = NULL
                    """,
                    [
                        .id(field.id), .id(eventId), .int(Int64(position)), .text(field.label),
                        .text(field.kind.rawValue), .text(field.choices.joined(separator: "\n")),
                    ])
            }
            return .saved(GuestFieldList(fields: try await Self.guestFields(connection, eventId: eventId)))
        }
    }
}
