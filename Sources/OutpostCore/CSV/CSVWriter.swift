/// Writes RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted (quotes doubled);
/// records end in CRLF. Spreadsheet-safe: a field starting with `=`, `+`, `-`, `@`, a tab or a
/// CR is prefixed with an apostrophe so a spreadsheet shows it as text and never runs it as a
/// formula (OWASP "CSV injection").
public enum CSVWriter {
    public static func document(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map(record).joined()
    }

    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    public static func field(_ value: String) -> String {
        var value = value
        if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
            value = "'" + value
        }
        guard value.unicodeScalars.contains(where: { [",", "\"", "\r", "\n"].contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
