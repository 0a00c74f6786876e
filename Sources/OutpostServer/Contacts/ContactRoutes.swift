import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The people peer mentors visit (seed 004): `GET /v1/contacts`, `POST /v1/contacts`,
/// `POST /v1/contacts/{id}/reveal`, `GET /v1/contacts/{id}/reveals`, and
/// `PUT`/`DELETE /v1/contacts/{id}/mentors/{userId}`. Sensitive fields are sealed under the
/// tenant's data key (envelope encryption) and leave the server only through the audited reveal.
struct ContactRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listContacts, use: list)
        group.on(API.createContact, use: create)
        group.on(API.contactChanges, use: changes)
        group.on(API.updateContact, use: update)
        group.on(API.eraseContact, use: erase)
        group.on(API.revealContact, use: reveal)
        group.on(API.contactReveals, use: reveals)
        group.on(API.assignMentor, use: assign)
        group.on(API.unassignMentor, use: unassign)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .mentor])
        let contacts = try await dependencies.store.contacts(visibleTo: context.caller)
        return try HTTPHelpers.json(ContactList(contacts: contacts, serverTime: dependencies.clock.now()))
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        var body = try await HTTPHelpers.decode(CreateContactRequest.self, from: request)
        body.name = try HTTPHelpers.nonEmpty(body.name, "name")
        body.area = body.area.trimmingCharacters(in: .whitespacesAndNewlines)
        for (field, value) in [("address", body.address), ("phone", body.phone), ("healthNotes", body.healthNotes)] {
            guard (value?.count ?? 0) <= 4000 else {
                throw APIError.invalidRequest(
                    "'\(field)' must be at most 4000 characters.", status: .unprocessableContent)
            }
        }
        let contact = try await dependencies.store.createContact(
            tenantId: context.caller.tenantId, request: body, keys: dependencies.keyEncryptionKeys,
            now: dependencies.clock.now())
        return try HTTPHelpers.json(contact, status: .created)
    }

    /// A coordinator edits a contact's details (the sensitive ones stay sealed); audited.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.updateContact.parameters(in: context)
        var body = try await HTTPHelpers.decode(UpdateContactRequest.self, from: request)
        if let name = body.name { body.name = try HTTPHelpers.nonEmpty(name, "name") }
        body.area = body.area?.trimmingCharacters(in: .whitespacesAndNewlines)
        for (field, value) in [("address", body.address), ("phone", body.phone), ("healthNotes", body.healthNotes)] {
            guard (value?.count ?? 0) <= 4000 else {
                throw APIError.invalidRequest(
                    "'\(field)' must be at most 4000 characters.", status: .unprocessableContent)
            }
        }
        guard
            let contact = try await dependencies.store.updateContact(
                id, body, caller: context.caller, keys: dependencies.keyEncryptionKeys, now: dependencies.clock.now())
        else { throw APIError.notFound }
        return try HTTPHelpers.json(contact)
    }

    /// A coordinator erases a contact (the right to erasure): its personal data goes, its
    /// activities stay as counts; audited.
    @Sendable func erase(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.eraseContact.parameters(in: context)
        guard
            try await dependencies.store.eraseContact(
                id, caller: context.caller, keys: dependencies.keyEncryptionKeys, now: dependencies.clock.now())
                != nil
        else { throw APIError.notFound }
        return Response(status: .noContent)
    }

    @Sendable func changes(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        return try HTTPHelpers.json(
            ContactChangeList(changes: try await dependencies.store.contactChanges(tenantId: context.caller.tenantId)))
    }

    /// The sensitive fields, decrypted for this answer only: audited, never cached on the way.
    @Sendable func reveal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer, .mentor])
        let id = try API.revealContact.parameters(in: context)
        guard
            let fields = try await dependencies.store.revealContact(
                id, caller: context.caller, keys: dependencies.keyEncryptionKeys, now: dependencies.clock.now())
        else { throw APIError.notFound }
        var response = try HTTPHelpers.json(fields)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func reveals(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.contactReveals.parameters(in: context)
        guard let reveals = try await dependencies.store.contactReveals(id, tenantId: context.caller.tenantId) else {
            throw APIError.notFound
        }
        return try HTTPHelpers.json(ContactRevealList(reveals: reveals))
    }

    @Sendable func assign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (contact, user) = try API.assignMentor.parameters(in: context)
        return try await setMentor(contact, user, context, assigned: true)
    }

    @Sendable func unassign(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (contact, user) = try API.unassignMentor.parameters(in: context)
        return try await setMentor(contact, user, context, assigned: false)
    }

    private func setMentor(
        _ contact: ContactID, _ user: UserID, _ context: AuthenticatedContext, assigned: Bool
    ) async throws -> Response {
        try context.require([.organizer])
        guard
            try await dependencies.store.setContactMentor(
                contact, userId: user, tenantId: context.caller.tenantId, assigned: assigned)
        else { throw APIError.notFound }
        return Response(status: .noContent)
    }
}
