import Foundation
import OutpostCheckIn
import OutpostProtocol
import OutpostShell

/// The kiosk module's actions, as the kiosk front-end and tests call them.
extension DeviceApp {
    package var kioskModule: KioskModule? { module(KioskModule.self) }

    public var isKioskActive: Bool { kioskModule?.kiosk.active ?? false }

    /// Staff set-up of the exit passcode and orientation (through the server).
    public func kioskSetUp(passcode: String, orientation: KioskOrientation) async {
        clearRefusal()
        await kioskModule?.setUp(passcode: passcode, orientation: orientation)
        commit()
    }

    /// Enters kiosk mode (needs a synced passcode hash).
    public func enterKiosk() {
        perform { kioskModule?.enter() }
    }

    /// An attendee scanned a ticket at the kiosk.
    public func kioskCheckIn(ticket: String) async {
        guard let kiosk = kioskModule, kiosk.kiosk.active else { return }
        let (guest, normalized) = kiosk.guest(ticket: ticket)
        await kioskAdmit(guest, ticket: normalized)
    }

    /// An attendee typed their e-mail at the kiosk.
    public func kioskCheckIn(email: String) async {
        guard let kiosk = kioskModule, kiosk.kiosk.active else { return }
        await kioskAdmit(kiosk.guest(email: email), ticket: nil)
    }

    private func kioskAdmit(_ guest: LocalGuest?, ticket: String?) async {
        var queued = false
        perform { queued = kioskModule?.admit(guest, ticket: ticket) ?? false }
        guard queued else { return }
        await replay(force: false)
        commit()
    }

    /// Staff have seen the notes of the kiosk's check-ins (the staff view's list is cleared).
    public func clearKioskStaffNotes() {
        perform { kioskModule?.clearStaffNotes() }
    }

    /// A tap on the exit corner; the third within a few seconds shows the exit prompt.
    public func tapCorner() {
        perform { kioskModule?.tapCorner() }
    }

    /// Staff leave kiosk mode with the passcode (checked offline; wrong ones lock out).
    public func exitKiosk(passcode: String) {
        perform { kioskModule?.exit(passcode: passcode) }
    }

    /// Seconds without a keystroke after which half-typed kiosk input is cleared (default 20).
    public var kioskDraftIdleSeconds: TimeInterval {
        get { kioskModule?.draftIdleSeconds ?? 20 }
        set { kioskModule?.draftIdleSeconds = newValue }
    }

    /// Keys typed at the kiosk (the e-mail, or the passcode on the exit prompt). Half-typed
    /// input is cleared after ``kioskDraftIdleSeconds`` without a keystroke, on screen and for
    /// the next keystroke.
    public func kioskType(_ text: String) {
        perform { kioskModule?.type(text) }
    }

    public func kioskDeleteBackward() {
        perform { kioskModule?.deleteBackward() }
    }

    /// The typed input, trimmed, for submitting; the field is empty afterwards.
    public func kioskTakeDraft() -> String {
        var draft = ""
        perform { draft = kioskModule?.takeDraft() ?? "" }
        return draft
    }

    /// Clears the typed input.
    public func kioskClearDraft() {
        perform { kioskModule?.clearDraft() }
    }

    /// Leaves the exit prompt without trying.
    public func dismissExitPrompt() {
        perform { kioskModule?.dismissExitPrompt() }
    }
}
