import Foundation
import OutpostProtocol

/// The user's data rights (seed 003, "DataPrivacyScreen"): the consent they gave, "Export My
/// Data" (Art. 20), and "Withdraw Consent & Delete Account" (Art. 17), which warns first when
/// entries are still waiting to be sent.
package struct DataPrivacyScreen: ScreenModel {
    /// The user's consent, as the server last said.
    package var consent: ConsentRecord?
    package var pending: Int
    package var noun: ShellStatus.Noun
    package var warning: Bool
    package var message: String?
    package var copy: PrivacyCopy
    package var timeZone: String

    package var identifier: String { UIIdentifier.privacyScreen }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.privacyConsent,
                consent?.version.map {
                    copy.consent(version: $0, on: consent?.acceptedAt.map { TimeFormatting.day($0, timeZone) })
                } ?? copy.noConsent,
                consent?.version.map { version in
                    ["version": version].merging(
                        consent?.acceptedAt.map { ["acceptedAt": OutpostJSON.format($0)] } ?? [:],
                        uniquingKeysWith: { a, _ in a })
                } ?? [:])
        ]
        if let message { elements.append(UIElement(UIIdentifier.privacyMessage, message)) }
        elements.append(UIElement(UIIdentifier.privacyExport, copy.export))
        if warning && pending > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.privacyDeleteWarning,
                    copy.deleteWarning(pending, noun: noun),
                    ["pending": String(pending)]))
        }
        elements.append(
            UIElement(
                UIIdentifier.privacyDelete,
                warning && pending > 0 ? copy.deleteAnyway : copy.delete,
                ["destructive": "true"]))
        return elements
    }
}
