import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// One access type staff may add walk-ins to, with the places this device holds for it.
package struct WalkInChoice: Sendable, Hashable {
    package var accessType: AccessTypeInfo
    /// Places this device may still admit offline; nil: the type has no capacity (no limit).
    package var placesLeft: Int?
}

/// The Walk-Ins form (in front of the event shell): name, e-mail, access type, what was paid
/// and how, each access type with the places left on this device, and this shift's summary.
package struct WalkInFormScreen: ScreenModel {
    package var draft: WalkInDraft
    package var choices: [WalkInChoice]
    package var shift: WalkInShift?
    package var error: String?
    package var online: Bool

    package var identifier: String { UIIdentifier.walkInForm }

    /// The access type the form adds to: the chosen one, else the first.
    package var chosen: WalkInChoice? {
        choices.first { $0.accessType.id == draft.accessTypeId } ?? choices.first
    }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.walkInForm, "Add a walk-in: they are checked in at once"),
            UIElement(UIIdentifier.walkInName, draft.name, ["label": "Name"]),
            UIElement(UIIdentifier.walkInEmail, draft.email, ["label": "E-mail (optional)"]),
        ]
        for choice in choices {
            elements.append(
                UIElement(
                    UIIdentifier.walkInAccessType,
                    "\(choice.accessType.name): \(Self.places(choice.placesLeft, online: online))",
                    [
                        "accessTypeId": choice.accessType.id.wire,
                        "chosen": choice.accessType.id == chosen?.accessType.id ? "true" : "false",
                        "placesLeft": choice.placesLeft.map(String.init) ?? "unlimited",
                    ]))
        }
        elements.append(
            UIElement(
                UIIdentifier.walkInPayment,
                draft.amount.isEmpty
                    ? "Not paid" : "Paid \(draft.amount) \(draft.currency) by \(draft.method.rawValue)",
                ["amount": draft.amount, "currency": draft.currency, "method": draft.method.rawValue]))
        if let error { elements.append(UIElement(UIIdentifier.walkInError, error, ["kind": "error"])) }
        elements.append(UIElement(UIIdentifier.walkInSubmit, "Add and check in"))
        elements.append(UIElement(UIIdentifier.walkInCancel, "Cancel"))
        if let shift { elements += WalkInSummaryScreen.lines(shift) }
        return elements
    }

    /// "12 places left on this device", "no limit", or why there are none.
    package static func places(_ left: Int?, online: Bool) -> String {
        guard let left else { return "no limit" }
        if left > 0 { return "\(left) \(left == 1 ? "place" : "places") left on this device" }
        return online ? "no places left" : "no places left on this device: connect to get more"
    }
}

/// The end-of-shift summary of this device's walk-ins: how many, and the amounts by method.
package struct WalkInSummaryScreen: ScreenModel {
    package var shift: WalkInShift

    package var identifier: String { UIIdentifier.walkInSummary }

    package func elements() -> [UIElement] {
        [UIElement(UIIdentifier.walkInSummary, "This shift's walk-ins on this device")] + Self.lines(shift)
    }

    static func lines(_ shift: WalkInShift) -> [UIElement] {
        [
            UIElement(
                UIIdentifier.walkInShiftCount, "\(shift.walkIns) walk-in\(shift.walkIns == 1 ? "" : "s") this shift",
                ["count": String(shift.walkIns)])
        ]
            + shift.totals.map { total in
                let label =
                    total.method.map {
                        "\($0.rawValue): \(total.count) · \(WalkInPayment.decimal(total.amountMinor)) \(total.currency ?? "")"
                    }
                    ?? "not paid: \(total.count)"
                return UIElement(
                    UIIdentifier.walkInShiftTotal, label,
                    [
                        "method": total.method?.rawValue ?? "none", "currency": total.currency ?? "",
                        "count": String(total.count), "amountMinor": String(total.amountMinor),
                    ])
            }
    }
}

/// The green card after a walk-in was added (on the event shell).
package struct WalkInResultCard: ScreenPart {
    package var result: WalkInResult
    package var syncing: Bool

    package func elements() -> [UIElement] {
        var text = "\(result.guestName) added and checked in (\(result.accessTypeName))"
        if let left = result.placesLeft {
            text += " · \(left) \(left == 1 ? "place" : "places") left on this device"
        }
        return [
            UIElement(
                UIIdentifier.walkInAddedCard, text,
                [
                    "guestName": result.guestName, "placesLeft": result.placesLeft.map(String.init) ?? "unlimited",
                    "syncing": syncing ? "true" : "false",
                ])
        ]
    }
}
