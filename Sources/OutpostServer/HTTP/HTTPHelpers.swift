import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

enum HTTPHelpers {
    /// The largest JSON body any route accepts.
    static let jsonLimit = 1 << 20

    /// Reads and decodes a JSON body; a missing, truncated or ill-typed body is a 400
    /// `invalid_request` that says what was wrong.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int = jsonLimit) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .payloadTooLarge, "The request body is larger than \(limit) bytes.")
        }
        guard buffer.readableBytes > 0 else { throw APIError.invalidRequest("The request needs a JSON body.") }
        let data = Data(buffer: buffer)
        if let field = nullField(data) {
            throw APIError.invalidRequest("The field '\(field)' is null; leave it out instead.")
        }
        do {
            return try OutpostJSON.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.invalidRequest(describe(error))
        } catch {
            throw APIError.invalidRequest("The body is not valid JSON.")
        }
    }

    /// The first field whose value is JSON `null`, anywhere in the body (`entries.0.note` for
    /// one inside an array), if any. Codable reads a null as "absent", but the API (openapi.yaml)
    /// has no nullable request fields, so a null is refused rather than silently ignored. Bodies
    /// without the word `null` skip the extra parse.
    static func nullField(_ data: Data) -> String? {
        guard data.range(of: Data("null".utf8)) != nil, let value = try? JSONSerialization.jsonObject(with: data)
        else { return nil }
        return firstNull(in: value, path: "")
    }

    private static func firstNull(in value: Any, path: String) -> String? {
        var children: [(String, Any)] = []
        if let object = value as? [String: Any] {
            children = object.keys.sorted().map { (path.isEmpty ? $0 : path + "." + $0, object[$0]!) }
        } else if let array = value as? [Any] {
            children = array.enumerated().map { (path.isEmpty ? String($0) : path + "." + String($0), $1) }
        }
        for (childPath, child) in children {
            if child is NSNull { return childPath }
            if let found = firstNull(in: child, path: childPath) { return found }
        }
        return nil
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let joined = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
                separator: ".")
            return joined.isEmpty ? "the body" : "'\(joined)'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "The field '\(key.stringValue)' is missing\(parent)."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "The field \(path(context)) has the wrong type."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "The body is not valid JSON." : "The field \(path(context)) has an invalid value."
        @unknown default:
            return "The body could not be read."
        }
    }

    /// A JSON response with the API's conventions.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        bytes(Array(try OutpostJSON.encode(value)), status: status)
    }

    static func bytes(
        _ body: [UInt8], status: HTTPResponse.Status, contentType: String = "application/json"
    ) -> Response {
        Response(
            status: status, headers: [.contentType: contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func nonEmpty(_ value: String, _ field: String) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw APIError.invalidRequest("The field '\(field)' must not be empty.", status: .unprocessableContent)
        }
        return trimmed
    }
}
