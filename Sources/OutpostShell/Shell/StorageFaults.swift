import Foundation

/// Reads and writes of the device's store that failed after the app was running (a full disk, a
/// damaged page): each kept, in memory, so that none vanishes. The tree shows the latest as the
/// storage-fault banner until the next launch; tests read them here.
package struct StorageFaults: Sendable {
    package struct Fault: Sendable, Equatable {
        /// What the device could not do, in the user's words ("save this screen's state").
        package var what: String
        /// The store's error.
        package var error: String
    }

    /// The latest faults, oldest first (at most ``limit``).
    package private(set) var all: [Fault] = []
    static let limit = 20
    /// How many have been recorded since launch (a read that failed is not kept as read).
    package private(set) var recorded = 0

    mutating func record(_ what: String, _ error: any Error) {
        record(what, "\(error)")
    }

    mutating func record(_ what: String, _ error: String) {
        recorded += 1
        all.append(Fault(what: what, error: error))
        if all.count > Self.limit { all.removeFirst(all.count - Self.limit) }
    }

    /// The banner over every screen while there is a fault: what failed, that nothing confirmed
    /// was lost, what to do.
    var banner: UIElement? {
        guard let last = all.last else { return nil }
        return UIElement(
            UIIdentifier.storageFaultBanner,
            "This device could not \(last.what). Entries already saved are kept; "
                + "if this repeats, free some space or contact support.",
            ["count": String(all.count), "error": last.error])
    }
}
