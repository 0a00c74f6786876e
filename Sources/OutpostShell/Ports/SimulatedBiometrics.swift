import Foundation

/// The biometric sensor and the OS prompt of a simulated phone (Linux, tests, `outpost device
/// sim biometric …`), with the platform's contract: secrets are kept as key store records
/// tagged with the enrolment they were bound to; a match releases them, a changed enrolment
/// destroys the biometric copy, five failed matches lock biometrics out until the device
/// passcode is entered.
public final class SimulatedBiometrics: Biometrics, @unchecked Sendable {
    /// What the simulated phone is set to; the CLI keeps it in `sim.json`.
    public struct State: Codable, Sendable, Hashable {
        public enum Presented: String, Codable, Sendable {
            /// The owner's face or finger.
            case match
            /// Someone else's (or a smudged sensor).
            case noMatch = "no-match"
            /// The user dismisses the prompt.
            case cancel
        }

        /// The enrolled biometry; nil: none enrolled.
        public var enrolled: BiometryKind? = .faceID
        /// Bumped when faces or fingers are added or removed.
        public var enrolment = 1
        /// What the next prompts are shown.
        public var presented: Presented = .match
        public var failedMatches = 0
        public var lockedOut = false
        /// The device's passcode, and what the user types into the next passcode prompt.
        public var devicePasscode: String? = "123456"
        public var typedPasscode: String?

        public init() {}
    }

    /// Failed matches that lock biometrics out (iOS: five).
    public static let lockoutAfter = 5

    private let lock = NSLock()
    private var state: State
    private let keyStore: any KeyStore
    private let saved: @Sendable (State) -> Void

    public init(state: State = State(), keyStore: any KeyStore, saved: @escaping @Sendable (State) -> Void = { _ in }) {
        self.state = state
        self.keyStore = keyStore
        self.saved = saved
    }

    /// The switches' current values.
    public var current: State { lock.withLock { state } }

    /// Flips a switch (the simulator's `sim biometric …`).
    public func update(_ change: (inout State) -> Void) {
        let now = lock.withLock {
            change(&state)
            return state
        }
        saved(now)
    }

    public var kind: BiometryKind? { lock.withLock { state.enrolled } }

    private struct Item: Codable {
        /// The enrolment a biometric copy is bound to; nil for the passcode copy.
        package var enrolment: Int?
        package var secret: Data
    }

    private func recordName(_ name: String, _ method: UnlockMethod) -> String { "bound.\(method.rawValue).\(name)" }

    public func bind(_ secret: Data, named name: String) throws {
        let enrolment = lock.withLock { state.enrolled == nil ? nil : state.enrolment }
        if let enrolment {
            try keyStore.setRecord(
                named: recordName(name, .biometrics),
                try JSONEncoder().encode(Item(enrolment: enrolment, secret: secret)))
        }
        try keyStore.setRecord(
            named: recordName(name, .devicePasscode), try JSONEncoder().encode(Item(enrolment: nil, secret: secret)))
    }

    public func release(
        named name: String, method: UnlockMethod, prompt: String
    ) async -> Result<
        Data, BiometricFailure
    > {
        let check: Result<Void, BiometricFailure> = lock.withLock {
            switch method {
            case .biometrics:
                guard state.enrolled != nil else { return .failure(.notAvailable) }
                guard !state.lockedOut else { return .failure(.lockedOut) }
                switch state.presented {
                case .match:
                    state.failedMatches = 0
                    return .success(())
                case .cancel:
                    return .failure(.cancelled)
                case .noMatch:
                    state.failedMatches += 1
                    if state.failedMatches >= Self.lockoutAfter { state.lockedOut = true }
                    return .failure(.noMatch)
                }
            case .devicePasscode:
                guard let passcode = state.devicePasscode else { return .failure(.notAvailable) }
                guard let typed = state.typedPasscode else { return .failure(.cancelled) }
                state.typedPasscode = nil
                guard typed == passcode else { return .failure(.noMatch) }
                // The passcode clears a biometric lockout, as on iOS.
                state.lockedOut = false
                state.failedMatches = 0
                return .success(())
            }
        }
        saved(current)
        if case .failure(let failure) = check { return .failure(failure) }
        // No readable item is the OS's "no such item": the user signs in with e-mail instead.
        guard let data = try? keyStore.record(named: recordName(name, method)),
            let item = try? JSONDecoder().decode(Item.self, from: data), !item.secret.isEmpty
        else { return .failure(.missing) }
        if let enrolment = item.enrolment, enrolment != current.enrolment {
            // The OS destroys an item bound to an enrolment that no longer exists (and answers
            // `invalidated` whether or not the destroying succeeds).
            try? keyStore.setRecord(named: recordName(name, .biometrics), Data())
            return .failure(.invalidated)
        }
        return .success(item.secret)
    }

    public func remove(named name: String) {
        for method in [UnlockMethod.biometrics, .devicePasscode] {
            // Removing what is not there is no error to the OS's Keychain either.
            try? keyStore.setRecord(named: recordName(name, method), Data())
        }
    }
}
