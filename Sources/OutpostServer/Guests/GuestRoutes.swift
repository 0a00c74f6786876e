import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Guests: the list, create, update, CSV import.
struct GuestRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listGuests, use: list)
        group.on(API.createGuest, use: create)
        group.on(API.showGuest, use: show)
        group.on(API.updateGuest, use: update)
        group.on(API.importGuests, use: importCSV)
        group.on(API.guestFields, use: fields)
        group.on(API.setGuestFields, use: setFields)
        group.on(API.bulkUpdateGuests, use: bulkUpdate)
    }

    /// One change to many guests (organizer): written in transactions of ``Store/bulkChunk``
    /// guests, each guest as its own update would be (the doors learn it at their next sync).
    @Sendable func bulkUpdate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.bulkUpdateGuests.parameters(in: context), context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(BulkGuestUpdate.self, from: request)
        guard (1...BulkGuestUpdate.maxGuests).contains(body.guestIds.count) else {
            throw APIError.invalidRequest(
                "'guestIds' names 1 to \(BulkGuestUpdate.maxGuests) guests.", status: .unprocessableContent)
        }
        guard body.status != nil || body.accessTypeId != nil else {
            throw APIError.invalidRequest(
                "Say what changes: 'status', 'accessTypeId' or both.", status: .unprocessableContent)
        }
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.bulkUpdateGuests(
                    eventId: event.id, ids: body.guestIds, status: body.status, accessTypeId: body.accessTypeId))
        } catch StoreError.unknownAccessType {
            throw Self.unknownAccessType
        }
    }

    /// The event's guest fields, in order (whoever works the event: the door shows them).
    @Sendable func fields(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(API.guestFields.parameters(in: context), context, dependencies)
        return try HTTPHelpers.json(GuestFieldList(fields: try await dependencies.store.guestFields(eventId: event.id)))
    }

    /// Replaces the event's guest fields (organizer). A field keeps its id and kind; one left
    /// out is removed, its values kept but no longer shown.
    @Sendable func setFields(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.setGuestFields.parameters(in: context), context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(GuestFieldList.self, from: request)
        let list: GuestFieldList
        switch GuestFieldRules.validated(body) {
        case .success(let valid): list = valid
        case .failure(let refusal): throw APIError.invalidRequest(refusal.sentence, status: .unprocessableContent)
        }
        switch try await dependencies.store.setGuestFields(eventId: event.id, list: list, now: dependencies.clock.now())
        {
        case .saved(let saved): return try HTTPHelpers.json(saved)
        case .kindChanged(let label):
            throw APIError(
                .conflict, .versionConflict,
                "\(label) keeps its kind (guests' values are of it); add a new field for the other kind.")
        case .idTaken:
            throw APIError(
                .conflict, .versionConflict, "A field id is another event's field; a new field needs its own.")
        }
    }

    /// `given` checked against the event's fields, as the store applies them.
    func fieldChanges(_ given: GuestFieldValues?, eventId: EventID) async throws -> [String: String?] {
        guard let given, !given.isEmpty else { return [:] }
        switch GuestFieldRules.changes(given, fields: try await dependencies.store.guestFields(eventId: eventId)) {
        case .success(let changes): return changes
        case .failure(let refusal): throw APIError.invalidRequest(refusal.sentence, status: .unprocessableContent)
        }
    }

    /// The guest list by name: `q` (a part of the name or e-mail, or the code), `accessTypeId`,
    /// `status`, `checkIn` (`checked_in`, `not_checked_in`), `sort` (`name`, `-name`, `email`,
    /// `-email`), `after` (a page's `next`, of the same order), `limit`.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.listGuests.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let filter = try Self.filter(request)
        var cursor: GuestListCursor?
        if let after = request.uri.queryParameters.get("after") {
            guard let parsed = GuestListCursor(token: after, sort: filter.sort) else {
                throw APIError.invalidRequest("'after' is not a cursor this server issued.")
            }
            cursor = parsed
        }
        let limit = try HTTPHelpers.limit(request, default: 50, maximum: 500)
        return try HTTPHelpers.json(
            try await dependencies.store.guestList(event: event, filter: filter, after: cursor, limit: limit))
    }

    /// The guest list's filters of a request: `q`, `accessTypeId`, `status`, `checkIn`.
    static func filter(_ request: Request) throws -> GuestFilter {
        let parameters = request.uri.queryParameters
        // A filter given must be valid (an empty one too: leave it out); only the search may be blank.
        func given(_ name: String) -> String? { parameters.get(name) }
        // `q` as forms send it: `+` is a space (a full name searched as typed).
        let query = request.formQuery("q").map { $0.trimmingCharacters(in: .whitespaces) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        var filter = GuestFilter(query: query, status: given("status"), checkIn: given("checkIn"))
        if let query = filter.query, query.count > 200 {
            throw APIError.invalidRequest("'q' is at most 200 characters.")
        }
        if let accessType = given("accessTypeId") {
            guard let id = AccessTypeID(wire: accessType) else {
                throw APIError.invalidRequest("'accessTypeId' must be an access type's id.")
            }
            filter.accessTypeId = id
        }
        if let status = filter.status, GuestStatus(rawValue: status) == nil {
            throw APIError.invalidRequest("'status' must be confirmed, cancelled or revoked.")
        }
        if let checkIn = filter.checkIn, !["checked_in", "not_checked_in"].contains(checkIn) {
            throw APIError.invalidRequest("'checkIn' must be checked_in or not_checked_in.")
        }
        if let sort = given("sort") {
            guard let order = GuestSort(rawValue: sort) else {
                throw APIError.invalidRequest("'sort' must be name, -name, email or -email.")
            }
            filter.sort = order
        }
        return filter
    }

    /// One guest (organizer, support).
    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, guest) = try API.showGuest.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer, .support])
        let guestId = guest
        guard
            let guest = try await dependencies.store.database.read({
                try await Store.guest($0, eventId: event.id, id: guestId)
            })
        else { throw APIError.notFound }
        return try HTTPHelpers.json(guest)
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.createGuest.parameters(in: context), context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(CreateGuestRequest.self, from: request)
        let accessTypeId = body.accessTypeId
        let guest = NewGuest(
            name: try HTTPHelpers.nonEmpty(body.name, "name"), email: try UserRoutes.validEmail(body.email),
            accessTypeId: accessTypeId, notes: body.notes ?? "",
            fields: GuestFieldRules.applying(try await fieldChanges(body.fields, eventId: event.id), to: [:]))
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.createGuest(eventId: event.id, guest: guest, caller: context.caller),
                status: .created)
        } catch StoreError.unknownAccessType {
            throw Self.unknownAccessType
        }
    }

    static let unknownAccessType = APIError.invalidRequest(
        "'accessTypeId' does not name an access type of this event.", status: .unprocessableContent)

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (eventId, guest) = try API.updateGuest.parameters(in: context)
        let event = try await EventRoutes.event(eventId, context, dependencies, requiring: [.organizer])
        let guestId = guest
        var body = try await HTTPHelpers.decode(UpdateGuestRequest.self, from: request)
        if let name = body.name { body.name = try HTTPHelpers.nonEmpty(name, "name") }
        if let email = body.email { body.email = try UserRoutes.validEmail(email) }
        let changes = try await fieldChanges(body.fields, eventId: event.id)
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.updateGuest(
                    eventId: event.id, id: guestId, update: body, fieldChanges: changes, caller: context.caller))
        } catch StoreError.notFound {
            throw APIError.notFound
        } catch StoreError.unknownAccessType {
            throw Self.unknownAccessType
        }
    }

    /// The columns an upload names for the fields (`?column.email=E-mail`); a name that is not
    /// a field is refused.
    static func columnMapping(_ request: Request) throws -> [String: String] {
        var mapping: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where name.hasPrefix("column.") {
            let field = String(name.dropFirst("column.".count))
            guard GuestImport.fields.contains(field) else {
                throw APIError.invalidRequest(
                    "'\(String(name).prefix(40))' names no field; the fields are \(GuestImport.fields.joined(separator: ", "))."
                )
            }
            let column = String(value)
            guard !column.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            mapping[field] = column
        }
        return mapping
    }

    /// Streams the upload: records are parsed as the body arrives and written in transactions of
    /// ``GuestImport/chunkSize`` guests, so a large file holds no lock for long (SQLite has one
    /// for the whole database) and is never all in memory. An import cut short leaves the chunks
    /// before it written; importing the file again skips them.
    @Sendable func importCSV(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.importGuests.parameters(in: context), context, dependencies, requiring: [.organizer])
        let tooLarge = APIError(.contentTooLarge, .payloadTooLarge, "The CSV file is larger than 32 MiB; split it.")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.maxImportBytes {
            throw tooLarge
        }
        let accessTypes = try await dependencies.store.database.read {
            try await Store.accessTypes($0, eventId: event.id)
        }
        var reader = CSVStreamReader()
        var importer = GuestImport(
            accessTypes: accessTypes, rowLimit: dependencies.configuration.importRowLimit,
            mapping: try Self.columnMapping(request),
            guestFields: try await dependencies.store.guestFields(eventId: event.id))
        var received = 0
        var imported = 0
        var skipped = 0
        func write(_ guests: [NewGuest]) async throws {
            guard !guests.isEmpty else { return }
            let written = try await dependencies.store.importGuests(
                eventId: event.id, guests: guests, caller: context.caller)
            imported += written.imported
            skipped += written.skipped
        }
        for try await piece in request.body {
            received += piece.readableBytes
            guard received <= Self.maxImportBytes else { throw tooLarge }
            // Parsed 64 KiB at a time with a yield between: a large upload shares the cooperative
            // threads with everyone else's requests instead of holding one for the whole body.
            let bytes = piece.readableBytesView
            var start = bytes.startIndex
            while start < bytes.endIndex {
                let end = bytes.index(start, offsetBy: 64 << 10, limitedBy: bytes.endIndex) ?? bytes.endIndex
                for record in reader.feed(bytes[start..<end]) { try importer.add(record) }
                start = end
                while importer.pendingCount >= Self.chunkSize {
                    try await write(importer.takeGuests(Self.chunkSize))
                    await Task.yield()  // a door's check-in waiting for the database goes next
                }
                await Task.yield()
            }
        }
        for record in reader.finish() { try importer.add(record) }
        try importer.finish()
        while importer.pendingCount > 0 { try await write(importer.takeGuests(Self.chunkSize)) }
        return try HTTPHelpers.json(
            ImportResult(
                imported: imported, skipped: skipped, errors: importer.errors, errorsOmitted: importer.errorsOmitted))
    }

    static let maxImportBytes = 32 << 20
    /// Guests per write transaction of an import: a door's check-in waits for at most one. 25 kept
    /// another tenant's median check-in within 2× during a maximal import only while a check-in
    /// was slow; with the gateway's own SQLite calls it halved alone and the
    /// chunk's wait became 2.1-2.3× (import-cross-tenant-latency); 10 puts it at 1.6-1.8×.
    static let chunkSize = 10
}

/// Turns a guest CSV, record by record as it arrives, into guests to write and per-line errors.
struct GuestImport {
    /// Whole-document results (the fuzz target and tests).
    struct Plan {
        var guests: [NewGuest]
        var errors: [ImportRowError]
    }

    static let requiredColumns = ["name", "email", "access_type"]
    /// Every field a row can give, by its default column name.
    static let fields = ["name", "email", "access_type", "notes", "shares_contact"]
    /// Row errors listed in the answer; the rest are counted in `errorsOmitted`.
    static let maxListedErrors = 1_000

    /// Data rows one import reads; past it the rest of the file is refused with one error.
    let rowLimit: Int
    private let byName: [String: AccessTypeID]
    private let byId: [String: AccessTypeID]
    /// The event's guest fields: a column headed by a field's label (in any case) gives its
    /// values.
    private let guestFields: [GuestField]
    private var fieldIndex: [(field: GuestField, at: Int)] = []
    /// Which column gives which field, where the file's header names them otherwise (lower
    /// case): `["email": "e-mail address"]`.
    private let mapping: [String: String]
    private var columns: [String]?
    private var index: [String: Int] = [:]
    /// Guests read; those before `taken` were handed out by ``takeGuests(_:)``.
    private var read: [NewGuest] = []
    private var taken = 0
    private(set) var errors: [ImportRowError] = []
    private(set) var errorsOmitted = 0
    private(set) var rows = 0
    /// The row limit was reached: nothing more is read.
    private(set) var full = false

    init(
        accessTypes: [AccessTypeInfo], rowLimit: Int = 100_000, mapping: [String: String] = [:],
        guestFields: [GuestField] = []
    ) {
        self.rowLimit = rowLimit
        self.guestFields = guestFields
        self.mapping = mapping.mapValues { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var byName: [String: AccessTypeID] = [:]
        var byId: [String: AccessTypeID] = [:]
        for type in accessTypes {
            if byName[type.name.lowercased()] == nil { byName[type.name.lowercased()] = type.id }
            byId[type.id.wire] = type.id
        }
        self.byName = byName
        self.byId = byId
    }

    /// Reads `name,email,access_type,notes,shares_contact` (any column order; `notes` and
    /// `shares_contact`, yes or no for lead retrieval, optional). Access types
    /// match by name (case-insensitive) or id. A bad row is reported by its line and skipped;
    /// a bad header throws (422). The document goes through ``CSVStreamReader`` as the route
    /// reads an upload, in pieces of `pieceSize` bytes (the fuzz target varies it).
    static func plan(
        csv: some Collection<UInt8>, accessTypes: [AccessTypeInfo], pieceSize: Int = 64 << 10,
        guestFields: [GuestField] = []
    ) throws
        -> Plan
    {
        var importer = GuestImport(accessTypes: accessTypes, guestFields: guestFields)
        var reader = CSVStreamReader()
        let bytes = Array(csv)
        for start in stride(from: 0, to: bytes.count, by: max(1, pieceSize)) {
            for record in reader.feed(bytes[start..<min(start + max(1, pieceSize), bytes.count)]) {
                try importer.add(record)
            }
        }
        for record in reader.finish() { try importer.add(record) }
        try importer.finish()
        return Plan(guests: importer.takeGuests(importer.pendingCount), errors: importer.errors)
    }

    /// Guests read and not yet taken.
    var pendingCount: Int { read.count - taken }

    /// The first `count` guests read and not yet taken. Linear overall: taken guests are
    /// dropped only once a thousand have gathered (or none are left), moving just the few behind.
    mutating func takeGuests(_ count: Int) -> [NewGuest] {
        let end = min(taken + count, read.count)
        let batch = Array(read[taken..<end])
        taken = end
        if taken == read.count || taken >= 1_000 {
            read.removeFirst(taken)
            taken = 0
        }
        return batch
    }

    /// The document ended.
    func finish() throws {
        guard columns != nil else {
            throw APIError.invalidRequest(
                "The CSV is empty; it needs the header row name,email,access_type,notes.", status: .unprocessableContent
            )
        }
    }

    mutating func add(_ record: CSVRecord) throws {
        guard let columns else { return try readHeader(record) }
        guard !full else { return }
        guard rows < rowLimit else {
            full = true
            report(
                record.line,
                "The file has more than \(rowLimit) guests; this row and the ones after it were not imported. Import the rest as another file."
            )
            return
        }
        rows += 1
        switch record.fields {
        case .failure(let error):
            report(record.line, "Malformed CSV: \(error).")
        case .success(let fields):
            guard fields.count == columns.count else {
                return report(record.line, "Expected \(columns.count) fields, found \(fields.count).")
            }
            func field(_ name: String) -> String {
                index[name].map { fields[$0].trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            }
            let name = field("name")
            guard !name.isEmpty else { return report(record.line, "The name is empty.") }
            guard let email = try? UserRoutes.validEmail(field("email")) else {
                return report(record.line, "'\(field("email").prefix(80))' is not an e-mail address.")
            }
            let typeText = field("access_type")
            guard let accessTypeId = byName[typeText.lowercased()] ?? byId[typeText.lowercased()] else {
                return report(record.line, "Unknown access type '\(typeText.prefix(80))'.")
            }
            let shares = field("shares_contact").lowercased()
            let sharesContact: Bool?
            switch shares {
            case "": sharesContact = nil
            case "yes", "y", "true", "1": sharesContact = true
            case "no", "n", "false", "0": sharesContact = false
            default: return report(record.line, "shares_contact is yes or no (or empty).")
            }
            var values: GuestFieldValues = [:]
            for (guestField, at) in fieldIndex {
                switch GuestFieldRules.cell(fields[at], for: guestField) {
                case .success(let value): values[guestField.id.wire] = value
                case .failure(let refusal): return report(record.line, refusal.sentence)
                }
            }
            read.append(
                NewGuest(
                    name: name, email: email, accessTypeId: accessTypeId, notes: field("notes"),
                    sharesContact: sharesContact, fields: values))
        }
    }

    private mutating func readHeader(_ header: CSVRecord) throws {
        guard case .success(let headerFields) = header.fields else {
            throw APIError.invalidRequest("The CSV header row could not be read.", status: .unprocessableContent)
        }
        let columns = headerFields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let position = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var index: [String: Int] = [:]
        for field in Self.fields {
            if let chosen = mapping[field] {
                guard let at = position[chosen] else {
                    throw APIError.invalidRequest(
                        "The column '\(chosen.prefix(80))' chosen for \(field) is not in the file's header.",
                        status: .unprocessableContent)
                }
                index[field] = at
            } else if let at = position[field] {
                index[field] = at
            }
        }
        let missing = Self.requiredColumns.filter { index[$0] == nil }
        guard missing.isEmpty else {
            throw APIError.invalidRequest(
                "The CSV header lacks \(missing.joined(separator: ", ")); expected name,email,access_type,notes, or choose the columns that hold them.",
                status: .unprocessableContent)
        }
        self.columns = columns
        self.index = index
        fieldIndex = guestFields.compactMap { field in position[field.label.lowercased()].map { (field, $0) } }
    }

    private mutating func report(_ line: Int, _ error: String) {
        if errors.count < Self.maxListedErrors {
            errors.append(ImportRowError(line: line, error: error))
        } else {
            errorsOmitted += 1
        }
    }
}
