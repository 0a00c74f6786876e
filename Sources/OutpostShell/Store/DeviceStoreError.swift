import Foundation

/// Why the store could not be opened or written.
public enum DeviceStoreError: Error, CustomStringConvertible {
    case migrationFailed(String)
    case simulatedMigrationFailure
    case damaged(String)

    public var description: String {
        switch self {
        case .migrationFailed(let reason): "the local data could not be upgraded: \(reason)"
        case .simulatedMigrationFailure: "a simulated migration failure"
        case .damaged(let reason): "the local data is damaged: \(reason)"
        }
    }
}
