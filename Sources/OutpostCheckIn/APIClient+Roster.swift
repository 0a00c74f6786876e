import Foundation
import OutpostProtocol
import OutpostShell

extension APIClient {
    /// A roster page in the form the server answered (``RosterWire``): protobuf when the answer
    /// says so, JSON otherwise (a server without the compact form); either, unreadable, throws.
    public static func decodeRosterPage(_ response: TransportResponse) throws -> RosterPage {
        let protobuf = response.contentType?.lowercased().hasPrefix(RosterWire.protobufMediaType) == true
        guard protobuf, (200..<300).contains(response.status) else { return try decode(RosterPage.self, response) }
        do {
            return try RosterPage(protobuf: response.body)
        } catch {
            throw APIClientError.undecodable("RosterPage: \(error)")
        }
    }
}
