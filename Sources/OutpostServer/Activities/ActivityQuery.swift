import Foundation
import OutpostCore

/// What `GET /v1/activities` is asked for: filters (mentor, contact, a range of days), and a page
/// (`limit` after a cursor) or everything. Parsed from the query; pure.
struct ActivityQuery: Sendable, Equatable {
    var mentor: UserID?
    var contact: ContactID?
    /// First and last day, `YYYY-MM-DD`, inclusive.
    var from: String?
    var to: String?
    var limit: Int?
    /// Where the previous page ended (newest day first: its last day and id).
    var after: Cursor?
    var csv = false

    struct Cursor: Sendable, Equatable {
        var date: String
        var id: ActivityID

        /// The opaque text a client passes back.
        var token: String { Base64URL.encode(Array("\(date)|\(id.wire)".utf8)) }

        init(date: String, id: ActivityID) {
            self.date = date
            self.id = id
        }

        init?(token: String) {
            guard let bytes = Base64URL.decode(token), let decoded = String(validating: bytes, as: UTF8.self) else {
                return nil
            }
            let parts = decoded.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, ActivityDate.isValid(parts[0]), let id = ActivityID(wire: parts[1]) else {
                return nil
            }
            self.init(date: parts[0], id: id)
        }
    }

    static let largestPage = 1_000

    /// The query's parameters, or the sentence saying which one is wrong.
    static func parse(_ parameters: [String: String]) -> Result<ActivityQuery, QueryError> {
        var query = ActivityQuery()
        for (name, value) in parameters {
            switch name {
            case "mentor":
                guard let id = UserID(wire: value) else { return .failure(QueryError("'mentor' is a user id.")) }
                query.mentor = id
            case "contact":
                guard let id = ContactID(wire: value) else {
                    return .failure(QueryError("'contact' is a contact id."))
                }
                query.contact = id
            case "from", "to":
                guard ActivityDate.isValid(value) else {
                    return .failure(QueryError("'\(name)' is a day written YYYY-MM-DD."))
                }
                if name == "from" { query.from = value } else { query.to = value }
            case "limit":
                guard let limit = Int(value), (1...largestPage).contains(limit) else {
                    return .failure(QueryError("'limit' is between 1 and \(largestPage)."))
                }
                query.limit = limit
            case "after":
                guard let cursor = Cursor(token: value) else {
                    return .failure(QueryError("'after' is the 'next' of an earlier page."))
                }
                query.after = cursor
            case "format":
                guard value == "csv" || value == "json" else {
                    return .failure(QueryError("'format' is json (the default) or csv."))
                }
                query.csv = value == "csv"
            default:
                return .failure(QueryError("Unknown query parameter '\(name)'."))
            }
        }
        if let from = query.from, let to = query.to, from > to {
            return .failure(QueryError("'from' is on or before 'to'."))
        }
        if query.after != nil, query.limit == nil {
            return .failure(QueryError("'after' pages: give 'limit' with it."))
        }
        return .success(query)
    }

    struct QueryError: Error, Equatable {
        var sentence: String
        init(_ sentence: String) { self.sentence = sentence }
    }
}
