import Foundation
import OutpostCore
import OutpostProtocol

/// A lead as this device holds it: the content as last written here (or pulled), the server's
/// version, the version its queued writes will reach, and the attendee's details while shared.
package struct LocalLead: Codable, Sendable, Hashable {
    package var id: LeadID
    package var boothId: BoothID
    package var content: LeadContent
    /// The server's version (0: not on the server yet).
    package var version: Int
    /// The version the server will have once this device's queued writes apply.
    package var expectedVersion: Int
    package var contact: SharedContact?
    package var capturedBy: String

    package init(
        id: LeadID, boothId: BoothID, content: LeadContent, version: Int, expectedVersion: Int,
        contact: SharedContact?, capturedBy: String
    ) {
        self.id = id
        self.boothId = boothId
        self.content = content
        self.version = version
        self.expectedVersion = expectedVersion
        self.contact = contact
        self.capturedBy = capturedBy
    }

    package init(server lead: Lead) {
        self.init(
            id: lead.id, boothId: lead.boothId, content: lead.content, version: lead.version,
            expectedVersion: lead.version, contact: lead.contact, capturedBy: lead.capturedBy)
    }

    /// The attendee as the booth may see them: their name while shared, else the ticket's opaque id.
    package var attendee: String {
        contact?.name ?? "Attendee \(content.guestId.wire.prefix(8))"
    }
}

/// Both sides of a lead two devices edited at once: the edit this device made and the lead as
/// the server has it. Kept until the exhibitor chooses; pending work at sign-out.
package struct LeadConflictRecord: Codable, Sendable, Hashable {
    package var leadId: LeadID
    package var mine: LeadContent
    package var theirs: Lead
}

/// An outbox entry's request: the lead and the write.
package struct LeadOutboxRequest: Codable, Sendable, Hashable {
    package var boothId: BoothID
    package var leadId: LeadID
    package var write: LeadWrite
}
