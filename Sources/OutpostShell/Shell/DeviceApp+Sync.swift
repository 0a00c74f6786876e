import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// The sync engine's side of the shell: the modules' pull feeds and their progress, connectivity,
/// the outbox replay, unsent-work reports, and what an error from the server means for the session.
extension DeviceApp {
    /// Pulls every module's feeds for the open event, stopping at the first failure (the next
    /// sync resumes from the stored cursors).
    package func pullFeeds() async {
        guard session != nil, let listed = currentEvent else { return }
        do {
            let event = try await refreshed(listed)
            for module in modules {
                let start = ContinuousClock.now
                try await module.pull(event: event)
                let took = ContinuousClock.now - start
                feedSeconds[type(of: module).name] =
                    Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
            }
        } catch {
            handle(error)
        }
    }

    /// The open event as the server has it now: the organizer may have turned its modules (the
    /// EFx tab) on or off since the events list was pulled. An answer that is not the event (a
    /// portal's page) leaves the listed one.
    private func refreshed(_ event: EventInfo) async throws -> EventInfo {
        let response = try await authorized(TransportRequest(API.getEvent.line(event.id)))
        // Not the event (a portal, an error page): the listed event stays; the feeds say more.
        guard response.status == 200, let detail = try? OutpostJSON.decode(EventDetail.self, from: response.body),
            detail.event.id == event.id, let index = events.firstIndex(where: { $0.id == event.id })
        else { return event }
        events[index] = detail.event
        return detail.event
    }

    /// Pulls every module's feeds of the signed-in user (not of an event), stopping at the first
    /// failure; what was pulled before stays.
    func pullAccountFeeds() async {
        guard session != nil else { return }
        do {
            for module in modules { try await module.pullAccount() }
        } catch {
            handle(error)
        }
        await refreshConsent()
    }

    /// Shows a module's own screen (outside any event): the peer mentor's activities.
    public func showModule(named name: String) {
        guard session != nil, modules.contains(where: { type(of: $0).name == name }) else { return }
        performAsStaff {
            state.screen = .module
            state.module = name
            clearTransient()
        }
    }

    /// The feed being pulled ("roster") and how far it is, while one is (the progress bar's values).
    public var feedProgress: (feed: String, done: Int, total: Int)? { status.feedProgress }

    /// A feed's progress (nil: done); shown as the progress bar, live to `onProgress`.
    package func reportProgress(_ progress: (done: Int, total: Int)?, feed: String) {
        status.feedProgress = progress.map { (feed, $0.done, $0.total) }
        if progress != nil { onProgress?(tree()) }
    }

    /// Clears result cards and banners (front-ends call this when they auto-dismiss them).
    public func dismissTransient() {
        perform { clearTransient() }
    }

    /// The platform reports a change of connectivity (NWPathMonitor, NetInfo). When the network
    /// returns, the session is validated, the outbox replays and the feeds pull by themselves,
    /// on whatever screen the user is (nothing is interrupted).
    public func connectivityChanged(online: Bool) async {
        let cameBack = online && !ports.online
        update { $0.online = online }
        if cameBack { await sync() }
    }

    /// Replays the outbox now (ignoring backoff) and pulls the modules' feeds.
    public func sync() async {
        await validateSession()
        await replay(force: true)
        if let client { await refreshPolicy(client) }
        if !upgradeRequired {
            await pullFeeds()
            await pullAccountFeeds()
            await reportUnsent()
        }
        commit()
    }

    /// Tells the server how many entries of the signed-in mentor or worker this device has not
    /// sent (an organizer sees it before removing the user); door devices report per event.
    func reportUnsent() async {
        guard let user = session?.user, user.role == .mentor || user.role == .worker, ports.online,
            // A report of one integer always encodes; the optional only keeps the guard flat.
            let body = try? OutpostJSON.encode(DeviceReport(pending: pendingCount))
        else { return }
        do {
            _ = try await authorized(
                TransportRequest(
                    API.reportUserDevice.line(deviceId),
                    headers: ["Content-Type": "application/json"], body: body))
        } catch {
            // The next sync reports again; an ended session was handled by the replay.
            if case APIClientError.sessionEnded = error { handle(error) }
        }
    }

    /// After a module queued an entry (`queued`): sends it at once when online.
    package func replayAfter(_ queued: Bool) async {
        guard queued, ports.online else { return }
        await replay(force: false)
        commit()
    }

    /// Sends the signed-in user's outbox entries oldest first, one at a time (``OutboxMachine``
    /// decides, ``OutboxReplayer`` does the I/O). `force` ignores backoff (the user asked).
    package func replay(force: Bool) async {
        let clock = ports.clock
        let outcome = await replayer.replay(
            force: force, session: sessionKeeper, client: client, online: ports.online, now: { clock.now() },
            seed: UInt64(ports.random(0...1) * Double(UInt64(1) << 53)))
        for fault in outcome.storeFaults { faults.record(fault.what, fault.error) }
        if outcome.sessionEnded { handle(APIClientError.sessionEnded(code: outcome.sessionEndedCode)) }
        for module in modules { await module.runLocalWork() }
    }

    /// Only a definite refusal of the refresh token ends the session; pending data stays.
    package func handle(_ error: any Error) {
        if case APIClientError.sessionEnded(let code) = error {
            let user = session?.user
            let kept = pendingCount
            let waiting = "\(kept) \(pendingNoun.for(kept))"
            forgetStoredSession()
            state.screen = .signIn
            if code == APIErrorCode.accountRemoved.rawValue, let user {
                // The true reason, and where the work is: the server takes nothing from a
                // removed account, so the entries stay here and in the privacy export.
                state.removedAccount = user
                state.signInError =
                    "Your account was removed by your organizer."
                    + (kept > 0
                        ? " \(waiting) could not be sent and the server no longer accepts them; they stay on this device, and Export My Data writes them out."
                        : "")
            } else {
                state.signInError =
                    "Your sign-in has ended (the account was removed, its password changed, or it signed in elsewhere); sign in again."
                    + (kept > 0 ? " \(kept) saved \(kept == 1 ? "entry is" : "entries are") kept on this device." : "")
            }
        }
    }

    func clearTransient() {
        state.message = nil
        state.showUpdateBanner = false
        for module in modules { module.clearTransient() }
    }
}
