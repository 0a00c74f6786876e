import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Guests: create, update, CSV import.
struct GuestRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.post("events/{eventId}/guests", use: create)
        group.patch("events/{eventId}/guests/{guestId}", use: update)
        group.post("events/{eventId}/guests:import", use: importCSV)
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let event = try await EventRoutes.event(context, dependencies)
        let body = try await HTTPHelpers.decode(CreateGuestRequest.self, from: request)
        let accessTypeId = body.accessTypeId.uuid
        let guest = NewGuest(
            name: try HTTPHelpers.nonEmpty(body.name, "name"), email: try UserRoutes.validEmail(body.email),
            accessTypeId: accessTypeId, notes: body.notes ?? "")
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.createGuest(eventId: event.id, guest: guest), status: .created)
        } catch StoreError.unknownAccessType {
            throw Self.unknownAccessType
        }
    }

    static let unknownAccessType = APIError.invalidRequest(
        "'accessTypeId' does not name an access type of this event.", status: .unprocessableContent)

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let event = try await EventRoutes.event(context, dependencies)
        let guestId = try HTTPHelpers.uuid("guestId", in: context)
        var body = try await HTTPHelpers.decode(UpdateGuestRequest.self, from: request)
        if let name = body.name { body.name = try HTTPHelpers.nonEmpty(name, "name") }
        if let email = body.email { body.email = try UserRoutes.validEmail(email) }
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.updateGuest(eventId: event.id, id: guestId, update: body))
        } catch StoreError.notFound {
            throw APIError.notFound
        } catch StoreError.unknownAccessType {
            throw Self.unknownAccessType
        }
    }

    @Sendable func importCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let event = try await EventRoutes.event(context, dependencies)
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: 32 << 20)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError(.contentTooLarge, .payloadTooLarge, "The CSV file is larger than 32 MiB; split it.")
        }
        let accessTypes = try await dependencies.store.database.read {
            try await Store.accessTypes($0, eventId: event.id)
        }
        let plan = try GuestImport.plan(csv: buffer.readableBytesView, accessTypes: accessTypes)
        let written = try await dependencies.store.importGuests(eventId: event.id, guests: plan.guests)
        return try HTTPHelpers.json(
            ImportResult(imported: written.imported, skipped: written.skipped, errors: plan.errors))
    }
}

/// Turns a guest CSV into guests to write and per-line errors.
enum GuestImport {
    struct Plan {
        var guests: [NewGuest]
        var errors: [ImportRowError]
    }

    static let requiredColumns = ["name", "email", "access_type"]

    /// Reads `name,email,access_type,notes` (any column order; `notes` optional). Access types
    /// match by name (case-insensitive) or id. A bad row is reported by its line and skipped.
    static func plan(csv: some Collection<UInt8>, accessTypes: [AccessTypeInfo]) throws -> Plan {
        var records = CSVReader.records(csv)[...]
        guard let header = records.popFirst() else {
            throw APIError.invalidRequest(
                "The CSV is empty; it needs the header row name,email,access_type,notes.", status: .unprocessableContent
            )
        }
        guard case .success(let headerFields) = header.fields else {
            throw APIError.invalidRequest("The CSV header row could not be read.", status: .unprocessableContent)
        }
        let columns = headerFields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let missing = requiredColumns.filter { !columns.contains($0) }
        guard missing.isEmpty else {
            throw APIError.invalidRequest(
                "The CSV header lacks \(missing.joined(separator: ", ")); expected name,email,access_type,notes.",
                status: .unprocessableContent)
        }
        let index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var byName: [String: UUID] = [:]
        var byId: [String: UUID] = [:]
        for type in accessTypes {
            if byName[type.name.lowercased()] == nil { byName[type.name.lowercased()] = type.id.uuid }
            byId[type.id.wire] = type.id.uuid
        }
        var plan = Plan(guests: [], errors: [])
        for record in records {
            switch record.fields {
            case .failure(let error):
                plan.errors.append(ImportRowError(line: record.line, error: "Malformed CSV: \(error)."))
            case .success(let fields):
                guard fields.count == columns.count else {
                    plan.errors.append(
                        ImportRowError(
                            line: record.line, error: "Expected \(columns.count) fields, found \(fields.count)."))
                    continue
                }
                func field(_ name: String) -> String {
                    index[name].map { fields[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
                }
                let name = field("name")
                guard !name.isEmpty else {
                    plan.errors.append(ImportRowError(line: record.line, error: "The name is empty."))
                    continue
                }
                guard let email = try? UserRoutes.validEmail(field("email")) else {
                    plan.errors.append(
                        ImportRowError(
                            line: record.line, error: "'\(field("email").prefix(80))' is not an e-mail address."))
                    continue
                }
                let typeText = field("access_type")
                guard let accessTypeId = byName[typeText.lowercased()] ?? byId[typeText.lowercased()] else {
                    plan.errors.append(
                        ImportRowError(line: record.line, error: "Unknown access type '\(typeText.prefix(80))'."))
                    continue
                }
                plan.guests.append(
                    NewGuest(name: name, email: email, accessTypeId: accessTypeId, notes: field("notes")))
            }
        }
        return plan
    }
}
