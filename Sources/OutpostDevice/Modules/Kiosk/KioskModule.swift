import Foundation
import HummingbirdBcrypt
import OutpostCore
import OutpostProtocol

/// The kiosk module (seed 002): staff set it up with a passcode, attendees check themselves in
/// by ticket or e-mail, and staff leave only with the passcode, checked offline. Its check-ins
/// go through the check-in module (same outbox kind, method `kiosk`); its passcode hash comes
/// with the check-in module's roster feed.
@MainActor
final class KioskModule: DeviceModule {
    static let name = "kiosk"
    /// The kiosk's synced settings live in the roster's sync state (foundation migration v1).
    static let migrations: [DeviceMigration] = []
    /// Taps on the exit corner must fall within this window.
    static let cornerTapWindow: TimeInterval = 3

    unowned let shell: DeviceApp
    private let store: DeviceStore
    var kiosk = KioskState()
    /// A passcode hash is synced for the open event (rebuilt by ``reload()``).
    private var configured: KioskInfo?
    /// The guard record was merged into the restored state (on the first save after launch).
    private var guardMerged = false
    /// Seconds without a keystroke after which half-typed input is cleared.
    var draftIdleSeconds = KioskScreen.draftIdleSeconds
    private var lastGuard: KioskGuard?

    init(shell: DeviceApp) {
        self.shell = shell
        self.store = shell.store!
    }

    var outboxHandlers: [any OutboxEntryHandler] { [] }

    func pull(event: EventInfo) async throws {}

    func reload() {
        configured = shell.eventId.flatMap { try? store.kiosk(eventId: $0) }
    }

    var tabs: [UIElement] { [] }

    /// Kiosk mode holds the device from entry until the passcode exits it.
    var holdsDevice: Bool { kiosk.active && shell.session != nil && shell.eventId != nil }

    func takeover(now: Date) -> UITree? {
        guard holdsDevice else { return nil }
        return KioskScreen(
            kiosk: kiosk, now: now, lockRemaining: kiosk.lockout.remaining(at: shell.ports.monotonic.now()),
            draft: currentDraft(at: now),
            cameraDenied: shell.ports.camera() == .denied, battery: shell.ports.battery()
        ).tree(online: shell.ports.online)
    }

    var frontScreen: (screen: String, elements: [UIElement])? { nil }

    var eventShellElements: [UIElement] {
        guard let role = shell.session?.user.role, role == .organizer || role == .support else { return [] }
        return KioskSetUpPanel(configured: configured != nil, kiosk: kiosk).elements()
    }

    var statusElements: [UIElement] { [] }

    func eventChanged() {}

    func clearTransient() {}

    func sessionEnded() { kiosk = KioskState() }

    func saveState() throws -> Data {
        if !guardMerged {
            guardMerged = true
            mergeGuard()
        }
        writeGuard()
        return try JSONEncoder.outpostDevice.encode(kiosk)
    }

    /// The guard record (in the key store, outside the device store) is what kiosk mode and the
    /// exit lockout were when last saved. A device store whose kiosk state was deleted or put back
    /// from an older copy does not end kiosk mode or shorten the lockout: the stricter copy wins.
    private func mergeGuard() {
        guard let data = try? shell.ports.keyStore.record(named: KioskGuard.recordName),
            let saved = try? JSONDecoder.outpostDevice.decode(KioskGuard.self, from: data)
        else { return }
        lastGuard = saved
        if saved.active, shell.session != nil, let eventId = shell.eventId, saved.eventId == eventId {
            kiosk.active = true
            kiosk.orientation = saved.orientation
        }
        kiosk.lockout = KioskLockout.stricter(kiosk.lockout, saved.lockout, at: shell.ports.monotonic.now())
    }

    private func writeGuard() {
        let current = KioskGuard(
            active: kiosk.active, eventId: kiosk.active ? shell.eventId : nil, orientation: kiosk.orientation,
            lockout: kiosk.lockout)
        guard current != lastGuard, let data = try? JSONEncoder.outpostDevice.encode(current) else { return }
        if (try? shell.ports.keyStore.setRecord(named: KioskGuard.recordName, data)) != nil { lastGuard = current }
    }

    func restoreState(_ data: Data) throws { kiosk = try JSONDecoder.outpostDevice.decode(KioskState.self, from: data) }

    // MARK: - Actions

    /// Staff set-up: saves the exit passcode and orientation through the server, which refuses
    /// weak passcodes (every broken rule is shown in words), then pulls the hash for offline exit.
    func setUp(passcode: String, orientation: KioskOrientation) async {
        guard shell.session != nil, let eventId = shell.eventId else { return }
        kiosk.setupRules = []
        kiosk.setupMessage = nil
        do {
            let response = try await shell.authorized(
                TransportRequest(
                    method: "PUT", path: "/v1/events/\(eventId)/kiosk", headers: ["Content-Type": "application/json"],
                    body: try OutpostJSON.encode(KioskSetupRequest(passcode: passcode, orientation: orientation))))
            switch response.status {
            case 204:
                kiosk.orientation = orientation
                kiosk.setupMessage = "Kiosk passcode saved."
                await shell.pullFeeds()
            case 422:
                let body = try? OutpostJSON.decode(ErrorBody.self, from: response.body)
                kiosk.setupRules = (body?.rules ?? []).compactMap(PasscodeRule.init(rawValue:))
                kiosk.setupMessage = "Choose another passcode."
                shell.refuse("The server refused that passcode: choose another one.")
            case 403:
                kiosk.setupMessage = "Only organizers and support staff can set up a kiosk."
                shell.refuse(kiosk.setupMessage!)
            default:
                kiosk.setupMessage = "The server could not save the passcode (\(response.status))."
                shell.refuse(kiosk.setupMessage!)
            }
        } catch {
            kiosk.setupMessage = "Setting up a kiosk needs the network."
            shell.refuse(kiosk.setupMessage!)
        }
    }

    /// Enters kiosk mode (iOS: after Guided Access locks the app). Needs a synced passcode hash,
    /// or staff could never leave offline.
    func enter() {
        guard let eventId = shell.eventId else { return }
        guard let info = try? store.kiosk(eventId: eventId) else {
            kiosk.setupMessage = "Set a kiosk passcode first."
            shell.refuse(kiosk.setupMessage!)
            return
        }
        kiosk.orientation = info.orientation
        kiosk.active = true
        kiosk.result = nil
        kiosk.exitPromptShown = false
        kiosk.cornerTaps = []
        kiosk.setupMessage = nil
    }

    /// The guest a scanned ticket names, if it verifies for the open event (the check-in
    /// module's offline verification), and the ticket as it will be sent.
    func guest(ticket: String) -> (LocalGuest?, ticket: String) {
        guard let eventId = shell.eventId, let (normalized, verified) = shell.module(CheckInModule.self)?.verify(ticket)
        else { return (nil, ScannedText.normalized(ticket)) }
        let payload = try? verified.get()
        return (payload.flatMap { try? store.guest(eventId: eventId, id: GuestID($0.guestId)) }, normalized)
    }

    /// The guest an attendee's e-mail names: admissible, not yet checked in first.
    func guest(email: String) -> LocalGuest? {
        guard let eventId = shell.eventId else { return nil }
        let candidates = ((try? store.guests(eventId: eventId, email: email)) ?? []).filter(\.status.isAdmissible)
        return candidates.first { $0.checkIn == nil } ?? candidates.first
    }

    /// One outcome per attendee: welcome, a friendly already-checked-in, or one generic
    /// not-found for unknown, cancelled, revoked and other-event alike. The attendee UI never
    /// shows sync state; the check-in is committed locally and queued like any other.
    /// Returns true when a check-in was queued.
    func admit(_ guest: LocalGuest?, ticket: String?) -> Bool {
        let now = shell.ports.clock.now()
        kiosk.exitPromptShown = false
        guard let guest, guest.status.isAdmissible, let checkIn = shell.module(CheckInModule.self) else {
            kiosk.result = KioskResult(kind: .notFound, name: nil, shownAt: now)
            return false
        }
        // Already checked in: still sent, so the server audits kiosk_already_checked_in.
        let queued = (try? checkIn.commit(guest: guest, method: .kiosk, ticket: ticket)) != nil
        kiosk.result = KioskResult(
            kind: guest.checkIn != nil ? .alreadyCheckedIn : .welcome, name: Self.firstName(guest.name), shownAt: now)
        return queued
    }

    static func firstName(_ name: String) -> String {
        name.split(separator: " ").first.map(String.init) ?? name
    }

    /// A tap on the exit corner; the third within a few seconds shows the exit prompt.
    func tapCorner() {
        guard kiosk.active else { return }
        let now = shell.ports.clock.now()
        kiosk.cornerTaps = kiosk.cornerTaps.filter { now.timeIntervalSince($0) <= Self.cornerTapWindow } + [now]
        if kiosk.cornerTaps.count >= 3 {
            kiosk.exitPromptShown = true
            kiosk.cornerTaps = []
            kiosk.result = nil
            clearDraft()
        }
    }

    /// Staff leave kiosk mode with the passcode, checked offline against the synced bcrypt hash.
    /// Three wrong passcodes lock the exit (60 s, then 300 s, then 600 s), across relaunches.
    func exit(passcode: String) {
        guard kiosk.active, kiosk.exitPromptShown, let eventId = shell.eventId else { return }
        let hash = (try? store.kiosk(eventId: eventId))?.passcodeHash
        let outcome = kiosk.lockout.attempt(at: shell.ports.monotonic.now()) {
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
            shell.refuse(kiosk.exitMessage!)
        case .lockedOut, .stillLocked:
            kiosk.exitMessage = nil
            shell.refuse("Too many wrong passcodes: the exit is locked for a while.")
        }
    }

    /// Leaves the exit prompt without trying (back to the welcome screen).
    func dismissExitPrompt() {
        kiosk.exitPromptShown = false
        kiosk.exitMessage = nil
        clearDraft()
    }

    // MARK: - Typing

    /// The unsubmitted input at `now`: empty once idle for `draftIdleSeconds`.
    func currentDraft(at now: Date) -> String {
        guard let at = kiosk.draftAt, now.timeIntervalSince(at) < draftIdleSeconds else { return "" }
        return kiosk.draft
    }

    /// Typed characters; a stale draft is dropped first, so nobody continues someone else's. The
    /// last attendee's result gives way to the next one typing.
    func type(_ text: String) {
        let now = shell.ports.clock.now()
        if !kiosk.exitPromptShown { kiosk.result = nil }
        kiosk.draft = currentDraft(at: now) + text
        kiosk.draftAt = now
    }

    func deleteBackward() {
        let now = shell.ports.clock.now()
        kiosk.draft = String(currentDraft(at: now).dropLast())
        kiosk.draftAt = now
    }

    /// Takes the draft for submission, leaving a clean slate.
    func takeDraft() -> String {
        defer { clearDraft() }
        return currentDraft(at: shell.ports.clock.now()).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func clearDraft() {
        kiosk.draft = ""
        kiosk.draftAt = nil
    }
}
