import Foundation
import OutpostCore

/// A booth's leads as CSV, the one layout the server's export and the exhibitor's device both
/// write: captured, name and e-mail (only while shared; else the ticket's opaque id), rating,
/// notes, a column per question, who captured it, the version. Formula-safe (``CSVWriter``).
public enum LeadCSV {
    public struct Row: Sendable {
        public var content: LeadContent
        public var contact: SharedContact?
        public var capturedBy: String
        public var version: Int

        public init(content: LeadContent, contact: SharedContact?, capturedBy: String, version: Int) {
            self.content = content
            self.contact = contact
            self.capturedBy = capturedBy
            self.version = version
        }
    }

    /// `timestamp` writes the capture time (each side on its own clock format).
    public static func document(
        questions: [BoothQuestion], rows: [Row], timestamp: (Date) -> String
    ) -> String {
        let header =
            ["captured_at", "name", "email", "attendee_id", "rating", "notes"] + questions.map(\.text)
            + ["captured_by", "version"]
        return CSVWriter.document(
            header: header,
            rows: rows.map { row in
                [
                    timestamp(row.content.capturedAt), row.contact?.name ?? "", row.contact?.email ?? "",
                    row.contact == nil ? row.content.guestId.wire : "",
                    row.content.rating == 0 ? "" : String(row.content.rating), row.content.notes,
                ] + questions.map { row.content.answers[$0.key] ?? "" } + [row.capturedBy, String(row.version)]
            })
    }
}
