import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The check-in module's actions, as the app's front-ends and tests call them. Each action
/// runs in the module, then the shell saves every state and rebuilds the screen models. They
/// are staff actions: while kiosk mode holds the device they do nothing.
extension DeviceApp {
    package var checkInModule: CheckInModule? { module(CheckInModule.self) }

    /// Guests per roster page (``CheckInModule/rosterPageSize``); tests set smaller pages.
    public var rosterPageSize: Int {
        get { checkInModule?.rosterPageSize ?? CheckInModule.defaultRosterPageSize }
        set { checkInModule?.rosterPageSize = newValue }
    }

    /// Every check-in this device confirmed that it still holds, with the server's answers.
    public var ledger: [CheckInLedgerEntry] {
        surfacing("read the check-in ledger") { try checkInModule?.store.ledger() }.flatMap { $0 } ?? []
    }

    /// A scanned QR text: verified locally, then the confirmation screen or a banner.
    public func scan(_ text: String) {
        performAsStaff { checkInModule?.scan(text) }
    }

    /// Manual entry: autocomplete over the local roster.
    public func lookup(_ query: String) {
        performAsStaff { checkInModule?.lookup(query) }
    }

    /// Manual entry by confirmation code (exact, case-insensitive).
    public func checkIn(code: String) {
        performAsStaff { checkInModule?.checkIn(code: code) }
    }

    /// Manual entry by picking a suggestion.
    public func choose(guestId: GuestID) {
        performAsStaff { checkInModule?.choose(guestId: guestId) }
    }

    /// Confirms the guest on the confirmation screen: committed locally first (the screen
    /// advances at once), then the outbox replays unless `replayAfter` is false.
    /// A block's unnamed ticket is named at the door first (`holderName`), if its block allows.
    public func confirm(note: String? = nil, holderName: String? = nil, replayAfter: Bool = true) async {
        var confirmed = false
        performAsStaff { confirmed = checkInModule?.confirm(note: note, holderName: holderName) ?? false }
        guard confirmed, replayAfter else { return }
        await replay(force: false)
        commit()
    }

    /// The next unnamed ticket of a block (by the partner's name or the block's id), to name at
    /// the door and check in.
    public func openBlockTicket(_ partnerOrId: String) {
        performAsStaff { checkInModule?.openBlockTicket(partnerOrId) }
    }

    /// Leaves the confirmation screen without writing anything.
    public func cancel() {
        performAsStaff { checkInModule?.cancel() }
    }

    /// Switches between camera and manual entry.
    public func toggleManualEntry() {
        performAsStaff { checkInModule?.toggleManualEntry() }
    }

    /// Staff have seen the refused check-ins: they leave the list.
    public func dismissRejected() {
        performAsStaff { checkInModule?.dismissRejected() }
    }

    /// The Idempotency-Key of the check-in the result card shows (set by a committed confirm).
    public var lastConfirmedKey: String? { checkInModule?.state.result?.idempotencyKey }

    /// The autocomplete index of the open event.
    public var index: RosterIndex? { checkInModule?.index }

    /// Waits until the search-index snapshot written after the last build is stored.
    public func indexSnapshotWritten() async { await checkInModule?.snapshotWrite?.value }
}
