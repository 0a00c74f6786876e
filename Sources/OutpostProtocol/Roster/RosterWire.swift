import Foundation

/// The roster's two wire forms, and which one a client's `Accept` header asks for. JSON is the
/// default for every client; the compact form (Protos/outpost/v1/roster.proto) only when asked.
public enum RosterWire: Sendable, Equatable {
    case json
    case protobuf

    public static let jsonMediaType = "application/json"
    public static let protobufMediaType = "application/x-protobuf"
    /// What a device asks for: the compact form, else JSON (a server without the compact form,
    /// or one in front of which a proxy rewrote the answer, still answers in JSON).
    public static let deviceAccept = "application/x-protobuf, application/json;q=0.5"

    /// The form for an `Accept` header, by RFC 9110's rules: each media range's `q` (1 when
    /// absent), the most specific range that matches a form deciding its weight. Protobuf only
    /// when the client names it and weighs it at least as much as JSON; JSON for no header,
    /// `*/*`, `application/json`, anything unreadable or nothing acceptable.
    public static func negotiate(accept: String?) -> RosterWire {
        guard let accept, !accept.isEmpty else { return .json }
        // Weights by specificity: 2 an exact type, 1 `application/*`, 0 `*/*`.
        var protobuf: [Int: Double] = [:]
        var json: [Int: Double] = [:]
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first, !type.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = min(max(Double(parameter.dropFirst(2)) ?? 0, 0), 1)
            }
            switch type {
            case protobufMediaType: protobuf[2] = max(protobuf[2] ?? 0, weight)
            case jsonMediaType: json[2] = max(json[2] ?? 0, weight)
            case "application/*", "*/*":
                let specificity = type == "*/*" ? 0 : 1
                protobuf[specificity] = max(protobuf[specificity] ?? 0, weight)
                json[specificity] = max(json[specificity] ?? 0, weight)
            default: continue
            }
        }
        func weight(_ ranges: [Int: Double]) -> Double { ranges[2] ?? ranges[1] ?? ranges[0] ?? 0 }
        // Only a client that names the compact form gets it: `*/*` alone keeps JSON.
        guard protobuf[2] != nil else { return .json }
        return weight(protobuf) > 0 && weight(protobuf) >= weight(json) ? .protobuf : .json
    }
}
