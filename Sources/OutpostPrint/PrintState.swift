import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The print module's state, sealed and kept across launches: the paired printer (pairing
/// survives a relaunch, and a sign-out: the printer belongs to the device, not to a user), what
/// it last said, each event's badge layout as pulled, and the Print screen.
package struct PrintState: Codable, Sendable, Equatable {
    package var paired: PrinterInfo?
    package var status: PrinterStatus?
    /// By event id.
    package var layouts: [String: BadgeLayout] = [:]
    package var open = false
    package var discovered: [PrinterInfo] = []
    package var message: String?

    package init() {}
}
