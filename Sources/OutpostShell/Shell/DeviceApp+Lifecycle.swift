import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// The app going to the background and coming back (the lock's timer, the resume skeleton, the sync).
extension DeviceApp {
    /// The app goes to the background.
    public func background() {
        state.backgroundedAt = ports.clock.now()
        commit()
    }

    /// The app comes back: the resume skeleton shows until local state is loaded (no network),
    /// then the delta and replay run without blocking the screen.
    @discardableResult
    public func foreground() -> Task<Void, Never> {
        status.resuming = true
        onProgress?(tree())
        relockIfAway()
        state.backgroundedAt = nil
        let now = ports.clock.now()
        for module in modules { module.appeared(now: now) }
        status.resuming = false
        commit()
        return Task { @MainActor in await self.sync() }
    }
}
