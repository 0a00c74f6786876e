import Foundation
import OutpostCore
import OutpostShell

/// The index's buffer is its snapshot: a launch opens the sealed bytes and searches them as they
/// are, without unsealing, folding or sorting the roster again, and without making a string per
/// guest (cold open at 100,000 guests was 800 ms when it rebuilt, and the decoded snapshot of
/// 1,000,000 guests held 655 bytes a guest in memory).
///
/// The store seals the bytes with the roster version they were built from; a snapshot whose
/// version is not the roster's is not opened (``ModuleStore/rosterIndexSnapshot(eventId:)``).
/// A snapshot of an earlier layout (tag `0x01`) is refused by its tag and built again.
extension RosterIndex {
    /// The bytes of the index with its changes folded in (``merged()``).
    package func snapshot() -> [UInt8] { merged().layout.bytes }

    /// Opens ``snapshot()``'s bytes; damaged or foreign bytes throw ``ByteLayout/Failure``.
    package init(snapshot bytes: [UInt8]) throws {
        self.init(layout: try RosterIndexLayout(bytes: bytes))
    }

    package init(snapshot data: Data) throws {
        try self.init(snapshot: [UInt8](data))
    }
}
