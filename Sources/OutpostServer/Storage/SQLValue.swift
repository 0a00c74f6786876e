import Foundation
import OutpostCore

/// A value bound to or read from SQL, in the four storage classes both SQLite and PostgreSQL
/// share here (booleans are stored as integers, timestamps as milliseconds since 1970).
public enum SQLValue: Sendable, Hashable {
    case null
    case int(Int64)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue {
    static func uuid(_ value: UUID) -> SQLValue { .text(value.lowercasedString) }
    static func optionalUUID(_ value: UUID?) -> SQLValue { value.map(uuid) ?? .null }
    static func id<Kind>(_ value: TypedID<Kind>) -> SQLValue { .text(value.wire) }
    static func date(_ value: Date) -> SQLValue { .int(value.millisecondsSince1970) }
    static func optionalDate(_ value: Date?) -> SQLValue { value.map(date) ?? .null }
    static func optionalText(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    static func bool(_ value: Bool) -> SQLValue { .int(value ? 1 : 0) }
}

/// A row of a result, read by column name (as the query's SELECT names or aliases them), so a
/// reordered SELECT cannot silently read the wrong column.
public struct SQLRow: Sendable {
    public var columns: [String]
    public var values: [SQLValue]

    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of column `name`; throws when the query has no such column.
    public func value(_ name: String) throws -> SQLValue {
        guard let index = columns.firstIndex(of: name) else { throw SQLError.noSuchColumn(name) }
        return values[index]
    }

    func int(_ name: String) throws -> Int64 {
        let value = try value(name)
        guard case .int(let int) = value else { throw SQLError.unexpectedValue(column: name, value) }
        return int
    }

    func optionalInt(_ name: String) throws -> Int64? {
        if case .null = try value(name) { return nil }
        return try int(name)
    }

    func text(_ name: String) throws -> String {
        let value = try value(name)
        guard case .text(let text) = value else { throw SQLError.unexpectedValue(column: name, value) }
        return text
    }

    func optionalText(_ name: String) throws -> String? {
        if case .null = try value(name) { return nil }
        return try text(name)
    }

    func blob(_ name: String) throws -> [UInt8] {
        let value = try value(name)
        guard case .blob(let blob) = value else { throw SQLError.unexpectedValue(column: name, value) }
        return blob
    }

    func optionalBlob(_ name: String) throws -> [UInt8]? {
        if case .null = try value(name) { return nil }
        return try blob(name)
    }

    func uuid(_ name: String) throws -> UUID {
        guard let uuid = UUID(uuidString: try text(name)) else {
            throw SQLError.unexpectedValue(column: name, try value(name))
        }
        return uuid
    }

    func optionalUUID(_ name: String) throws -> UUID? {
        guard try optionalText(name) != nil else { return nil }
        return try uuid(name)
    }

    /// A typed id; a value that is not a UUID is an error, never a made-up id.
    func id<Kind>(_ name: String, as type: TypedID<Kind>.Type = TypedID<Kind>.self) throws -> TypedID<Kind> {
        TypedID(try uuid(name))
    }

    func optionalID<Kind>(_ name: String, as type: TypedID<Kind>.Type = TypedID<Kind>.self) throws -> TypedID<Kind>? {
        try optionalUUID(name).map(TypedID.init)
    }

    func date(_ name: String) throws -> Date { Date(millisecondsSince1970: try int(name)) }

    func optionalDate(_ name: String) throws -> Date? { try optionalInt(name).map(Date.init(millisecondsSince1970:)) }

    func bool(_ name: String) throws -> Bool { try int(name) != 0 }

    /// A text column holding one of `T`'s raw values; anything else is a damaged row.
    func enumeration<T: RawRepresentable>(_ name: String, as type: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try text(name)) else {
            throw SQLError.unexpectedValue(column: name, try value(name))
        }
        return value
    }
}

/// A failure of the SQL layer itself (not of a business rule).
public enum SQLError: Error, CustomStringConvertible {
    case unexpectedValue(column: String, SQLValue)
    case noSuchColumn(String)
    case migrationFailed(version: Int, name: String, underlying: any Error)
    case newerSchema(found: Int, known: Int)

    public var description: String {
        switch self {
        case .unexpectedValue(let column, let value): "unexpected value \(value) in column \(column)"
        case .noSuchColumn(let name): "the query has no column \(name)"
        case .migrationFailed(let version, let name, let underlying):
            "migration \(version) (\(name)) failed: \(underlying)"
        case .newerSchema(let found, let known):
            "the database has schema version \(found), newer than this server knows (\(known)); upgrade the server"
        }
    }
}
