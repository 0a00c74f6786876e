/// The user's data rights (seed 003, "DataPrivacyScreen"): the consent they gave, "Export My
/// Data" (Art. 20), and "Withdraw Consent & Delete Account" (Art. 17), which warns first when
/// entries are still waiting to be sent.
struct DataPrivacyScreen: ScreenModel {
    var consentVersion: String?
    var pending: Int
    var noun: ShellStatus.Noun
    var warning: Bool
    var message: String?

    var identifier: String { UIIdentifier.privacyScreen }

    func elements() -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.privacyConsent,
                consentVersion.map { "Terms of Service and Privacy Policy accepted (version \($0))" }
                    ?? "No consent recorded on this device",
                consentVersion.map { ["version": $0] } ?? [:])
        ]
        if let message { elements.append(UIElement(UIIdentifier.privacyMessage, message)) }
        elements.append(UIElement(UIIdentifier.privacyExport, "Export My Data"))
        if warning && pending > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.privacyDeleteWarning,
                    "\(pending) \(noun.for(pending)) \(pending == 1 ? "is" : "are") still waiting to be sent and will be lost. Delete your account anyway?",
                    ["pending": String(pending)]))
        }
        elements.append(
            UIElement(
                UIIdentifier.privacyDelete,
                warning && pending > 0 ? "Delete anyway" : "Withdraw Consent & Delete Account",
                ["destructive": "true"]))
        return elements
    }
}
