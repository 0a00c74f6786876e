import Foundation
import OutpostCore
import OutpostProtocol

/// The lock screen and the offline unlock window (seed 003's LockScreen, seed 004's offline
/// biometric session).
///
/// - With biometric unlock on, the app is locked on a cold launch and after
///   ``LockSettings/lockAfter`` in the background; the lock screen offers the biometric check,
///   the device passcode, and "Sign in with email".
/// - An unlock reads the session key from the ``Biometrics`` port; no network is involved. Past
///   the offline window (72 hours since the server last accepted the session, or the tenant's
///   setting) the unlock also needs the server to accept the session, and stays locked offline.
/// - Nothing pending is touched by a lock, an unlock that fails, or "Sign in with email".
extension DeviceApp {
    /// A session exists but its tokens are sealed behind the lock.
    public var isLocked: Bool { vault.isLocked ?? false }

    /// The device's biometry; nil when it has none (the settings toggle is hidden).
    public var biometry: BiometryKind? { ports.biometrics.kind }

    public var biometricUnlockEnabled: Bool { vault.settings.biometricUnlock ?? false }

    /// Opens the shell's settings.
    public func showSettings() {
        guard session != nil, refuseStaffActionIfHeld(), state.screen != .settings else { return }
        perform {
            state.beforeSettings = state.screen
            state.screen = .settings
        }
    }

    /// Leaves the settings for the screen they were opened from.
    public func closeSettings() {
        guard state.screen == .settings else { return }
        perform {
            state.screen = state.beforeSettings ?? (state.eventId == nil ? .eventPicker : .event)
            state.beforeSettings = nil
        }
    }

    /// Turns biometric unlock on or off (the settings toggle). Turning it on needs enrolled
    /// biometrics and binds a fresh session key to them.
    public func setBiometricUnlock(_ on: Bool) {
        guard let session, refuseStaffActionIfHeld() else { return }
        guard !on || biometry != nil else {
            refuse("This device has no biometrics to unlock with.")
            return
        }
        perform {
            do {
                try vault.setBiometricUnlock(on, session: session)
            } catch {
                state.message = "Biometric unlock could not be turned on: \(error)"
                refuse(state.message!)
            }
        }
    }

    /// How long the app may stay in the background before it locks.
    public func setLockAfter(seconds: TimeInterval) {
        guard session != nil, refuseStaffActionIfHeld() else { return }
        perform { surfacing("save the lock setting") { try vault.setLockAfter(seconds) } }
    }

    /// Locks now (the lock button; also what a cold launch and a long background do).
    public func lock() {
        guard biometricUnlockEnabled, session != nil else { return }
        relock(nil)
    }

    /// The app came back after `lockAfter` or more in the background: it locks. The same
    /// decision as a launch's (``SessionVault/stillUnlocked``: wall and monotonic time since
    /// the app was last in use, which `background()` recorded).
    func relockIfAway() {
        guard biometricUnlockEnabled, session != nil, !vault.stillUnlocked else { return }
        vault.lock()
        sessionKeeper.forget()
    }

    /// Unlocks with biometrics or the device passcode. On success the app continues where it
    /// was; the session is validated with the server in the background when the network is
    /// there (the returned task), without holding the screen.
    @discardableResult
    public func unlock(with method: UnlockMethod) async -> Task<Void, Never>? {
        clearRefusal()
        guard isLocked, let record = vault.record else { return nil }
        state.lockMessage = nil
        let prompt = "Unlock Outpost"
        switch await vault.unlock(method: method, prompt: prompt) {
        case .failure(let failure):
            state.lockMessage =
                method == .devicePasscode && failure == .noMatch
                ? "That passcode is not correct. Try again, or sign in with email."
                : Self.words(for: failure, biometry: biometry)
            refuse(state.lockMessage ?? "The app stays locked.")
            commit()
            return nil
        case .success(let unsealed):
            sessionKeeper.resume(unsealed)
            if SessionLock.needsNetwork(record, now: ports.clock.now(), monotonic: ports.monotonic.now()) {
                // Past the offline window the server must accept the session first.
                let hours = Int(record.offlineUnlock / 3600)
                let span = hours == 1 ? "1 hour" : "\(hours) hours"
                guard let client, ports.online else {
                    relock(
                        "It has been more than \(span) since Outpost last reached the server. Connect to the internet to unlock; nothing you saved is lost."
                    )
                    return nil
                }
                do {
                    try await sessionKeeper.validate(client: client)
                } catch APIClientError.sessionEnded(let code) {
                    handle(APIClientError.sessionEnded(code: code))
                    commit()
                    return nil
                } catch {
                    relock(
                        "Outpost could not reach the server to confirm your sign-in (more than \(span) offline). Try again when you're connected; nothing you saved is lost."
                    )
                    return nil
                }
            }
            if state.screen == .signIn { state.screen = state.eventId == nil ? .eventPicker : .event }
            commit()
            guard ports.online else { return nil }
            return Task { @MainActor in await self.sync() }
        }
    }

    /// Locks now: the key and the tokens leave memory; `message` shows on the lock screen.
    private func relock(_ message: String?) {
        vault.lock()
        sessionKeeper.forget()
        state.lockMessage = message
        if let message { refuse(message) }
        commit()
    }

    /// "Sign in with email" on the lock screen: a full sign-out on this device that keeps every
    /// pending entry, owned by its user, for their next sign-in. The tokens stay sealed (the lock
    /// was not opened), so the server's session is not revoked from here; it expires there.
    public func signInWithEmail() {
        guard isLocked else { return }
        forgetSession(discarding: nil)
        commit()
    }

    /// Validates the session with the server when it has not been for a while (a rotation of
    /// its refresh token): after an offline unlock, this is what finds a revoked session. A
    /// refusal ends the session with a clear message (pending entries stay); a transport error
    /// changes nothing.
    func validateSession() async {
        guard let record = vault.record, session != nil, ports.online, let client,
            SessionLock.sinceValidated(record, now: ports.clock.now(), monotonic: ports.monotonic.now())
                >= SessionLock.validationInterval
        else { return }
        do {
            try await sessionKeeper.validate(client: client)
        } catch {
            handle(error)
        }
    }

    static func words(for failure: BiometricFailure, biometry: BiometryKind?) -> String {
        let name = biometry?.label ?? "Biometrics"
        return switch failure {
        case .noMatch: "\(name) didn't recognise you. Try again, or use your device passcode."
        case .cancelled: "Unlock cancelled."
        case .lockedOut: "\(name) is locked after too many attempts. Use your device passcode."
        case .notAvailable: "This device has no \(name) set up. Use your device passcode or sign in with email."
        case .invalidated:
            "Your \(name) settings changed, so \(name) can't unlock Outpost any more. Use your device passcode or sign in with email."
        case .missing: "Outpost can't unlock this sign-in here. Sign in with email; nothing you saved is lost."
        }
    }
}
