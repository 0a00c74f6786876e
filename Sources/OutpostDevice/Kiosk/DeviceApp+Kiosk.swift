import Foundation
import HummingbirdBcrypt
import OutpostCore
import OutpostProtocol

extension DeviceApp {
    /// How long an attendee's result stays before the clean welcome screen returns.
    static let kioskResultSeconds: TimeInterval = 5
    /// Taps on the exit corner must fall within this window.
    static let cornerTapWindow: TimeInterval = 3

    public var isKioskActive: Bool { kiosk.active }

    /// Staff set-up: saves the exit passcode and orientation through the server, which refuses
    /// weak passcodes (every broken rule is shown in words), then pulls the hash for offline exit.
    public func kioskSetUp(passcode: String, orientation: KioskOrientation) async {
        guard session != nil, let eventId = state.eventId else { return }
        kiosk.setupRules = []
        kiosk.setupMessage = nil
        do {
            let response = try await authorized(
                TransportRequest(
                    method: "PUT", path: "/v1/events/\(eventId)/kiosk", headers: ["Content-Type": "application/json"],
                    body: try OutpostJSON.encode(KioskSetupRequest(passcode: passcode, orientation: orientation))))
            switch response.status {
            case 204:
                kiosk.orientation = orientation
                kiosk.setupMessage = "Kiosk passcode saved."
                await syncRoster()
            case 422:
                let body = try? OutpostJSON.decode(ErrorBody.self, from: response.body)
                kiosk.setupRules = (body?.rules ?? []).compactMap(PasscodeRule.init(rawValue:))
                kiosk.setupMessage = "Choose another passcode."
            case 403:
                kiosk.setupMessage = "Only organizers and support staff can set up a kiosk."
            default:
                kiosk.setupMessage = "The server could not save the passcode (\(response.status))."
            }
        } catch {
            kiosk.setupMessage = "Setting up a kiosk needs the network."
        }
        persist()
    }

    /// Enters kiosk mode (iOS: after Guided Access locks the app). Needs a synced passcode hash,
    /// or staff could never leave offline.
    public func enterKiosk() {
        guard let store, let eventId = state.eventId else { return }
        guard (try? store.kiosk(eventId: eventId)) != nil else {
            kiosk.setupMessage = "Set a kiosk passcode first."
            persist()
            return
        }
        if let info = try? store.kiosk(eventId: eventId) { kiosk.orientation = info.orientation }
        kiosk.active = true
        kiosk.result = nil
        kiosk.exitPromptShown = false
        kiosk.cornerTaps = []
        kiosk.setupMessage = nil
        state.screen = .eventShell
        persist()
    }

    /// An attendee scanned a ticket at the kiosk.
    public func kioskCheckIn(ticket: String) async {
        guard kiosk.active, let store, let eventId = state.eventId, let event = currentEvent else { return }
        let keys = (try? store.ticketKeys(eventId: eventId)) ?? [:]
        let ticket = ScannedText.normalized(ticket)
        let payload = try? TicketCodec.verify(
            ticket,
            tenantId: UUID(wire: session?.user.tenantId ?? "") ?? UUID(),
            eventId: UUID(wire: event.id) ?? UUID(), keys: keys)
        let guest = payload.flatMap { try? store.guest(eventId: eventId, id: $0.guestId.lowercasedString) }
        await kioskAdmit(guest, ticket: ticket)
    }

    /// An attendee typed their e-mail at the kiosk.
    public func kioskCheckIn(email: String) async {
        guard kiosk.active, let store, let eventId = state.eventId else { return }
        let candidates = ((try? store.guests(eventId: eventId, email: email)) ?? []).filter(\.status.isAdmissible)
        let guest = candidates.first { $0.checkIn == nil } ?? candidates.first
        await kioskAdmit(guest, ticket: nil)
    }

    /// One outcome per attendee: welcome, a friendly already-checked-in, or one generic
    /// not-found for unknown, cancelled, revoked and other-event alike. The attendee UI never
    /// shows sync state; the check-in is committed locally and queued like any other.
    private func kioskAdmit(_ guest: LocalGuest?, ticket: String?) async {
        guard let store, let owner = sessionKeeper.userId else { return }
        let now = ports.clock.now()
        kiosk.exitPromptShown = false
        guard let guest, guest.status.isAdmissible else {
            kiosk.result = KioskResult(kind: .notFound, name: nil, shownAt: now)
            persist()
            return
        }
        let already = guest.checkIn != nil
        let request = CheckInRequest(
            guestId: guest.id, deviceId: deviceId, scannedAt: Date(millisecondsSince1970: now.millisecondsSince1970),
            method: .kiosk, ticket: ticket)
        // Already checked in: still sent, so the server audits kiosk_already_checked_in.
        _ = try? store.confirmCheckIn(
            guest: guest, request: request, byName: session?.user.name ?? "Kiosk", owner: owner, now: now)
        kiosk.result = KioskResult(
            kind: already ? .alreadyCheckedIn : .welcome, name: Self.firstName(guest.name), shownAt: now)
        invalidateIndex()
        persist()
        await replay(force: false)
        persist()
    }

    static func firstName(_ name: String) -> String {
        name.split(separator: " ").first.map(String.init) ?? name
    }

    /// A tap on the exit corner; the third within a few seconds shows the exit prompt.
    public func tapCorner() {
        guard kiosk.active else { return }
        let now = ports.clock.now()
        kiosk.cornerTaps = kiosk.cornerTaps.filter { now.timeIntervalSince($0) <= Self.cornerTapWindow } + [now]
        if kiosk.cornerTaps.count >= 3 {
            kiosk.exitPromptShown = true
            kiosk.cornerTaps = []
            kiosk.result = nil
        }
        persist()
    }

    /// Staff leave kiosk mode with the passcode, checked offline against the synced bcrypt hash.
    /// Three wrong passcodes lock the exit (60 s, then 300 s, then 600 s), across relaunches.
    public func exitKiosk(passcode: String) {
        guard kiosk.active, kiosk.exitPromptShown, let store, let eventId = state.eventId else { return }
        let hash = (try? store.kiosk(eventId: eventId))?.passcodeHash
        let outcome = kiosk.lockout.attempt(at: ports.clock.now()) {
            guard let hash else { return false }
            return Bcrypt.verify(passcode, hash: hash)
        }
        switch outcome {
        case .unlocked:
            kiosk.active = false
            kiosk.exitPromptShown = false
            kiosk.exitMessage = nil
            kiosk.result = nil
        case .wrong(let remaining):
            kiosk.exitMessage = "Wrong passcode. \(remaining) attempt\(remaining == 1 ? "" : "s") left."
        case .lockedOut, .stillLocked:
            kiosk.exitMessage = nil
        }
        persist()
    }

    /// Leaves the exit prompt without trying (back to the welcome screen).
    public func dismissExitPrompt() {
        kiosk.exitPromptShown = false
        kiosk.exitMessage = nil
        persist()
    }

    /// The attendee-facing tree: nothing of staff mode, nothing of the previous attendee once
    /// their result has timed out, no sync state.
    func kioskTree() -> UITree {
        let now = ports.clock.now()
        var elements: [UIElement] = []
        let orientation = ["orientation": kiosk.orientation.rawValue]
        let lockRemaining = kiosk.lockout.remaining(at: now)
        var screen = UIIdentifier.kioskWelcomeScreen
        if kiosk.exitPromptShown {
            screen = UIIdentifier.kioskExitPrompt
            elements.append(
                UIElement(UIIdentifier.kioskExitPrompt, "Staff: enter the kiosk passcode to exit.", orientation))
            if let message = kiosk.exitMessage { elements.append(UIElement(UIIdentifier.signInError, message)) }
        } else if let result = kiosk.result, now.timeIntervalSince(result.shownAt) < Self.kioskResultSeconds {
            let timing = ["dismissAfter": String(Int(Self.kioskResultSeconds))].merging(orientation) { $1 }
            switch result.kind {
            case .welcome:
                screen = UIIdentifier.kioskConfirmation
                elements.append(
                    UIElement(
                        UIIdentifier.kioskConfirmation, "Welcome, \(result.name ?? "")! You're checked in.", timing))
            case .alreadyCheckedIn:
                screen = UIIdentifier.kioskAlreadyCheckedInMessage
                elements.append(
                    UIElement(
                        UIIdentifier.kioskAlreadyCheckedInMessage, "You're already checked in. Have a great event!",
                        timing))
            case .notFound:
                screen = UIIdentifier.kioskEmailNotFoundMessage
                elements.append(
                    UIElement(
                        UIIdentifier.kioskEmailNotFoundMessage, "We can't find that email — please see staff.", timing))
            }
        } else {
            elements.append(
                UIElement(
                    UIIdentifier.kioskWelcomeScreen, "Welcome — please scan your QR or enter your email", orientation))
            if ports.camera() == .denied {
                elements.append(
                    UIElement(
                        UIIdentifier.kioskCameraFallbackBanner, "Camera unavailable — please use email entry below."))
            } else {
                elements.append(UIElement(UIIdentifier.kioskCamera, "Hold your ticket up to the camera"))
            }
            elements.append(
                UIElement(UIIdentifier.kioskEmailInput, "", ["placeholder": "Your e-mail", "keypad": "email"]))
        }
        if lockRemaining > 0 {
            // Whole seconds, not counting the sub-millisecond rounding of the stored time.
            let seconds = max(1, Int((lockRemaining - 0.001).rounded(.up)))
            elements.append(
                UIElement(
                    UIIdentifier.kioskExitLockoutBanner, "Too many wrong passcodes. Try again in \(seconds) s.",
                    ["seconds": String(seconds)]))
        }
        let battery = ports.battery()
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
        elements.append(UIElement(UIIdentifier.kioskExitCorner, "", ["taps": String(kiosk.cornerTaps.count)]))
        // The attendee UI carries no user, event or sync state.
        return UITree(screen: screen, elements: elements, online: ports.online, pending: 0, user: nil, event: nil)
    }

    /// The staff kiosk set-up elements on the event shell.
    func kioskSetUpElements() -> [UIElement] {
        guard let store, let eventId = state.eventId, let role = session?.user.role, role != .checkinStaff else {
            return []
        }
        let configured = (try? store.kiosk(eventId: eventId)) != nil
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
