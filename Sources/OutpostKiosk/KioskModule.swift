import Foundation
import HummingbirdBcrypt
import OutpostCheckIn
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The kiosk module (seed 002): staff set it up with a passcode, attendees check themselves in
/// by ticket or e-mail, and staff leave only with the passcode, checked offline. Its check-ins
/// go through the check-in module (same outbox kind, method `kiosk`); its passcode hash comes
/// with the check-in module's roster feed.
@MainActor
package final class KioskModule: DeviceModule {
    package static let name = "kiosk"
    /// The kiosk's synced settings live in the roster's sync state (foundation migration v1).
    package static let migrations: [DeviceMigration] = []
    /// Taps on the exit corner must fall within this window.
    package static let cornerTapWindow: TimeInterval = 3

    /// What the module may use of the shell.
    package let context: ModuleContext
    /// Check-in's interface: the roster, verification and the check-in itself stay check-in's.
    private var desk: (any CheckInDesk)? { context.service((any CheckInDesk).self) }
    package var kiosk = KioskState()
    /// A passcode hash is synced for the open event (rebuilt by ``reload()``).
    private var configured: KioskInfo?
    /// ``configured`` as read, until the kiosk settings' table changes (``StoreRead``).
    private var configuredRead = StoreRead<KioskInfo?>()
    /// The guard record was merged into the restored state (on the first save after launch).
    private var guardMerged = false
    /// Seconds without a keystroke after which half-typed input is cleared.
    package var draftIdleSeconds = KioskScreen.draftIdleSeconds
    private var lastGuard: KioskGuard?

    package init(context: ModuleContext, store: ModuleStore<KioskModule>) {
        self.context = context
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [] }

    package func pull(event: EventInfo) async throws {}

    package func reload() {
        configured = context.read(&configuredRead, tables: ["sync_state"], scope: context.eventId) {
            context.eventId.flatMap { desk?.kioskSettings(eventId: $0) }
        }
    }

    package var tabs: [UIElement] { [] }

    package var heldRefusal: String { "Kiosk mode holds this device: leave it with the exit passcode first." }
    /// Kiosk mode holds the device from entry until the passcode exits it.
    package var holdsDevice: Bool { kiosk.active && context.session != nil && context.eventId != nil }

    package func takeover(now: Date) -> (any ScreenModel)? {
        guard holdsDevice else { return nil }
        return KioskScreen(
            kiosk: kiosk, now: now, lockRemaining: kiosk.lockout.remaining(at: context.ports.monotonic.now()),
            draft: currentDraft(at: now),
            cameraDenied: context.ports.camera() == .denied, battery: context.ports.battery())
    }

    package var frontScreen: (any ScreenModel)? { nil }

    package var eventShellParts: [any ScreenPart] {
        var parts: [any ScreenPart] = []
        if let eventId = context.eventId, !kiosk.staffNotes.isEmpty {
            parts.append(
                KioskStaffNotesPanel(
                    entries: kiosk.staffNotes.map { ($0, notes(eventId: eventId, guestId: $0.guestId)) },
                    timeZone: context.currentEvent?.timeZone))
        }
        guard let role = context.session?.user.role, role == .organizer || role == .support else { return parts }
        return parts + [KioskSetUpPanel(configured: configured != nil, kiosk: kiosk)]
    }

    /// The guest's notes at the door, from the module that keeps them (none without it).
    private func notes(eventId: EventID, guestId: GuestID) -> [String] {
        context.service((any GuestNotesSource).self)?.doorNotes(eventId: eventId, guestId: guestId) ?? []
    }

    /// Staff have seen the kiosk's notes: the list and the attendee screen's count are cleared.
    package func clearStaffNotes() { kiosk.staffNotes = [] }

    package var statusElements: [UIElement] { [] }

    package func eventChanged() {}

    package func clearTransient() {}

    package func sessionEnded() { kiosk = KioskState() }

    /// The state's bytes as last saved, encoded again only when it changed.
    private var encodedKiosk = EncodedState<KioskState>()

    package func saveState() throws -> Data {
        if !guardMerged {
            guardMerged = true
            mergeGuard()
        }
        writeGuard()
        return try encodedKiosk.data(for: kiosk)
    }

    /// The guard record (in the key store, outside the device store) is what kiosk mode and the
    /// exit lockout were when last saved. A device store whose kiosk state was deleted or put back
    /// from an older copy does not end kiosk mode or shorten the lockout: the stricter copy wins.
    private func mergeGuard() {
        // No readable guard: the device store's copy stands (the guard only ever makes it stricter).
        guard let data = try? context.ports.keyStore.record(named: KioskGuard.recordName),
            let saved = try? JSONDecoder.outpostDevice.decode(KioskGuard.self, from: data)
        else { return }
        lastGuard = saved
        if saved.active, context.session != nil, let eventId = context.eventId, saved.eventId == eventId {
            kiosk.active = true
            kiosk.orientation = saved.orientation
        }
        kiosk.lockout = KioskLockout.stricter(kiosk.lockout, saved.lockout, at: context.ports.monotonic.now())
    }

    private func writeGuard() {
        let current = KioskGuard(
            active: kiosk.active, eventId: kiosk.active ? context.eventId : nil, orientation: kiosk.orientation,
            lockout: kiosk.lockout)
        // A few fields always encode.
        guard current != lastGuard, let data = try? JSONEncoder.outpostDevice.encode(current) else { return }
        if context.surfacing(
            "save the kiosk's guard", { try context.ports.keyStore.setRecord(named: KioskGuard.recordName, data) })
            != nil
        {
            lastGuard = current
        }
    }

    package func restoreState(_ data: Data) throws {
        kiosk = try JSONDecoder.outpostDevice.decode(KioskState.self, from: data)
    }

    // MARK: - Actions

    /// Staff set-up: saves the exit passcode and orientation through the server, which refuses
    /// weak passcodes (every broken rule is shown in words), then pulls the hash for offline exit.
    package func setUp(passcode: String, orientation: KioskOrientation) async {
        guard context.session != nil, let eventId = context.eventId else { return }
        kiosk.setupRules = []
        kiosk.setupMessage = nil
        do {
            let response = try await context.authorized(
                TransportRequest(
                    API.setUpKiosk.line(eventId), headers: ["Content-Type": "application/json"],
                    body: try OutpostJSON.encode(KioskSetupRequest(passcode: passcode, orientation: orientation))))
            switch response.status {
            case 204:
                kiosk.orientation = orientation
                kiosk.setupMessage = "Kiosk passcode saved."
                await context.pullFeeds()
            case 422:
                // Without the API's error body: no rules to list, the refusal below still shows.
                let body = try? OutpostJSON.decode(ErrorBody.self, from: response.body)
                kiosk.setupRules = (body?.rules ?? []).compactMap(PasscodeRule.init(rawValue:))
                kiosk.setupMessage = "Choose another passcode."
                context.refuse("The server refused that passcode: choose another one.")
            case 403:
                kiosk.setupMessage = "Only organizers and support staff can set up a kiosk."
                context.refuse(kiosk.setupMessage!)
            default:
                kiosk.setupMessage = "The server could not save the passcode (\(response.status))."
                context.refuse(kiosk.setupMessage!)
            }
        } catch {
            kiosk.setupMessage = "Setting up a kiosk needs the network."
            context.refuse(kiosk.setupMessage!)
        }
    }

    /// Enters kiosk mode (iOS: after Guided Access locks the app). Needs a synced passcode hash,
    /// or staff could never leave offline.
    package func enter() {
        guard let eventId = context.eventId else { return }
        guard let info = desk?.kioskSettings(eventId: eventId) else {
            kiosk.setupMessage = "Set a kiosk passcode first."
            context.refuse(kiosk.setupMessage!)
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
    package func guest(ticket: String) -> (LocalGuest?, ticket: String) {
        guard let eventId = context.eventId,
            let (normalized, verified) = desk?.verify(ticket)
        else { return (nil, ScannedText.normalized(ticket)) }
        // A ticket that does not verify names no guest: the attendee sees the one not-found answer.
        let payload = try? verified.get()
        return (payload.flatMap { desk?.guest(eventId: eventId, id: GuestID($0.guestId)) }, normalized)
    }

    /// The guest an attendee's e-mail names: admissible, not yet checked in first. An empty
    /// e-mail names nobody (a ticket block's unnamed tickets have none).
    package func guest(email: String) -> LocalGuest? {
        guard let eventId = context.eventId, !email.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return nil
        }
        let candidates = (desk?.guests(eventId: eventId, email: email) ?? []).filter(\.status.isAdmissible)
        return candidates.first { $0.checkIn == nil } ?? candidates.first
    }

    /// One outcome per attendee: welcome, a friendly already-checked-in, or one generic
    /// not-found for unknown, cancelled, revoked and other-event alike. The attendee UI never
    /// shows sync state; the check-in is committed locally and queued like any other.
    /// Returns true when a check-in was queued.
    package func admit(_ guest: LocalGuest?, ticket: String?) -> Bool {
        let now = context.ports.clock.now()
        kiosk.exitPromptShown = false
        // A ticket block's unnamed ticket is named by staff at the door, never at the kiosk.
        guard let guest, guest.status.isAdmissible, !guest.isUnnamedBlockTicket, let checkIn = desk
        else {
            kiosk.result = KioskResult(kind: .notFound, name: nil, shownAt: now)
            return false
        }
        // Already checked in: still sent, so the server audits kiosk_already_checked_in.
        guard
            context.surfacing(
                "record a check-in", { try checkIn.commit(guest: guest, method: .kiosk, ticket: ticket, note: nil) })
                != nil
        else {
            // Not saved: never a welcome; the attendee goes to staff, and the staff see the banner.
            kiosk.result = KioskResult(kind: .notSaved, name: nil, shownAt: now)
            return false
        }
        kiosk.result = KioskResult(
            kind: guest.checkIn != nil ? .alreadyCheckedIn : .welcome, name: Self.firstName(guest.name), shownAt: now)
        if let eventId = context.eventId, !notes(eventId: eventId, guestId: guest.id).isEmpty {
            kiosk.staffNotes.removeAll { $0.guestId == guest.id }
            kiosk.staffNotes.append(KioskStaffNote(guestId: guest.id, name: guest.name, at: now))
        }
        return true
    }

    package static func firstName(_ name: String) -> String {
        name.split(separator: " ").first.map(String.init) ?? name
    }

    /// A tap on the exit corner; the third within a few seconds shows the exit prompt.
    package func tapCorner() {
        guard kiosk.active else { return }
        let now = context.ports.clock.now()
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
    package func exit(passcode: String) {
        guard kiosk.active, kiosk.exitPromptShown, let eventId = context.eventId else { return }
        let hash = desk?.kioskSettings(eventId: eventId)?.passcodeHash
        let outcome = kiosk.lockout.attempt(at: context.ports.monotonic.now()) {
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
            context.refuse(kiosk.exitMessage!)
        case .lockedOut, .stillLocked:
            kiosk.exitMessage = nil
            context.refuse("Too many wrong passcodes: the exit is locked for a while.")
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
        let now = context.ports.clock.now()
        if !kiosk.exitPromptShown { kiosk.result = nil }
        kiosk.draft = currentDraft(at: now) + text
        kiosk.draftAt = now
    }

    func deleteBackward() {
        let now = context.ports.clock.now()
        kiosk.draft = String(currentDraft(at: now).dropLast())
        kiosk.draftAt = now
    }

    /// Takes the draft for submission, leaving a clean slate.
    func takeDraft() -> String {
        defer { clearDraft() }
        return currentDraft(at: context.ports.clock.now()).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func clearDraft() {
        kiosk.draft = ""
        kiosk.draftAt = nil
    }
}
