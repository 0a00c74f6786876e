import Foundation
import OutpostProtocol

/// The banners above every screen: the update notice, resume and roster progress, and, while
/// signed in, connectivity and the outbox (pending, damaged, other users' kept entries) plus
/// what the modules report.
struct ShellStatus: Sendable {
    var updatedWithPending: Int?
    var resuming = false
    var rosterProgress: (done: Int, total: Int)?
    var signedIn = false
    var online = true
    var pending = 0
    var quarantined = 0
    var pendingForOtherUsers = 0
    /// When the cached data on screen was last refreshed from the server.
    var lastUpdated: Date?
    /// What the pending entries are, in words (check-ins, activities, or entries when mixed).
    var pendingNoun = Noun(one: "check-in", many: "check-ins")

    /// A word with its plural.
    struct Noun: Sendable, Hashable {
        var one: String
        var many: String

        func `for`(_ count: Int) -> String { count == 1 ? one : many }
    }

    func elements(modules: [UIElement]) -> [UIElement] {
        var elements: [UIElement] = []
        if let carried = updatedWithPending {
            elements.append(
                UIElement(
                    UIIdentifier.appUpdateBanner, "Outpost was updated; \(carried) pending check-ins carried over.",
                    ["pending": String(carried)]))
        }
        if resuming { elements.append(UIElement(UIIdentifier.resumeSkeleton, "Resuming…")) }
        if let progress = rosterProgress {
            elements.append(
                UIElement(
                    UIIdentifier.rosterProgress, "Syncing roster \(progress.done)/\(progress.total)",
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
                    "\(quarantined) saved check-in\(quarantined == 1 ? "" : "s") could not be read and "
                        + "\(quarantined == 1 ? "was" : "were") set aside (kept on this device). Contact support.",
                    ["count": String(quarantined), "contact": "support"]))
        }
        if pendingForOtherUsers > 0 {
            let others = pendingForOtherUsers
            elements.append(
                UIElement(
                    UIIdentifier.pendingOtherUsersBanner,
                    "\(others) check-in\(others == 1 ? "" : "s") of another user will sync when they sign in again.",
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
