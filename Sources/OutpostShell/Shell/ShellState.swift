import Foundation
import OutpostCore
import OutpostProtocol

/// Where the shell is, kept across launches (sealed, meta key "ui"), so every `outpost device`
/// invocation continues where the last one left off. Each module keeps its own state beside it,
/// under its name.
package struct ShellState: Codable, Sendable, Equatable {
    package enum Screen: String, Codable, Sendable {
        case signIn
        case eventPicker
        /// Inside an event: the event shell, with the modules' tabs (and a module's front screen).
        case event
        case signOutWarning
        /// The shell's settings (biometric unlock, lock timing).
        case settings
        /// A module's own screen outside any event (``module`` names it).
        case module
        /// The user's data rights: consent, export, withdraw consent and delete the account.
        case privacy

        /// Stores written before the shell had modules named the event shell and the
        /// check-in confirmation as screens of their own; both are inside the event now.
        package init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(String.self)
            self = Screen(rawValue: raw) ?? (["eventShell", "confirmation"].contains(raw) ? .event : .signIn)
        }
    }

    package var screen: Screen = .signIn
    package var eventId: EventID?
    package var eventRange: String = "all"
    package var signInError: String?
    /// The user whose account the server said was removed: their kept entries can still be
    /// exported (``DeviceApp/exportMyData()``), signed out.
    package var removedAccount: UserInfo?
    /// What the sign-in screen says that is not an error ("a code is on its way").
    package var signInNotice: String?
    /// A message on the sign-out warning, or a failure to save shown on the event shell.
    package var message: String?
    package var showUpdateBanner = false
    package var backgroundedAt: Date?
    /// Why the last unlock did not open the app, on the lock screen.
    package var lockMessage: String?
    /// The screen the settings were opened from.
    package var beforeSettings: Screen?
    /// The module whose own screen is shown (``Screen/module``).
    package var module: String?
    /// The screen the privacy screen was opened from.
    package var beforePrivacy: Screen?
    /// What the privacy screen says (an export written, deletion needs a connection).
    package var privacyMessage: String?
    /// Deleting was asked for while entries waited to be sent: the warning shows until confirmed.
    package var privacyDeleteWarning = false
}
