import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// Sign-out: warned while anything waits, then kept or discarded as the user chose; the session
/// and its data leave the device.
extension DeviceApp {
    public enum SignOutChoice: String, Sendable {
        case wait
        case discard
        case keep
    }

    /// Sign-out. With pending entries of this user and no choice it shows the warning
    /// (default: wait); `keep` keeps them for the same user's next sign-in; `discard` drops them.
    /// Other users' kept entries are never touched.
    public func signOut(_ choice: SignOutChoice? = nil) async {
        guard let current = session, refuseStaffActionIfHeld() else { return }
        var discard = false
        switch (pendingCount, choice) {
        case (0, _):
            break
        case (_, nil):
            state.screen = .signOutWarning
            let waiting = "\(pendingCount) \(pendingNoun.for(pendingCount))"
            refuse("Not signed out: \(waiting) not synced yet; wait for them, keep them or discard them.")
            commit()
            return
        case (_, .wait?):
            await replay(force: true)
            if ports.online { for module in modules { await module.sendHeld() } }
            if pendingCount > 0 {
                state.screen = .signOutWarning
                state.message = "Still waiting: the \(pendingNoun.many) could not be sent yet."
                refuse("Not signed out: \(pendingCount) \(pendingNoun.for(pendingCount)) could not be sent yet.")
                commit()
                return
            }
        case (_, .keep?):
            discard = false
        case (_, .discard?):
            discard = true
        }
        await endSession(revoking: current, discardingOutbox: discard)
        // Only gives freed pages back to the disk (the signed-out roster); nothing depends on it.
        try? store.vacuum()
        commit()
    }

    /// Ends `current` on this device: revokes it on the server (best effort), forgets the
    /// roster, events and tokens; its outbox entries stay for its next sign-in unless discarded.
    func endSession(revoking current: SessionState, discardingOutbox: Bool) async {
        if let url = URL(string: current.serverURL) {
            await APIClient(transport: transport(for: url)).signOut(refreshToken: current.refreshToken)
        }
        forgetSession(discarding: discardingOutbox ? current.user.id : nil)
    }

    /// Forgets the session on this device (the roster, events, tokens and the lock's bound key);
    /// the outbox stays, owned by its users, unless `discarding` names one.
    func forgetSession(discarding: UserID?) {
        surfacing("forget the signed-out roster and tokens") {
            try store.clearForSignOut(
                discarding: discarding, sessionTables: modules.flatMap { type(of: $0).sessionTables })
        }
        if let discarding {
            for module in modules {
                surfacing("discard \(type(of: module).name)'s unsent work") {
                    try module.discardUnsent(owner: discarding)
                }
            }
        }
        savedStates = [:]
        forgetStoredSession()
        events = []
        state = ShellState()
        for module in modules { module.sessionEnded() }
    }

    /// The simulator's damaged disk (`outpost device sim damage-outbox-row`): the newest pending
    /// entry of `kind` becomes unreadable. Returns its Idempotency-Key, nil when none is pending.
    public func simulateDamagedOutboxEntry(kind: OutboxKind) -> String? {
        defer { commit() }
        return surfacing("damage an entry (simulator)") { try store.damageNewestPendingEntry(kind: kind) }.flatMap {
            $0
        }
    }
}
