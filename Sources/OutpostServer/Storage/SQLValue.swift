import Foundation

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
    static func date(_ value: Date) -> SQLValue { .int(value.millisecondsSince1970) }
    static func optionalDate(_ value: Date?) -> SQLValue { value.map(date) ?? .null }
    static func optionalText(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    static func bool(_ value: Bool) -> SQLValue { .int(value ? 1 : 0) }
}

/// A row of a result, read by column position.
public struct SQLRow: Sendable {
    public var values: [SQLValue]

    public init(_ values: [SQLValue]) { self.values = values }

    func int(_ index: Int) throws -> Int64 {
        guard case .int(let value) = values[index] else { throw SQLError.unexpectedValue(column: index, values[index]) }
        return value
    }

    func optionalInt(_ index: Int) throws -> Int64? {
        if case .null = values[index] { return nil }
        return try int(index)
    }

    func text(_ index: Int) throws -> String {
        guard case .text(let value) = values[index] else {
            throw SQLError.unexpectedValue(column: index, values[index])
        }
        return value
    }

    func optionalText(_ index: Int) throws -> String? {
        if case .null = values[index] { return nil }
        return try text(index)
    }

    func blob(_ index: Int) throws -> [UInt8] {
        guard case .blob(let value) = values[index] else {
            throw SQLError.unexpectedValue(column: index, values[index])
        }
        return value
    }

    func optionalBlob(_ index: Int) throws -> [UInt8]? {
        if case .null = values[index] { return nil }
        return try blob(index)
    }

    func uuid(_ index: Int) throws -> UUID {
        let string = try text(index)
        guard let value = UUID(uuidString: string) else { throw SQLError.unexpectedValue(column: index, values[index]) }
        return value
    }

    func optionalUUID(_ index: Int) throws -> UUID? {
        try optionalText(index).flatMap(UUID.init(uuidString:))
    }

    func date(_ index: Int) throws -> Date { Date(millisecondsSince1970: try int(index)) }

    func optionalDate(_ index: Int) throws -> Date? { try optionalInt(index).map(Date.init(millisecondsSince1970:)) }

    func bool(_ index: Int) throws -> Bool { try int(index) != 0 }
}

/// A failure of the SQL layer itself (not of a business rule).
public enum SQLError: Error, CustomStringConvertible {
    case unexpectedValue(column: Int, SQLValue)
    case migrationFailed(version: Int, name: String, underlying: any Error)
    case newerSchema(found: Int, known: Int)

    public var description: String {
        switch self {
        case .unexpectedValue(let column, let value): "unexpected value \(value) in column \(column)"
        case .migrationFailed(let version, let name, let underlying):
            "migration \(version) (\(name)) failed: \(underlying)"
        case .newerSchema(let found, let known):
            "the database has schema version \(found), newer than this server knows (\(known)); upgrade the server"
        }
    }
}
