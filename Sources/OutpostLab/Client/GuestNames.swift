import Foundation
import OutpostCore

/// Realistic, varied guest names for the demo, the bench and the soak: many languages,
/// diacritics and scripts, the same every run.
package enum GuestNames {
    static let first = [
        "Åse", "Bjørn", "Zoë", "José", "Chloé", "Søren", "Łukasz", "Antonín", "Nguyễn Văn", "Ayşe", "Mohammed", "Aarav",
        "Mei", "Olúwadámilọ́lá", "Siobhán", "Jürgen", "Noémie", "Grzegorz", "Eleni", "Kwame", "Yuki", "Ingrid", "Mateo",
        "Fatima", "Hannah", "Oliver", "Amélie", "Dagný", "Priya", "Tomás", "Leilani", "Rangi", "Ivan", "Anastasiya",
        "Sebastián", "Charlotte", "Emil", "Maja", "Nikolaj", "Zeynep", "Björk", "Ólafur", "Ngozi", "Thandiwe", "Kenji",
        "Sun-hee", "Rahul", "Lucía", "François", "Marie-Claire", "Seán", "Aoife", "Dmitri", "Jana", "Pål", "Kristín",
        "李", "Wei", "Chidi", "Esperanza",
    ]
    static let last = [
        "Nordmann", "Ødegård", "Ünal", "García", "Dubois", "Kierkegaard", "Wiśniewski", "Dvořák", "Trần", "Yılmaz",
        "Al-Farsi", "Sharma", "Chen", "Adébáyọ̀", "Ó Súilleabháin", "Müller", "Lefèvre", "Brzęczyszczykiewicz",
        "Papadopoulou", "Mensah", "Tanaka", "Johansson", "Rossi", "Haddad", "Schmidt", "Smith", "Moreau",
        "Sigurðardóttir",
        "Patel", "Ó Briain", "Kahananui", "Te Whiu", "Petrov", "Kovalenko", "Fernández", "Brontë", "Lindqvist", "Nowak",
        "Jørgensen", "Demir", "Guðmundsdóttir", "Okafor", "Dlamini", "Watanabe", "Kim", "Iyer", "López", "Lemaître",
        "Ní Bhraonáin", "Murphy", "Ivanov", "Horáková", "Støre", "Jónsdóttir", "王", "Zhang", "Eze", "Villanueva",
    ]
    static let notes = ["", "", "", "", "VIP", "wheelchair access", "vegetarian", "press", "speaker", "plus one"]

    /// `count` plainly numbered guests as an import CSV with its header: "Guest N",
    /// guestN@example.org, access type General, for tests that look guests up by number.
    package static func numberedCSV(count: Int) -> String {
        "name,email,access_type,notes\r\n"
            + (0..<count).map { "Guest \($0),guest\($0)@example.org,General,\r\n" }.joined()
    }

    /// `count` guests as CSV rows, the same every run.
    package static func csv(count: Int, accessTypes: [String]) -> String {
        csv(rows: 0..<count, accessTypes: accessTypes)
    }

    /// Rows `rows` of the same roster (a large roster is imported in parts; from 0 the same
    /// guests as ``csv(count:accessTypes:)``).
    /// `columns` are more columns (a guest field's label and its values, the row's index picking
    /// one in turn).
    package static func csv(
        rows range: Range<Int>, accessTypes: [String], columns: [(header: String, values: [String])] = []
    ) -> String {
        var random = SeededRandom(seed: 0x0D3_0500 &+ UInt64(range.lowerBound))
        var rows = [
            (["name", "email", "access_type", "notes"] + columns.map(\.header)).map(CSVWriter.field).joined(
                separator: ",")
        ]
        for index in range {
            let given = first.randomElement(using: &random)!
            let family = last.randomElement(using: &random)!
            let local = RosterMailbox.local(given + "." + family)
            let email = "\(local.isEmpty ? "guest" : local)\(index)@example.org"
            let type = index % 10 == 0 ? accessTypes.last! : accessTypes.first!
            let note = notes.randomElement(using: &random)!
            let extra = columns.map { column in
                "," + CSVWriter.field(column.values.isEmpty ? "" : column.values[index % column.values.count])
            }.joined()
            rows.append("\"\(given) \(family)\",\(email),\(type),\(note)" + extra)
        }
        return rows.joined(separator: "\r\n") + "\r\n"
    }
}

/// Turns a name into a plausible mailbox (ASCII letters and dots).
enum RosterMailbox {
    static func local(_ name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return String(
            folded.unicodeScalars.filter { $0.isASCII && (CharacterSet.lowercaseLetters.contains($0) || $0 == ".") }
                .map(Character.init))
    }
}
