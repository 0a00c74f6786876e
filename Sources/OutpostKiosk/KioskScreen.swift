import Foundation
import OutpostProtocol
import OutpostShell

/// The attendee-facing screen: nothing of staff mode, nothing of the previous attendee once
/// their result has timed out, no user, event or sync state.
package struct KioskScreen: ScreenModel, Sendable {
    /// How long an attendee's result stays before the clean welcome screen returns.
    package static let resultSeconds: TimeInterval = 5
    /// How long half-typed input stays without a keystroke before it is cleared: long enough
    /// for someone looking for their e-mail in their phone, short enough that the next attendee
    /// in a queue does not find it.
    package static let draftIdleSeconds: TimeInterval = 20

    package var kiosk: KioskState
    package var now: Date
    /// Seconds of exit lockout left (on the monotonic clock).
    package var lockRemaining: TimeInterval
    /// The unsubmitted input still shown (empty once idle).
    package var draft: String
    package var cameraDenied: Bool
    package var battery: Int

    package init(
        kiosk: KioskState, now: Date, lockRemaining: TimeInterval, draft: String, cameraDenied: Bool, battery: Int
    ) {
        self.kiosk = kiosk
        self.now = now
        self.lockRemaining = lockRemaining
        self.draft = draft
        self.cameraDenied = cameraDenied
        self.battery = battery
    }

    /// The screen shown: the exit prompt, the last attendee's result while it lasts, or the welcome.
    package var identifier: String {
        if kiosk.exitPromptShown { return UIIdentifier.kioskExitPrompt }
        return shownResult.map { Self.words($0).id } ?? UIIdentifier.kioskWelcomeScreen
    }

    /// The last attendee's result, while it is still shown (never over the exit prompt).
    private var shownResult: KioskResult? {
        guard !kiosk.exitPromptShown, let result = kiosk.result,
            now.timeIntervalSince(result.shownAt) < Self.resultSeconds
        else { return nil }
        return result
    }

    /// A result's identifier and words.
    private static func words(_ result: KioskResult) -> (id: String, text: String) {
        switch result.kind {
        case .welcome: (UIIdentifier.kioskConfirmation, "Welcome, \(result.name ?? "")! You're checked in.")
        case .alreadyCheckedIn:
            (UIIdentifier.kioskAlreadyCheckedInMessage, "You're already checked in. Have a great event!")
        case .notFound: (UIIdentifier.kioskEmailNotFoundMessage, "We can't find that email — please see staff.")
        case .notSaved:
            (UIIdentifier.kioskNotSavedMessage, "We couldn't record your check-in here — please see staff.")
        }
    }

    package func elements() -> [UIElement] {
        var elements: [UIElement] = []
        let orientation = ["orientation": kiosk.orientation.rawValue]
        if kiosk.exitPromptShown {
            elements.append(
                UIElement(UIIdentifier.kioskExitPrompt, "Staff: enter the kiosk passcode to exit.", orientation))
            if let message = kiosk.exitMessage { elements.append(UIElement(UIIdentifier.signInError, message)) }
            elements.append(
                UIElement(
                    UIIdentifier.kioskPasscodeInput, String(repeating: "•", count: draft.count),
                    ["length": String(draft.count)]))
        } else if let result = shownResult {
            let timing = ["dismissAfter": String(Int(Self.resultSeconds))].merging(orientation) { $1 }
            let (id, text) = Self.words(result)
            elements.append(UIElement(id, text, timing))
        } else {
            elements.append(
                UIElement(
                    UIIdentifier.kioskWelcomeScreen, "Welcome — please scan your QR or enter your email", orientation))
            if cameraDenied {
                elements.append(
                    UIElement(
                        UIIdentifier.kioskCameraFallbackBanner, "Camera unavailable — please use email entry below."))
            } else {
                elements.append(UIElement(UIIdentifier.kioskCamera, "Hold your ticket up to the camera"))
            }
            elements.append(
                UIElement(UIIdentifier.kioskEmailInput, draft, ["placeholder": "Your e-mail", "keypad": "email"]))
        }
        if lockRemaining > 0 {
            // Whole seconds, not counting the sub-millisecond rounding of the stored time.
            let seconds = max(1, Int((lockRemaining - 0.001).rounded(.up)))
            elements.append(
                UIElement(
                    UIIdentifier.kioskExitLockoutBanner, "Too many wrong passcodes. Try again in \(seconds) s.",
                    ["seconds": String(seconds)]))
        }
        if battery < 10 {
            elements.append(
                UIElement(
                    UIIdentifier.kioskBatteryCriticalBanner, "Battery \(battery)% — plug the kiosk in now.",
                    ["percent": String(battery), "size": "large"]))
        } else if battery < 20 {
            elements.append(
                UIElement(
                    UIIdentifier.kioskBatteryLowBanner, "Battery \(battery)%",
                    ["percent": String(battery), "size": "small"]))
        }
        if !kiosk.staffNotes.isEmpty {
            // A count for staff on a sweep; no name and no note reaches the attendee screen.
            elements.append(
                UIElement(
                    UIIdentifier.kioskStaffNotesWaiting, "● \(kiosk.staffNotes.count)",
                    ["count": String(kiosk.staffNotes.count), "size": "small"]))
        }
        elements.append(UIElement(UIIdentifier.kioskExitCorner, "", ["taps": String(kiosk.cornerTaps.count)]))
        return elements
    }
}
