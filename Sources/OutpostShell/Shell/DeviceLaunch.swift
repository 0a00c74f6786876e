import Foundation
import OutpostCore

/// What launching the app gives: the app over its opened store, or, when the store could not be
/// opened or upgraded, the storage-error screen and nothing else. There is no app without a
/// store: every path that reads or writes one has it.
public enum DeviceLaunch {
    case ready(DeviceApp)
    case storageError(StorageFailure)

    /// The app, when the store opened.
    public var app: DeviceApp? {
        if case .ready(let app) = self { return app }
        return nil
    }

    /// The app, or the ``StorageFailure`` thrown (for a caller that cannot show the screen).
    public func opened() throws -> DeviceApp {
        switch self {
        case .ready(let app): return app
        case .storageError(let failure): throw failure
        }
    }

    /// What the front-end shows now: the app's screen, or the storage-error screen.
    @MainActor
    public func tree() -> UITree {
        switch self {
        case .ready(let app): return app.tree()
        case .storageError(let failure): return failure.tree()
        }
    }
}

/// The store could not be opened or upgraded (a migration failed, the key is gone, the file is
/// not a database): what happened and what to do. Nothing was deleted; the next launch tries
/// again.
public struct StorageFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as the store said it.
    public let reason: String
    let online: Bool

    init(reason: String, online: Bool) {
        self.reason = reason
        self.online = online
    }

    /// The storage-error screen in the frame (no session, nothing pending shown: nothing was read).
    public func tree() -> UITree {
        ShellFrame(online: online, pending: 0).tree(StorageErrorScreen(reason: reason))
    }

    /// One sentence for a front-end that stops here.
    public var description: String {
        "This device's saved data could not be opened or upgraded (\(reason)); nothing was deleted, contact support."
    }
}
