/// The lock screen (seed 003, the N26/Revolut pattern): the biometric unlock first (named by
/// the port: Face ID, Touch ID, Fingerprint), the device passcode second, and "Sign in with
/// email" (a full sign-out that keeps pending entries) last. Front-ends prompt for biometrics
/// as soon as it shows (`autoPrompt`).
package struct LockScreen: ScreenModel {
    package var user: String
    package var biometry: BiometryKind?
    package var pending: Int
    package var message: String?

    package var identifier: String { UIIdentifier.lockScreen }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.lockScreen, "Outpost is locked", ["user": user])]
        elements.append(UIElement(UIIdentifier.lockUser, "Signed in as \(user)"))
        if let biometry {
            elements.append(
                UIElement(
                    UIIdentifier.lockUnlockBiometric, "Unlock with \(biometry.label)",
                    ["biometry": biometry.rawValue, "autoPrompt": "true"]))
        }
        elements.append(UIElement(UIIdentifier.lockUsePasscode, "Use device passcode"))
        elements.append(UIElement(UIIdentifier.lockSignInEmail, "Sign in with email"))
        if pending > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.lockPending,
                    "\(pending) saved \(pending == 1 ? "entry is" : "entries are") kept on this device and will sync after you unlock.",
                    ["pending": String(pending)]))
        }
        if let message { elements.append(UIElement(UIIdentifier.lockMessage, message)) }
        return elements
    }
}

/// The shell's settings: the biometric unlock toggle (hidden when the device has no
/// biometrics) and how long the app may stay in the background before it locks.
package struct SettingsScreen: ScreenModel {
    package var biometry: BiometryKind?
    package var biometricUnlock: Bool
    package var lockAfter: Double

    package var identifier: String { UIIdentifier.settings }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.settings, "Settings")]
        if let biometry {
            elements.append(
                UIElement(
                    UIIdentifier.settingsBiometricToggle,
                    "Unlock with \(biometry.label): \(biometricUnlock ? "on" : "off")",
                    ["on": String(biometricUnlock), "biometry": biometry.rawValue]))
        }
        if biometricUnlock {
            let minutes = Int(lockAfter / 60)
            elements.append(
                UIElement(
                    UIIdentifier.settingsLockAfter,
                    "Lock after \(minutes) minute\(minutes == 1 ? "" : "s") in the background",
                    ["seconds": String(Int(lockAfter))]))
        }
        return elements
    }
}
