import Foundation
import OutpostProtocol

/// The kiosk module's actions, as the kiosk front-end and tests call them.
extension DeviceApp {
    var kioskModule: KioskModule? { module(KioskModule.self) }

    public var isKioskActive: Bool { kioskModule?.kiosk.active ?? false }

    /// Staff set-up of the exit passcode and orientation (through the server).
    public func kioskSetUp(passcode: String, orientation: KioskOrientation) async {
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

    /// A tap on the exit corner; the third within a few seconds shows the exit prompt.
    public func tapCorner() {
        perform { kioskModule?.tapCorner() }
    }

    /// Staff leave kiosk mode with the passcode (checked offline; wrong ones lock out).
    public func exitKiosk(passcode: String) {
        perform { kioskModule?.exit(passcode: passcode) }
    }

    /// Leaves the exit prompt without trying.
    public func dismissExitPrompt() {
        perform { kioskModule?.dismissExitPrompt() }
    }
}
