import HTTPTypes
import Hummingbird
import NIOCore
import OutpostCore

/// Who is on the other end of a request, for the per-address sign-in limit and the private
/// `/metrics`: the socket's peer, unless that peer is a configured trusted proxy, in which case
/// the nearest address in `X-Forwarded-For` the trusted proxies did not add.
///
/// `X-Forwarded-For` is a list each proxy appends its peer to, so only its right end is
/// trustworthy: walking from the right, the addresses of trusted proxies are skipped and the
/// first other one is the client. A client can put anything at the left end; it is never read
/// while an untrusted address stands to its right. From a peer that is not a trusted proxy the
/// header is ignored entirely.
enum ClientAddress {
    /// nil when the peer has no IP address (a Unix socket, an in-process test client).
    static func resolve(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String? {
        guard let peer, trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for hop in hops.reversed() where !trustedProxies.contains(hop) { return hop }
        return hops.first ?? peer
    }

    /// Whether an address is this machine (loopback, IPv4 or IPv6, or a Unix socket's nil).
    static func isLoopback(_ ip: String?) -> Bool {
        guard let ip else { return true }  // Unix sockets are local.
        return Loopback.contains(ip)
    }
}

extension Request {
    /// Whether a proxy says it forwarded this request (`X-Forwarded-For` or `Forwarded`).
    var isForwarded: Bool {
        headers[.xForwardedFor] != nil || headers[.forwarded] != nil
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwarded = HTTPField.Name("Forwarded")!
}

extension AppRequestContext {
    /// The client's address as ``ClientAddress`` resolves it for `request`.
    func clientAddress(of request: Request, trustedProxies: Set<String>) -> String? {
        ClientAddress.resolve(
            peer: remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor],
            trustedProxies: trustedProxies)
    }
}
