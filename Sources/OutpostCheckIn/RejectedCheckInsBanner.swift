import OutpostCore
import OutpostShell

/// Check-ins the server refused for good: the guests, the reasons and what to do, shown until
/// staff dismiss them (never silently erased).
package struct RejectedCheckInsBanner: Sendable {
    package struct Entry: Sendable, Hashable {
        package var guestId: GuestID
        package var guestName: String?
        package var reason: String?
    }

    package var entries: [Entry]

    package func elements() -> [UIElement] {
        guard !entries.isEmpty else { return [] }
        let names = entries.map { "\($0.guestName ?? "a guest") (\($0.reason ?? "refused"))" }
        let count = entries.count
        return [
            UIElement(
                UIIdentifier.syncRejectedBanner,
                "\(count) check-in\(count == 1 ? " was" : "s were") refused by the server: "
                    + names.joined(separator: ", ")
                    + ". They are not checked in: check their tickets or ask the organizer, then dismiss.",
                [
                    "count": String(count),
                    "guestIds": entries.map(\.guestId.wire).joined(separator: ","),
                    "reasons": entries.compactMap(\.reason).joined(separator: ","),
                ])
        ]
    }
}
