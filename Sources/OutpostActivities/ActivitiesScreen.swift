import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The mentor's home: their activities (newest day first), the register action, and what sync
/// has to say (synced, conflicts with both versions, refusals).
package struct ActivitiesScreen: ScreenModel {
    package struct Row: Hashable {
        package var activity: LocalActivity
        package var contactName: String
        package var syncing: Bool
    }

    package struct Failure: Hashable {
        package var activityId: ActivityID?
        package var reason: String
    }

    package var rows: [Row]
    package var saved: String?
    package var conflicts: [(record: ActivityConflictRecord, contactName: String)]
    package var failures: [Failure]
    package var error: String?

    package var identifier: String { UIIdentifier.activitiesScreen }

    package func elements() -> [UIElement] {
        var elements = ActivitiesTabs.elements
        if let saved { elements.append(UIElement(UIIdentifier.activitySaved, saved)) }
        if let error { elements.append(UIElement(UIIdentifier.activityError, error)) }
        for (record, name) in conflicts {
            let theirs = record.theirs
            let theirsText =
                theirs.deleted
                ? "deleted on the server"
                : "server: \(Self.describe(theirs.content, contactName: name)) (version \(theirs.version))"
            let mineText = record.mine.map { "yours: \(Self.describe($0, contactName: name))" } ?? "yours: deleted"
            var attributes = [
                "activityId": record.activityId.wire, "theirsVersion": String(theirs.version),
                "theirsDeleted": String(theirs.deleted), "mineDeleted": String(record.mine == nil),
            ]
            if let mine = record.mine { attributes["mineNotes"] = mine.notes }
            if !theirs.deleted { attributes["theirsNotes"] = theirs.notes }
            elements.append(
                UIElement(
                    UIIdentifier.activityConflict,
                    "Changed on the server while you were editing — \(mineText); \(theirsText). Keep yours or theirs?",
                    attributes))
        }
        if !failures.isEmpty {
            elements.append(
                UIElement(
                    UIIdentifier.activitySyncFailed,
                    "\(failures.count) \(failures.count == 1 ? "activity" : "activities") could not be synced: "
                        + failures.map(\.reason).joined(separator: "; ") + ". The others sync as usual.",
                    ["count": String(failures.count)]))
        }
        elements.append(UIElement(UIIdentifier.activityRegister, "Register activity"))
        for row in rows {
            let activity = row.activity
            elements.append(
                UIElement(
                    UIIdentifier.activityRow,
                    Self.describe(activity.content, contactName: row.contactName)
                        + (row.syncing ? " · waiting to sync" : ""),
                    [
                        "activityId": activity.id.wire, "contactId": activity.content.contactId.wire,
                        "type": activity.content.type.rawValue, "date": activity.content.date,
                        "durationMinutes": String(activity.content.durationMinutes),
                        "version": String(activity.version),
                        "syncing": String(row.syncing),
                    ]))
        }
        return elements
    }

    /// "N activities synced": a status line on every screen, once, after queued entries landed.
    package static func syncNotice(_ synced: Int) -> [UIElement] {
        guard synced > 0 else { return [] }
        return [
            UIElement(
                UIIdentifier.activitySyncNotice, "\(synced) \(synced == 1 ? "activity" : "activities") synced",
                ["count": String(synced)])
        ]
    }

    package static func describe(_ content: ActivityContent, contactName: String) -> String {
        "\(content.date) \(content.type.label) with \(contactName), \(content.durationMinutes) min"
            + (content.notes.isEmpty ? "" : " — \(content.notes)")
    }
}

/// The module's two tabs, on each of its screens.
package enum ActivitiesTabs {
    package static let elements = [
        UIElement(UIIdentifier.tabActivities, "Activities"), UIElement(UIIdentifier.tabContacts, "Contacts"),
    ]
}

extension ActivityType {
    package var label: String {
        switch self {
        case .visit: "visit"
        case .call: "call"
        case .outing: "outing"
        case .other: "activity"
        }
    }
}
