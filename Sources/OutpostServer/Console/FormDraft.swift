import Foundation

/// A form the console refused, shown again on its own page: what was typed (passwords left
/// out), and the sentence beside the field it is about, or above the form when it names none.
struct FormDraft: Sendable {
    var fields: [String: String]
    var sentence: String
    /// The form field the sentence is about.
    var field: String?

    /// Fields never sent back into a page.
    static let secret: Set<String> = ["password", "passcode", "_csrf", "code"]

    init(_ fields: [String: String], sentence: String, field: String?) {
        self.fields = fields.filter { !Self.secret.contains($0.key) }
        self.sentence = Self.inWords(sentence)
        self.field = field.flatMap { fields.keys.contains($0) ? $0 : nil }
    }

    /// The field an API refusal is about: the one its code is about (`email_taken`), or the
    /// first word in single quotes of its sentence that is one of the form's fields ("'endsAt'
    /// must not be before 'startsAt'." is about `endsAt`).
    static func field(in sentence: String, code: String? = nil, of fields: [String: String]) -> String? {
        if let code, let field = codeFields[code], fields.keys.contains(field) { return field }
        let quoted = sentence.split(separator: "'", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return quoted.first { fields.keys.contains($0) }
    }

    /// The API's field names as a person reads them beside the field.
    static let words = [
        "name": "the name", "email": "the e-mail", "password": "the password", "startsAt": "the start",
        "endsAt": "the end", "timeZone": "the time zone", "offlineUnlockHours": "the offline unlock window",
        "walkInCapacity": "the walk-in places",
    ]

    /// An API sentence with its quoted field names in words ("'endsAt' must not be before
    /// 'startsAt'." is "The end must not be before the start.").
    static func inWords(_ sentence: String) -> String {
        var text = sentence
        for (field, word) in words {
            text = text.replacingOccurrences(of: "'\(field)'", with: word)
        }
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The API's error codes that are about one field.
    static let codeFields = ["email_taken": "email", "weak_passcode": "passcode"]

    /// Into a page's values: under `form` the typed values over `defaults`, the
    /// sentence by its field (`formErrors`), and `formError` when it names none.
    func apply(
        to values: inout [String: Any], defaults: [String: Any] = [:], form: String = "form",
        errors: String = "formErrors", formError: String = "formError"
    ) {
        values[form] = defaults.merging(fields) { _, typed in typed }
        if let field {
            values[errors] = [field: sentence]
        } else {
            values[formError] = sentence
        }
    }
}
