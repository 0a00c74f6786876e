import OutpostCore
import OutpostProtocol

/// Inside an event: its name, the modules' tabs (those whose condition holds) and the modules'
/// content, then sign-out.
package struct EventShellScreen: ScreenModel {
    package var eventId: EventID
    package var eventName: String
    package var tabs: [UIElement]
    package var content: [any ScreenPart]

    package var identifier: String { UIIdentifier.eventShell }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.eventShell, eventName, ["eventId": eventId.wire])]
        elements += tabs
        elements += content.flatMap { $0.elements() }
        elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        return elements
    }

    package var parts: [any ScreenPart] { [self] + content.flatMap(\.parts) }
}
