/// A statement on a hot path (every check-in) that the database should compile once per
/// connection instead of on every call: PostgreSQL parses and plans it once per pooled connection
/// (planning was 1.2 ms of every check-in's 1.8 ms of statements, PERFORMANCE.md), SQLite keeps
/// its compiled form in the connection's statement cache.
///
/// A conforming type names one statement: its SQL (with `?` placeholders, like every statement
/// here) and the kind of each parameter, which PostgreSQL fixes when it parses the statement. A
/// bind of another kind is refused with ``PreparedSQLMismatch`` before anything is sent; `null`
/// fits any parameter.
public protocol PreparedSQL {
    static var sql: String { get }
    static var parameters: [SQLValue.Kind] { get }
}

extension PreparedSQL {
    /// The binds, checked against ``parameters``.
    static func checked(_ binds: [SQLValue]) throws -> [SQLValue] {
        guard binds.count == parameters.count else {
            throw PreparedSQLMismatch(statement: "\(Self.self)", detail: "\(binds.count) binds for \(parameters.count)")
        }
        for (index, (bind, kind)) in zip(binds, parameters).enumerated() {
            if let actual = bind.kind, actual != kind {
                throw PreparedSQLMismatch(
                    statement: "\(Self.self)", detail: "bind \(index + 1) is \(actual), not \(kind)")
            }
        }
        return binds
    }
}

/// A prepared statement called with binds that do not fit its parameters: a programming error,
/// reported instead of letting the database misread the bytes.
public struct PreparedSQLMismatch: Error, CustomStringConvertible {
    public let statement: String
    public let detail: String
    public var description: String { "prepared statement \(statement): \(detail)" }
}

extension SQLValue {
    /// The storage class of a bind; what a ``PreparedSQL`` parameter is declared as.
    public enum Kind: Sendable, CustomStringConvertible {
        case int
        case text
        case blob

        public var description: String {
            switch self {
            case .int: "int"
            case .text: "text"
            case .blob: "blob"
            }
        }
    }

    /// Nil for `null`, which fits any kind.
    public var kind: Kind? {
        switch self {
        case .null: nil
        case .int: .int
        case .text: .text
        case .blob: .blob
        }
    }
}
