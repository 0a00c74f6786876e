import OutpostCore
import OutpostProtocol

/// Inside an event: its name, the modules' tabs (those whose condition holds) and the modules'
/// content, then sign-out.
struct EventShellScreen: ScreenModel {
    var eventId: EventID
    var eventName: String
    var tabs: [UIElement]
    var content: [UIElement]

    var identifier: String { UIIdentifier.eventShell }

    func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.eventShell, eventName, ["eventId": eventId.wire])]
        elements += tabs
        elements += content
        elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        return elements
    }
}

/// A module's own screen in front of the event shell (e.g. the confirmation screen).
struct ModuleScreen: ScreenModel {
    var identifier: String
    var content: [UIElement]

    func elements() -> [UIElement] { content }
}
