import Foundation
import OutpostCore

/// Which server addresses a device sends a staff password to. Over `http://` the password, the
/// tokens and the guest list would cross the venue's Wi-Fi in clear text, so a device signs in
/// only over `https://`, or over `http://` to this machine itself (loopback: a server on the
/// same laptop, the demo, the tests). A development switch allows plain HTTP anywhere.
public enum ServerAddress {
    /// Why an address is refused, as the sign-in screen says it; nil when it is accepted.
    public static func refusal(_ url: URL, allowingInsecureHTTP: Bool = false) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host,
            !host.isEmpty
        else {
            return "The server address must look like https://checkin.example.org."
        }
        if scheme == "https" || allowingInsecureHTTP || Loopback.contains(host) { return nil }
        return
            "The server address uses http://, which would send your password unencrypted; use its https:// address."
    }
}
