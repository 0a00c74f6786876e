import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The mentor's contacts, from the device's cache (non-sensitive fields only).
package struct ContactsScreen: ScreenModel {
    package var contacts: [Contact]
    /// Why the last action was refused (a contact that is not the mentor's), above the list.
    package var error: String?

    package var identifier: String { UIIdentifier.contactsScreen }

    package func elements() -> [UIElement] {
        ActivitiesTabs.elements
            + (error.map { [UIElement(UIIdentifier.activityError, $0)] } ?? [])
            + contacts.map { contact in
                UIElement(
                    UIIdentifier.contactRow,
                    "\(contact.name) · \(contact.area)" + (contact.lastVisit.map { " · last visit \($0)" } ?? ""),
                    ["contactId": contact.id.wire, "lastVisit": contact.lastVisit ?? ""])
            }
    }
}

/// One contact: the cached information always; the sensitive fields only as revealed by the
/// server for this screen (held in memory, never stored); offline, a calm note that they need a
/// connection.
package struct ContactDetailScreen: ScreenModel {
    package var contact: Contact
    package var revealed: ContactSensitive?
    package var online: Bool
    package var lastUpdated: Date?
    package var error: String?

    package var identifier: String { UIIdentifier.contactDetailScreen }

    package func elements() -> [UIElement] {
        var elements = ActivitiesTabs.elements
        var attributes = [
            "contactId": contact.id.wire, "name": contact.name, "area": contact.area,
            "lastVisit": contact.lastVisit ?? "",
        ]
        if let lastUpdated { attributes["lastUpdated"] = OutpostJSON.format(lastUpdated) }
        elements.append(
            UIElement(
                UIIdentifier.contactCachedInfo,
                "\(contact.name) · \(contact.area) · last visit \(contact.lastVisit ?? "none yet")", attributes))
        if let error { elements.append(UIElement(UIIdentifier.activityError, error)) }
        guard !contact.sensitiveFields.isEmpty else { return elements }
        if let revealed {
            for (field, label, value) in [
                ("address", "Address", revealed.address), ("phone", "Phone", revealed.phone),
                ("healthNotes", "Health notes", revealed.healthNotes),
            ] {
                if let value {
                    elements.append(
                        UIElement(UIIdentifier.contactSensitiveField, "\(label): \(value)", ["field": field]))
                }
            }
        } else if !online {
            elements.append(
                UIElement(
                    UIIdentifier.contactEncryptedOffline,
                    "Encrypted content requires a connection. The details above are saved on this device.",
                    ["tone": "neutral", "fields": contact.sensitiveFields.joined(separator: ",")]))
        } else {
            elements.append(
                UIElement(
                    UIIdentifier.contactReveal, "Show contact details",
                    ["fields": contact.sensitiveFields.joined(separator: ",")]))
        }
        return elements
    }
}
