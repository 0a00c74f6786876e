import Foundation
import OutpostProtocol

/// The banners above every screen: the update notice, resume and roster progress, and, while
/// signed in, connectivity and the outbox (pending, damaged, other users' kept entries) plus
/// what the modules report.
package struct ShellStatus: Sendable {
    package var updatedWithPending: Int?
    package var resuming = false
    package var feedProgress: (feed: String, done: Int, total: Int)?
    package var signedIn = false
    package var online = true
    package var pending = 0
    package var quarantined = 0
    package var pendingForOtherUsers = 0
    /// When the cached data on screen was last refreshed from the server.
    package var lastUpdated: Date?
    /// What the pending entries are, in words (check-ins, activities, or entries when mixed).
    package var pendingNoun = Noun.entries

    /// A word with its plural.
    package struct Noun: Sendable, Hashable {
        package var one: String
        package var many: String

        package init(one: String, many: String) {
            self.one = one
            self.many = many
        }

        package func `for`(_ count: Int) -> String { count == 1 ? one : many }

        /// The shell's own word for what waits, when no module names it.
        package static let entries = Noun(one: "entry", many: "entries")
    }

    package func elements(modules: [UIElement]) -> [UIElement] {
        var elements: [UIElement] = []
        if let carried = updatedWithPending {
            elements.append(
                UIElement(
                    UIIdentifier.appUpdateBanner,
                    "Outpost was updated; \(carried) pending \(pendingNoun.for(carried)) carried over.",
                    ["pending": String(carried)]))
        }
        if resuming { elements.append(UIElement(UIIdentifier.resumeSkeleton, "Resuming…")) }
        if let progress = feedProgress {
            elements.append(
                UIElement(
                    UIIdentifier.rosterProgress, "Syncing \(progress.feed) \(progress.done)/\(progress.total)",
                    ["done": String(progress.done), "total": String(progress.total)]))
        }
        guard signedIn else { return elements }
        if !online { elements.append(offlineIndicator) }
        if pending > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.pendingSyncBanner, "\(pending) \(pendingNoun.for(pending)) waiting to sync",
                    ["pending": String(pending)]))
        }
        elements += modules
        if quarantined > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.syncQuarantinedBanner,
                    "\(quarantined) saved \(Noun.entries.for(quarantined)) could not be read and "
                        + "\(quarantined == 1 ? "was" : "were") set aside (kept on this device). Contact support.",
                    ["count": String(quarantined), "contact": "support"]))
        }
        if pendingForOtherUsers > 0 {
            let others = pendingForOtherUsers
            elements.append(
                UIElement(
                    UIIdentifier.pendingOtherUsersBanner,
                    "\(others) \(Noun.entries.for(others)) of another user will sync when they sign in again.",
                    ["pending": String(others)]))
        }
        return elements
    }

    /// The one offline indicator of every screen of every module: neutral words and tone (being
    /// offline is normal here, not an error), what is pending, and how fresh the saved data is.
    var offlineIndicator: UIElement {
        var attributes = ["pending": String(pending), "tone": "neutral"]
        var text = "Offline — \(pending) pending sync"
        if let lastUpdated {
            attributes["lastUpdated"] = OutpostJSON.format(lastUpdated)
            let zone = TimeZone.current.identifier
            text +=
                " · showing saved data, last updated \(TimeFormatting.day(lastUpdated, zone)) \(TimeFormatting.time(lastUpdated, zone))"
        }
        return UIElement(UIIdentifier.offlineBanner, text, attributes)
    }
}
