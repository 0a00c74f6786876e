import OutpostCore
import OutpostProtocol

/// Inside an event: its name, the modules' tabs (those whose condition holds) and the modules'
/// content, then sign-out.
package struct EventShellScreen: ScreenModel {
    package var eventId: EventID
    package var eventName: String
    package var tabs: [UIElement]
    package var content: [UIElement]

    package var identifier: String { UIIdentifier.eventShell }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.eventShell, eventName, ["eventId": eventId.wire])]
        elements += tabs
        elements += content
        elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        return elements
    }
}

/// A module's own screen in front of the event shell (e.g. the confirmation screen).
package struct ModuleScreen: ScreenModel {
    package var identifier: String
    package var content: [UIElement]

    package func elements() -> [UIElement] { content }
}
