import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The walk-in module's actions, as the front-ends and tests call them (staff actions: refused
/// while kiosk mode holds the device).
extension DeviceApp {
    package var walkInModule: WalkInModule? { module(WalkInModule.self) }

    /// Opens the Walk-Ins form.
    public func openWalkIn() {
        performAsStaff { walkInModule?.open() }
    }

    /// Changes the form's fields (nil: unchanged). An access type is chosen by id or by name.
    public func updateWalkIn(
        name: String? = nil, email: String? = nil, accessType: String? = nil, amount: String? = nil,
        currency: String? = nil, method: PaymentMethod? = nil
    ) {
        performAsStaff {
            guard let module = walkInModule else { return }
            if let accessType {
                let wanted = accessType.lowercased()
                guard
                    let choice = module.choicesForForm.first(where: {
                        $0.accessType.id.wire == wanted || $0.accessType.name.lowercased() == wanted
                    })
                else {
                    return refuse("No access type named '\(accessType)' admits walk-ins at this event.")
                }
                module.update { $0.accessTypeId = choice.accessType.id }
            }
            module.update { draft in
                if let name { draft.name = name }
                if let email { draft.email = email }
                if let amount { draft.amount = amount }
                if let currency { draft.currency = currency.uppercased() }
                if let method { draft.method = method }
            }
        }
    }

    /// Adds the form's walk-in and checks them in: when online and the access type has a
    /// capacity, first asks the server for places if this device is low; then commits locally
    /// and replays.
    public func addWalkIn(replayAfter: Bool = true) async {
        guard refuseStaffActionIfHeld(), let module = walkInModule else { return }
        if ports.online, let eventId, let type = module.formTypeWithCapacity {
            do {
                try await module.topUp(event: eventId, type: type)
            } catch {
                handle(error)
            }
            commit()
        }
        var added = false
        perform { added = module.add() }
        guard added, replayAfter else { return }
        await replay(force: false)
        commit()
    }

    /// Leaves the form without adding anyone.
    public func cancelWalkIn() {
        performAsStaff { walkInModule?.cancel() }
    }

    /// Shows (or hides) this shift's walk-ins on this device.
    public func showWalkInSummary(_ shown: Bool = true) {
        performAsStaff { walkInModule?.showSummary(shown) }
    }

    /// Closes the door for walk-ins: every open lease is sealed and its unused places go back
    /// when the seal is sent. Returns how many leases were sealed.
    @discardableResult
    public func closeWalkInDoor() async -> Int {
        guard refuseStaffActionIfHeld() else { return 0 }
        var sealed = 0
        perform { sealed = walkInModule?.closeDoor() ?? 0 }
        await replay(force: false)
        commit()
        return sealed
    }

    /// The Idempotency-Key of the walk-in the result card shows (set by a committed add).
    public var lastWalkInKey: String? { walkInModule?.state.result?.idempotencyKey }

    /// This device's walk-ins of the open event: count and amounts by method and currency.
    public var walkInShift: WalkInShift? { walkInModule?.currentShift }

    /// The end-of-shift summary of the open event as CSV (the console's walkins/summary.csv, for
    /// this device); throws when the walk-ins cannot be read (never an empty summary instead).
    public func walkInShiftCSV() throws -> String {
        guard let module = walkInModule, let eventId else { return WalkInSummary.csv([]) }
        return WalkInSummary.csv([try module.shift(eventId: eventId)])
    }

    /// Places this device holds per access type that admits walk-ins (nil: no limit).
    public var walkInPlacesLeft: [AccessTypeID: Int?] { walkInModule?.placesLeft ?? [:] }
}
