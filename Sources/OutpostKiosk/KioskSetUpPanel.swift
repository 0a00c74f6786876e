import OutpostShell

/// Staff kiosk set-up on the event shell (organizers and support staff only): the passcode,
/// the orientation lock, every rule a refused passcode broke, and the way in once configured.
package struct KioskSetUpPanel: ScreenPart, Sendable {
    package var configured: Bool
    package var kiosk: KioskState

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(
                UIIdentifier.kioskSetupPasscodeInput, "Kiosk passcode (6 digits)", ["configured": String(configured)]),
            UIElement(
                UIIdentifier.kioskSetupOrientationLock, kiosk.orientation.rawValue.capitalized,
                ["orientation": kiosk.orientation.rawValue]),
        ]
        for rule in kiosk.setupRules {
            elements.append(UIElement(UIIdentifier.kioskSetupRuleError, rule.explanation, ["rule": rule.rawValue]))
        }
        if let message = kiosk.setupMessage { elements.append(UIElement(UIIdentifier.kioskSetupRuleError, message)) }
        if configured { elements.append(UIElement(UIIdentifier.kioskEnterCTA, "Enter Kiosk Mode")) }
        return elements
    }
}
