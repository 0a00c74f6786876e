import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// The peer-mentor calls (seed 004) the lab and the tests make.
extension LabClient {
    package func createContact(_ contact: CreateContactRequest) async throws -> Contact {
        try await call(API.createContact, json: contact, what: "creating contact \(contact.name)")
    }

    package func assignContact(_ contact: ContactID, to mentor: UserID) async throws {
        try await expect(API.assignMentor.line(contact, mentor), what: "assigning contact \(contact)")
    }

    package func unassignContact(_ contact: ContactID, from mentor: UserID) async throws {
        try await expect(API.unassignMentor.line(contact, mentor), what: "unassigning contact \(contact)")
    }

    package func contacts() async throws -> [Contact] {
        try await call(API.listContacts, what: "listing contacts").contacts
    }

    package func activities() async throws -> [Activity] {
        try await call(API.listActivities, what: "listing activities").activities
    }

    package func reveals(_ contact: ContactID) async throws -> [ContactReveal] {
        try await call(API.contactReveals, contact, what: "listing reveals").reveals
    }

    /// `PUT /v1/activities/{id}`: the raw answer (201, 200 or 409 are all meaningful).
    package func putActivity(_ id: ActivityID, _ write: ActivityWrite) async throws -> TransportResponse {
        try await request(API.writeActivity.line(id), json: write)
    }

    package func setTenantSettings(_ settings: TenantSettings) async throws {
        try await expect(API.setTenantSettings.line(), json: settings, what: "setting the tenant's settings")
    }
}
