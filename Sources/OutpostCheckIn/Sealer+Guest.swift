import Foundation
import OutpostShell

extension Sealer {
    /// Seals a guest in its compact binary form (``GuestCoding``).
    package func seal(guest: LocalGuest) throws -> Data {
        try seal(Data(GuestCoding.encode(guest)))
    }

    /// Opens a sealed guest, binary or (written by earlier versions) JSON.
    package func openGuest(_ box: Data) throws -> LocalGuest {
        try GuestCoding.decode(try open(box), json: decoder)
    }
}
