import Foundation

/// An IPP message (RFC 8010's encoding): a request the print client builds, or the printer's
/// response decoded. Only what badge printing uses: integers, enums, booleans and strings; any
/// other value is kept as its bytes. Pure.
struct IPPMessage: Sendable, Equatable {
    /// Delimiter tags: the attribute groups.
    enum Group: UInt8, Sendable {
        case operation = 0x01
        case job = 0x02
        case printer = 0x04
        case unsupported = 0x05
    }

    /// Value tags (RFC 8010 §3.5.2) the client writes or reads.
    enum ValueTag: UInt8, Sendable {
        case integer = 0x21
        case boolean = 0x22
        case enumeration = 0x23
        case text = 0x41
        case name = 0x42
        case keyword = 0x44
        case uri = 0x45
        case charset = 0x47
        case language = 0x48
        case mimeType = 0x49
    }

    enum Value: Sendable, Equatable {
        case int(Int32)
        case bool(Bool)
        case string(String)
        case bytes(UInt8, Data)

        var int: Int? { if case .int(let value) = self { Int(value) } else { nil } }
        var string: String? { if case .string(let value) = self { value } else { nil } }
    }

    struct Attribute: Sendable, Equatable {
        var tag: UInt8
        var name: String
        var values: [Value]
    }

    static let printJob: UInt16 = 0x0002
    static let getJobs: UInt16 = 0x000A
    static let getPrinterAttributes: UInt16 = 0x000B
    static let resumePrinter: UInt16 = 0x0011

    /// The operation (a request) or the status code (a response).
    var code: UInt16
    var requestId: Int32
    var groups: [(group: UInt8, fields: [Attribute])]
    /// A Print-Job's document, after the attributes.
    var document = Data()

    static func == (lhs: IPPMessage, rhs: IPPMessage) -> Bool {
        lhs.code == rhs.code && lhs.requestId == rhs.requestId && lhs.document == rhs.document
            && lhs.groups.map(\.group) == rhs.groups.map(\.group)
            && lhs.groups.map(\.fields) == rhs.groups.map(\.fields)
    }

    /// A request with the operation attributes every request starts with (charset, language,
    /// the printer's URI, the user), then `operation`'s own and the job group's.
    static func request(
        _ code: UInt16, id: Int32, printer: String, user: String, operation: [Attribute] = [], job: [Attribute] = [],
        document: Data = Data()
    ) -> IPPMessage {
        var groups: [(group: UInt8, fields: [Attribute])] = [
            (
                Group.operation.rawValue,
                [
                    Attribute(tag: ValueTag.charset.rawValue, name: "attributes-charset", values: [.string("utf-8")]),
                    Attribute(
                        tag: ValueTag.language.rawValue, name: "attributes-natural-language", values: [.string("en")]),
                    Attribute(tag: ValueTag.uri.rawValue, name: "printer-uri", values: [.string(printer)]),
                    Attribute(tag: ValueTag.name.rawValue, name: "requesting-user-name", values: [.string(user)]),
                ] + operation
            )
        ]
        if !job.isEmpty { groups.append((Group.job.rawValue, job)) }
        return IPPMessage(code: code, requestId: id, groups: groups, document: document)
    }

    static func keyword(_ name: String, _ values: String...) -> Attribute {
        Attribute(tag: ValueTag.keyword.rawValue, name: name, values: values.map(Value.string))
    }

    /// The bytes on the wire (IPP/2.0).
    func encoded() -> Data {
        var data = Data([2, 0])
        data.append(contentsOf: code.bigEndianBytes)
        data.append(contentsOf: UInt32(bitPattern: requestId).bigEndianBytes)
        for (group, attributes) in groups {
            data.append(group)
            for attribute in attributes {
                for (index, value) in attribute.values.enumerated() {
                    let (tag, bytes): (UInt8, Data) =
                        switch value {
                        case .int(let number): (attribute.tag, Data(UInt32(bitPattern: number).bigEndianBytes))
                        case .bool(let flag): (attribute.tag, Data([flag ? 1 : 0]))
                        case .string(let text): (attribute.tag, Data(text.utf8))
                        case .bytes(let tag, let raw): (tag, raw)
                        }
                    data.append(tag)
                    // Additional values of a multi-valued attribute have an empty name.
                    let name = index == 0 ? Data(attribute.name.utf8) : Data()
                    data.append(contentsOf: UInt16(name.count).bigEndianBytes)
                    data.append(name)
                    data.append(contentsOf: UInt16(bytes.count).bigEndianBytes)
                    data.append(bytes)
                }
            }
        }
        data.append(0x03)
        data.append(document)
        return data
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// A response from its bytes; throws ``Malformed`` for anything that is not IPP.
    static func decode(_ data: Data) throws -> IPPMessage {
        let bytes = [UInt8](data)
        var offset = 0
        func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, offset + count <= bytes.count else { throw Malformed(description: "cut short") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
        func number(_ count: Int) throws -> UInt32 { try take(count).reduce(0) { $0 << 8 | UInt32($1) } }
        guard bytes.count >= 9, bytes[0] == 1 || bytes[0] == 2 else { throw Malformed(description: "not IPP") }
        offset = 2
        var message = IPPMessage(
            code: UInt16(try number(2)), requestId: Int32(bitPattern: try number(4)), groups: [])
        var group: UInt8?
        var attributes: [Attribute] = []
        while true {
            let tag = try take(1).first!
            if tag <= 0x0F {
                if let group { message.groups.append((group, attributes)) }
                attributes = []
                if tag == 0x03 {
                    message.document = Data(bytes[offset...])
                    return message
                }
                group = tag
                continue
            }
            let name = String(decoding: try take(Int(try number(2))), as: UTF8.self)
            let raw = Data(try take(Int(try number(2))))
            let value: Value =
                switch tag {
                case ValueTag.integer.rawValue, ValueTag.enumeration.rawValue:
                    raw.count == 4 ? .int(Int32(bitPattern: raw.reduce(0) { $0 << 8 | UInt32($1) })) : .bytes(tag, raw)
                case ValueTag.boolean.rawValue: .bool(raw.first == 1)
                case 0x41...0x49: .string(String(decoding: raw, as: UTF8.self))
                default: .bytes(tag, raw)
                }
            if name.isEmpty, !attributes.isEmpty {
                attributes[attributes.count - 1].values.append(value)
            } else {
                attributes.append(Attribute(tag: tag, name: name, values: [value]))
            }
        }
    }

    /// The attributes of every group of `kind`, each group apart (Get-Jobs answers one per job).
    func groups(_ kind: Group) -> [[String: [Value]]] {
        groups.filter { $0.group == kind.rawValue }.map { group in
            Dictionary(group.fields.map { ($0.name, $0.values) }) { first, _ in first }
        }
    }

    /// RFC 8011's successful-ok range.
    var succeeded: Bool { code < 0x0100 }
}

extension FixedWidthInteger {
    fileprivate var bigEndianBytes: [UInt8] {
        withUnsafeBytes(of: self.bigEndian) { Array($0) }
    }
}
