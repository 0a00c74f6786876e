import Foundation
import OutpostCore

/// The rules of guest fields and their values, shared by the server (which enforces them), the
/// console and the import (which say them) and the door (which shows the values).
public enum GuestFieldRules {
    public static let maxFields = 30
    public static let maxLabelLength = 60
    public static let maxChoices = 50
    public static let maxChoiceLength = 60
    public static let maxTextLength = 500
    /// A ticked checkbox's value.
    public static let ticked = "yes"

    /// The list as the server keeps it (labels and choices trimmed), or why it is refused.
    public static func validated(_ list: GuestFieldList) -> Result<GuestFieldList, Refusal> {
        guard list.fields.count <= maxFields else {
            return .failure(Refusal("An event has at most \(maxFields) guest fields."))
        }
        var seenLabels: Set<String> = []
        var seenIds: Set<GuestFieldID> = []
        var fields: [GuestField] = []
        for var field in list.fields {
            field.label = field.label.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...maxLabelLength).contains(field.label.count) else {
                return .failure(Refusal("A field's label has 1 to \(maxLabelLength) characters."))
            }
            guard seenLabels.insert(field.label.lowercased()).inserted else {
                return .failure(Refusal("Two fields are labelled \"\(field.label)\"; each label names one field."))
            }
            guard seenIds.insert(field.id).inserted else {
                return .failure(Refusal("Two fields have the same id."))
            }
            field.choices = field.choices.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if field.kind == .choice {
                guard (1...maxChoices).contains(field.choices.count) else {
                    return .failure(Refusal("\(field.label) needs 1 to \(maxChoices) choices."))
                }
                guard field.choices.allSatisfy({ (1...maxChoiceLength).contains($0.count) }) else {
                    return .failure(Refusal("\(field.label)'s choices have 1 to \(maxChoiceLength) characters each."))
                }
                guard Set(field.choices.map { $0.lowercased() }).count == field.choices.count else {
                    return .failure(Refusal("\(field.label) lists a choice twice."))
                }
            } else if !field.choices.isEmpty {
                return .failure(Refusal("Only a choice field has choices (\(field.label) is \(field.kind.rawValue))."))
            }
            fields.append(field)
        }
        return .success(GuestFieldList(fields: fields))
    }

    /// A value given through the API for `field`: what is kept (nil clears it), or why it is
    /// refused. A checkbox takes `yes` or `no`; a choice one of its choices, as listed.
    public static func value(_ given: String, for field: GuestField) -> Result<String?, Refusal> {
        let trimmed = given.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .success(nil) }
        switch field.kind {
        case .text:
            guard trimmed.count <= maxTextLength else {
                return .failure(Refusal("\(field.label) has at most \(maxTextLength) characters."))
            }
            return .success(trimmed)
        case .choice:
            guard let choice = field.choices.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
                return .failure(
                    Refusal("\(field.label) is one of: \(field.choices.joined(separator: ", ")) (not \"\(trimmed)\")."))
            }
            return .success(choice)
        case .checkbox:
            switch trimmed.lowercased() {
            case "yes": return .success(ticked)
            case "no": return .success(nil)
            default: return .failure(Refusal("\(field.label) is yes or no (not \"\(trimmed)\")."))
            }
        }
    }

    /// A CSV cell for `field`: as ``value(_:for:)``, and a checkbox also reads the words a
    /// spreadsheet uses (true/false, 1/0, x, ja/nein, oui/non).
    public static func cell(_ cell: String, for field: GuestField) -> Result<String?, Refusal> {
        guard field.kind == .checkbox else { return value(cell, for: field) }
        switch cell.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "yes", "y", "true", "1", "x", "✓", "ja", "oui", "si", "sí": return .success(ticked)
        case "", "no", "n", "false", "0", "nein", "non": return .success(nil)
        default: return .failure(Refusal("\(field.label) is yes or no (not \"\(cell)\")."))
        }
    }

    /// The changes as kept, by field id: every key must name one of `fields`, every value be
    /// valid for it; nil (an empty value, an unticked box) clears the field.
    public static func changes(
        _ given: GuestFieldValues, fields: [GuestField]
    ) -> Result<[String: String?], Refusal> {
        var changes: [String: String?] = [:]
        for (key, text) in given.sorted(by: { $0.key < $1.key }) {
            guard let field = fields.first(where: { $0.id.wire == key }) else {
                return .failure(
                    Refusal("'fields' names \(key.prefix(40)), which is not one of this event's guest fields."))
            }
            switch value(text, for: field) {
            case .success(let kept): changes[key] = .some(kept)
            case .failure(let refusal): return .failure(refusal)
            }
        }
        return .success(changes)
    }

    /// `values` with `changes` applied (nil removes a value).
    public static func applying(_ changes: [String: String?], to values: GuestFieldValues) -> GuestFieldValues {
        var result = values
        for (key, value) in changes { result[key] = value }
        return result
    }

    /// The values as the door's card and the console show them: "label: value" in the fields'
    /// order, a ticked box as "yes"; values of fields no longer defined are left out.
    public static func shown(_ values: GuestFieldValues, fields: [GuestField]) -> [(label: String, value: String)] {
        fields.compactMap { field in values[field.id.wire].map { (field.label, $0) } }
    }

    /// Why a list, value or cell is refused, in one sentence.
    public struct Refusal: Error, Sendable, Hashable {
        public var sentence: String
        public init(_ sentence: String) { self.sentence = sentence }
    }
}
