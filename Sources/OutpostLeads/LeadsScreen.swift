import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// An exhibitor's lead station: their booths (the chosen one marked), the last scan's answer,
/// the booth's leads (the attendee's name only while they share it; else the ticket's opaque
/// id, resolved when they agree), and conflicts to resolve.
package struct LeadsScreen: ScreenModel, Sendable {
    package struct Row: Sendable, Hashable {
        package var lead: LocalLead
        package var syncing: Bool
    }

    package var booths: [MyBooth]
    package var chosen: BoothID?
    package var rows: [Row]
    package var conflicts: [LeadConflictRecord]
    package var last: LeadsState.Result?

    package var identifier: String { UIIdentifier.leadsScreen }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.leadsScreen, "Leads")]
        for mine in booths {
            let marked = mine.booth.id == chosen
            elements.append(
                UIElement(
                    UIIdentifier.leadsBooth, (marked ? "▶ " : "  ") + "\(mine.booth.name) · \(mine.event.name)",
                    ["boothId": mine.booth.id.wire, "chosen": marked ? "true" : "false"]))
        }
        if booths.isEmpty {
            elements.append(UIElement(UIIdentifier.leadsBooth, "You are on no booth yet: the organizer adds you."))
        }
        if let last {
            var attributes = ["result": last.captured ? "green" : "red"]
            if let id = last.leadId { attributes["leadId"] = id.wire }
            elements.append(UIElement(UIIdentifier.leadsResult, last.sentence, attributes))
        }
        for conflict in conflicts {
            elements.append(
                UIElement(
                    UIIdentifier.leadsConflict,
                    "Changed on another device: \(conflict.theirs.contact?.name ?? "this lead") · keep yours or theirs",
                    ["leadId": conflict.leadId.wire]))
        }
        for row in rows {
            let lead = row.lead
            var words = [lead.attendee]
            if lead.content.rating > 0 { words.append(String(repeating: "★", count: lead.content.rating)) }
            if !lead.content.notes.isEmpty { words.append(lead.content.notes) }
            if row.syncing { words.append("waiting to sync") }
            elements.append(
                UIElement(
                    UIIdentifier.leadsRow, words.joined(separator: " · "),
                    [
                        "leadId": lead.id.wire, "rating": String(lead.content.rating),
                        "shared": lead.contact == nil ? "false" : "true", "syncing": row.syncing ? "true" : "false",
                        "version": String(lead.version),
                    ]))
        }
        return elements
    }
}
