import OutpostProtocol

/// The events the user may work, as last fetched.
package struct EventPickerScreen: ScreenModel {
    package var range: String
    package var events: [EventInfo]

    package var identifier: String { UIIdentifier.eventPicker }

    package func elements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.eventPicker, "Your events", ["range": range, "count": String(events.count)])
        ]
        for event in events {
            elements.append(
                UIElement(
                    UIIdentifier.eventRow, "\(event.name) · \(TimeFormatting.day(event.startsAt, event.timeZone))",
                    ["eventId": event.id.wire]))
        }
        elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        return elements
    }
}
