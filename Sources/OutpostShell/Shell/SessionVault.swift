import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// Where the session's tokens rest, and the lock in front of them.
///
/// Without biometric unlock the tokens are sealed under the device's master key (meta key
/// "session"), as every other secret of the store. With it they are sealed under a session key
/// of their own (meta key "session_bound") that only the ``Biometrics`` port releases, after a
/// match or the device passcode: the app cannot send a request, nor show whose session it is
/// beyond the lock screen, until the key is read, so reading it *is* the unlock. While unlocked
/// the key is in ``ProcessMemory`` only; a cold launch, an explicit lock, or more than
/// ``LockSettings/lockAfter`` in the background drops it.
@MainActor
package final class SessionVault {
    private let store: DeviceStore
    /// The platform (kept in step with the app's by ``DeviceApp/update(_:)``).
    package var ports: DevicePorts
    private(set) var settings: LockSettings
    private(set) var record: SessionRecord?
    /// The unlocked session key (nil while locked, or without biometric unlock).
    private var key: SymmetricKey?

    /// The name of the bound secret in the ``Biometrics`` port.
    package static let secretName = "session-key"

    package init(store: DeviceStore, ports: DevicePorts) {
        self.store = store
        self.ports = ports
        // Unreadable lock settings fall back to the defaults (locking sooner, never later).
        settings = (try? store.sealedMeta("lock", as: LockSettings.self)) ?? LockSettings()
        // Unreadable: nobody to unlock, so the sign-in screen; the outbox is not in it.
        record = try? store.sealedMeta("session_record", as: SessionRecord.self)
    }

    /// The session as this launch finds it: unsealed when biometric unlock is off, or when the
    /// app was unlocked and left for less than ``LockSettings/lockAfter``; nil when locked.
    package func sessionAtLaunch() -> SessionState? {
        // An unreadable session is a signed-out device: the user signs in again, nothing is lost.
        guard settings.biometricUnlock else { return try? store.sealedMeta("session", as: SessionState.self) }
        guard stillUnlocked, let retained = ports.memory.unlock else {
            ports.memory.unlock = nil
            return nil
        }
        let candidate = SymmetricKey(data: retained.key)
        guard let session = boundSession(key: candidate) else {
            ports.memory.unlock = nil
            return nil
        }
        key = candidate
        touch()
        return session
    }

    /// The app was last in use (``touch()``) less than ``LockSettings/lockAfter`` ago, by wall
    /// and monotonic time: it has not been away long enough to lock.
    package var stillUnlocked: Bool {
        guard let retained = ports.memory.unlock else { return false }
        return SessionLock.staysUnlocked(
            retained, lockAfter: settings.lockAfter, now: ports.clock.now(), monotonic: ports.monotonic.now())
    }

    /// A session exists on this device but its tokens are sealed behind the lock.
    package var isLocked: Bool { settings.biometricUnlock && record != nil && key == nil }

    /// Stores the session (or forgets it). A new refresh token means the server just accepted
    /// the session (a sign-in or a rotation): the offline window starts again.
    package func save(_ session: SessionState?) throws {
        guard let session else {
            try store.setSealedMeta("session", SessionState?.none)
            try store.setSealedMeta("session_bound", Data?.none)
            try store.setSealedMeta("session_record", SessionRecord?.none)
            record = nil
            key = nil
            ports.memory.unlock = nil
            ports.biometrics.remove(named: Self.secretName)
            return
        }
        let previous = settings.biometricUnlock ? boundSession(key: key) : currentPlainSession
        var updated =
            record
            ?? SessionRecord(
                user: session.user, serverURL: session.serverURL, validatedAt: ports.clock.now(),
                validatedMonotonic: ports.monotonic.now())
        updated.user = session.user
        updated.serverURL = session.serverURL
        if let hours = session.offlineUnlockHours { updated.offlineUnlock = TimeInterval(hours) * 3600 }
        if previous?.refreshToken != session.refreshToken {
            updated.validatedAt = ports.clock.now()
            updated.validatedMonotonic = ports.monotonic.now()
        }
        if settings.biometricUnlock {
            if key == nil { try bindNewKey() }
            try store.setSealedMeta("session_bound", try sealBound(session))
            try store.setSealedMeta("session", SessionState?.none)
        } else {
            try store.setSealedMeta("session", session)
        }
        try store.setSealedMeta("session_record", updated)
        record = updated
    }

    /// Unreadable is signed out, as at launch.
    private var currentPlainSession: SessionState? { try? store.sealedMeta("session", as: SessionState.self) }

    /// Turns biometric unlock on (a fresh session key, bound to the current enrolment) or off
    /// (the tokens go back under the master key and the bound key is destroyed).
    package func setBiometricUnlock(_ on: Bool, session: SessionState?) throws {
        guard on != settings.biometricUnlock else { return }
        settings.biometricUnlock = on
        try store.setSealedMeta("lock", settings)
        if on {
            key = nil
            if let session { try save(session) }
        } else {
            ports.biometrics.remove(named: Self.secretName)
            ports.memory.unlock = nil
            key = nil
            try store.setSealedMeta("session_bound", Data?.none)
            if let session { try save(session) }
        }
    }

    package func setLockAfter(_ seconds: TimeInterval) throws {
        settings.lockAfter = max(0, seconds)
        try store.setSealedMeta("lock", settings)
    }

    /// Asks the port for the session key; on success the tokens are unsealed and returned.
    package func unlock(method: UnlockMethod, prompt: String) async -> Result<SessionState, BiometricFailure> {
        switch await ports.biometrics.release(named: Self.secretName, method: method, prompt: prompt) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let secret):
            let candidate = SymmetricKey(data: secret)
            guard let session = boundSession(key: candidate) else { return .failure(.missing) }
            key = candidate
            touch()
            return .success(session)
        }
    }

    /// Drops the key from memory: the app is locked.
    package func lock() {
        key = nil
        ports.memory.unlock = nil
    }

    /// The app was just in use: the background timer starts again from now.
    package func touch() {
        guard let key else { return }
        ports.memory.unlock = RetainedUnlock(
            key: key.withUnsafeBytes { Data($0) }, lastActive: ports.clock.now(),
            lastActiveMonotonic: ports.monotonic.now())
    }

    private func bindNewKey() throws {
        let fresh = SymmetricKey(size: .bits256)
        try ports.biometrics.bind(fresh.withUnsafeBytes { Data($0) }, named: Self.secretName)
        key = fresh
        touch()
    }

    private func sealBound(_ session: SessionState) throws -> Data {
        guard let key else { throw BiometricFailure.missing }
        return try AES.GCM.seal(try OutpostJSON.encode(session), using: key).combined!
    }

    /// The session sealed with the biometric key; nil (locked: sign in with e-mail) when the key
    /// is wrong or gone, the box damaged, or its content unreadable, which are one case to the user.
    private func boundSession(key: SymmetricKey?) -> SessionState? {
        // Each failure below is that one case (above).
        guard let key, let box = try? store.sealedMeta("session_bound", as: Data.self),
            let sealed = try? AES.GCM.SealedBox(combined: box), let plain = try? AES.GCM.open(sealed, using: key)
        else { return nil }
        // Unreadable content: the same case.
        return try? OutpostJSON.decode(SessionState.self, from: plain)
    }
}
