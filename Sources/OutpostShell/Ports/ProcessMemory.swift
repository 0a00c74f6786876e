import Foundation
import OutpostCore

/// What an unlocked app holds in memory between the user's actions: the key that unseals the
/// session, and when the app was last in use. On a phone it is the app process's own memory,
/// gone when the process is killed (a cold launch is locked). The headless device runs one
/// process per command, so its simulator keeps this in a 0600 file that `sim kill` deletes:
/// the time between commands is time in the background.
public protocol ProcessMemory: AnyObject, Sendable {
    var unlock: RetainedUnlock? { get set }
}

/// The unlocked session key and when the app was last in use.
public struct RetainedUnlock: Codable, Sendable, Hashable {
    public var key: Data
    public var lastActive: Date
    public var lastActiveMonotonic: MonotonicInstant

    public init(key: Data, lastActive: Date, lastActiveMonotonic: MonotonicInstant) {
        self.key = key
        self.lastActive = lastActive
        self.lastActiveMonotonic = lastActiveMonotonic
    }
}

/// A phone's process memory: held by the app object's lifetime.
public final class InProcessMemory: ProcessMemory, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: RetainedUnlock?
    public init() {}
    public var unlock: RetainedUnlock? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The headless device's stand-in for process memory: a 0600 file.
public final class FileProcessMemory: ProcessMemory, @unchecked Sendable {
    public let url: URL
    public init(url: URL) { self.url = url }

    public var unlock: RetainedUnlock? {
        get {
            // The simulator's stand-in for process memory: unreadable is none kept (locked).
            FileManager.default.contents(atPath: url.path).flatMap {
                try? JSONDecoder().decode(RetainedUnlock.self, from: $0)
            }
        }
        set {
            // Memory cannot fail to be written; the file that stands in for it may, and then the
            // next launch is locked, the safe side.
            guard let newValue, let data = try? JSONEncoder().encode(newValue) else {
                // None kept: no file is the same as an empty one.
                try? FileManager.default.removeItem(at: url)
                return
            }
            // The home exists already but for a test's fresh folder; a failure shows as no file.
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
        }
    }
}
