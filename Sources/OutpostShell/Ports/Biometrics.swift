import Foundation

/// The biometry a device offers, named as its lock screen names it.
public enum BiometryKind: String, Codable, Sendable {
    case faceID
    case touchID
    case fingerprint

    /// "Unlock with Face ID" and so on.
    public var label: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "Touch ID"
        case .fingerprint: "Fingerprint"
        }
    }
}

/// How the OS prompt is asked to check the user.
public enum UnlockMethod: String, Codable, Sendable {
    /// Face or finger; the secret is bound to the enrolment current when it was stored.
    case biometrics
    /// The device's own passcode (the OS prompt collects it; the app never sees it).
    case devicePasscode
}

/// Why a bound secret was not released.
public enum BiometricFailure: Error, Sendable, Hashable {
    /// The face or finger did not match (the OS counts these; five lock biometrics out).
    case noMatch
    /// The user dismissed the prompt.
    case cancelled
    /// Too many failed matches: only the device passcode works until it is entered.
    case lockedOut
    /// Nothing to check with: no biometrics enrolled, or no device passcode set.
    case notAvailable
    /// The enrolled faces or fingers changed since the secret was bound, so the OS destroyed it
    /// (a face added by someone else must not unlock the session).
    case invalidated
    /// The secret was never bound (or was removed).
    case missing
}

/// The platform's biometric check, bound to a secret: a secret stored through ``bind(_:named:)``
/// is released only by a successful check, so reading it *is* the unlock. A boolean "the face
/// matched" can be flipped on an instrumented phone; a key the OS keeps sealed until the match
/// cannot. On iOS: a Keychain item with `.biometryCurrentSet` (and a second one with
/// `.devicePasscode` for the passcode fallback); on Android: a Keystore key used through
/// `BiometricPrompt.CryptoObject`. On Linux and in tests: ``SimulatedBiometrics``.
public protocol Biometrics: Sendable {
    /// The enrolled biometry; nil when the device has none (the settings toggle is hidden).
    var kind: BiometryKind? { get }
    /// Stores `secret` so that only a check releases it: biometrics (bound to the current
    /// enrolment) or the device passcode.
    func bind(_ secret: Data, named name: String) throws
    /// Prompts (`prompt` is the reason the OS shows) and, on success, returns the secret.
    func release(named name: String, method: UnlockMethod, prompt: String) async -> Result<Data, BiometricFailure>
    /// Forgets the secret (biometric unlock turned off, sign-out).
    func remove(named name: String)
}
