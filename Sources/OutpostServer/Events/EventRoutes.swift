import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Events, access types, staff assignment, stats and audit.
struct EventRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listEvents, use: list)
        group.on(API.createEvent, use: create)
        group.on(API.getEvent, use: show)
        group.on(API.updateEvent, use: update)
        group.on(API.cloneEvent, use: clone)
        group.on(API.createAccessType, use: createAccessType)
        group.on(API.listStaff, use: staff)
        group.on(API.assignStaff, use: assignStaff)
        group.on(API.unassignStaff, use: unassignStaff)
        group.on(API.stats, use: stats)
        group.on(API.audit, use: audit)
    }

    /// Resolves the path's event for the caller: unknown, other tenant's and unassigned events
    /// are the same 404.
    static func event(
        _ id: EventID, _ context: AuthenticatedContext, _ dependencies: ServerDependencies
    ) async throws -> EventRecord {
        guard let event = try await dependencies.store.event(id, visibleTo: context.caller) else {
            throw APIError.notFound
        }
        return event
    }

    /// The path's event, when the caller's role on it is one of `roles`: their own role, or
    /// organizer on the events they organize (``Store/eventAccess(_:caller:)``). An event they
    /// may not see is 404; one they see in another role, 403.
    static func event(
        _ id: EventID, _ context: AuthenticatedContext, _ dependencies: ServerDependencies,
        requiring roles: Set<UserRole>
    ) async throws -> EventRecord {
        guard let (event, role) = try await dependencies.store.eventAccess(id, caller: context.caller) else {
            throw APIError.notFound
        }
        guard roles.contains(role) else { throw APIError.forbidden }
        return event
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let range = request.uri.queryParameters.get("range") ?? "all"
        guard ["today", "week", "all"].contains(range) else {
            throw APIError.invalidRequest("'range' must be today, week or all.")
        }
        let now = dependencies.clock.now()
        let events = try await dependencies.store.events(visibleTo: context.caller).filter {
            Self.event($0, isIn: range, now: now)
        }
        var infos = events.map(\.info)
        let counts = request.uri.queryParameters.get("counts")
        guard counts == nil || counts == "true" || counts == "false" else {
            throw APIError.invalidRequest("'counts' must be true or false.")
        }
        // The counts for those who may read them (the door roles see the events, not the guests;
        // an event's own organizer, that event's).
        if counts == "true" {
            let everyEvent = [.organizer, .support].contains(context.caller.role)
            let organized =
                everyEvent ? [] : try await dependencies.store.organizedEvents(userId: context.caller.userId)
            if everyEvent || !organized.isEmpty {
                let byEvent = try await dependencies.store.eventCounts(tenantId: context.caller.tenantId)
                for index in infos.indices where everyEvent || organized.contains(infos[index].id) {
                    infos[index].counts = byEvent[infos[index].id] ?? EventCounts(guests: 0, checkedIn: 0)
                }
            }
        }
        return try HTTPHelpers.json(EventList(events: infos))
    }

    /// A new event like this one (organizer): its modules, access types, staff and badge layout,
    /// with the name and times given; no guests.
    @Sendable func clone(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        // A new event is the organisation's: an event's own organizer cannot make one.
        try context.require([.organizer])
        let original = try await Self.event(API.cloneEvent.parameters(in: context), context, dependencies)
        var body = try await HTTPHelpers.decode(CloneEventRequest.self, from: request)
        body.name = try HTTPHelpers.nonEmpty(body.name, "name")
        guard body.endsAt >= body.startsAt else {
            throw APIError.invalidRequest("'endsAt' must not be before 'startsAt'.", status: .unprocessableContent)
        }
        if let zone = body.timeZone, TimeZone(identifier: zone) == nil {
            throw APIError.invalidRequest(
                "'timeZone' must be an IANA time zone such as Europe/Oslo.", status: .unprocessableContent)
        }
        let event = try await dependencies.store.cloneEvent(original, as: body, now: dependencies.clock.now())
        return try HTTPHelpers.json(event.info, status: .created)
    }

    /// `today`: the event overlaps the current calendar day in the event's own time zone;
    /// `week`: it overlaps the seven days starting today.
    static func event(_ event: EventRecord, isIn range: String, now: Date) -> Bool {
        guard range != "all" else { return true }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: event.timeZone) ?? .gmt
        let dayStart = calendar.startOfDay(for: now)
        let days = range == "today" ? 1 : 7
        guard let end = calendar.date(byAdding: .day, value: days, to: dayStart) else { return false }
        return event.startsAt < end && event.endsAt >= dayStart
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        var body = try await HTTPHelpers.decode(CreateEventRequest.self, from: request)
        body.name = try HTTPHelpers.nonEmpty(body.name, "name")
        guard body.endsAt >= body.startsAt else {
            throw APIError.invalidRequest("'endsAt' must not be before 'startsAt'.", status: .unprocessableContent)
        }
        guard TimeZone(identifier: body.timeZone) != nil else {
            throw APIError.invalidRequest(
                "'timeZone' must be an IANA time zone such as Europe/Oslo.", status: .unprocessableContent)
        }
        try Self.checkModules(body.modules)
        let event = try await dependencies.store.createEvent(tenantId: context.caller.tenantId, request: body)
        return try HTTPHelpers.json(event.info, status: .created)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let (event, role) = try await dependencies.store.eventAccess(
                API.getEvent.parameters(in: context), caller: context.caller)
        else { throw APIError.notFound }
        return try HTTPHelpers.json(
            EventDetail(
                event: event.info, accessTypes: try await dependencies.store.accessTypes(eventId: event.id),
                kioskOrientation: event.kiosk?.orientation.rawValue, role: role))
    }

    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await Self.event(
            API.updateEvent.parameters(in: context), context, dependencies, requiring: [.organizer])
        var body = try await HTTPHelpers.decode(UpdateEventRequest.self, from: request)
        if let name = body.name { body.name = try HTTPHelpers.nonEmpty(name, "name") }
        guard (body.endsAt ?? event.endsAt) >= (body.startsAt ?? event.startsAt) else {
            throw APIError.invalidRequest("'endsAt' must not be before 'startsAt'.", status: .unprocessableContent)
        }
        if let zone = body.timeZone, TimeZone(identifier: zone) == nil {
            throw APIError.invalidRequest(
                "'timeZone' must be an IANA time zone such as Europe/Oslo.", status: .unprocessableContent)
        }
        try Self.checkModules(body.modules)
        let updated = try await dependencies.store.updateEvent(event, with: body)
        return try HTTPHelpers.json(updated.info)
    }

    /// An event's modules are names (`checkin`, `efx`), kept comma-joined.
    static func checkModules(_ modules: [String]?) throws {
        if let modules, modules.contains(where: { $0.isEmpty || $0.contains(",") || $0.count > 32 }) {
            throw APIError.invalidRequest(
                "'modules' must be names (1 to 32 characters) without commas.", status: .unprocessableContent)
        }
    }

    @Sendable func createAccessType(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await Self.event(
            API.createAccessType.parameters(in: context), context, dependencies, requiring: [.organizer])
        let body = try await HTTPHelpers.decode(CreateAccessTypeRequest.self, from: request)
        if let capacity = body.walkInCapacity {
            guard body.walkInAllowed == true, (0...1_000_000).contains(capacity) else {
                throw APIError.invalidRequest(
                    "'walkInCapacity' is a number from 0 to 1,000,000, for an access type that allows walk-ins.",
                    status: .unprocessableContent)
            }
        }
        let accessType = try await dependencies.store.createAccessType(
            eventId: event.id, name: try HTTPHelpers.nonEmpty(body.name, "name"),
            walkInAllowed: body.walkInAllowed ?? false, walkInCapacity: body.walkInCapacity)
        return try HTTPHelpers.json(accessType, status: .created)
    }

    /// Puts a user on the event's staff (organizer of the organisation): with `role=organizer`, as
    /// this event's organizer, and no other's; without, in their own role. Putting them on again
    /// sets the role anew.
    @Sendable func assignStaff(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        // The team is the organisation's to give: an event's own organizer cannot grant it.
        try context.require([.organizer])
        let (eventId, userId) = try API.assignStaff.parameters(in: context)
        let event = try await Self.event(eventId, context, dependencies)
        var eventRole: UserRole?
        if let role = request.uri.queryParameters.get("role") {
            guard role == UserRole.organizer.rawValue else {
                throw APIError.invalidRequest("'role' is organizer, or left out for the user's own role.")
            }
            eventRole = .organizer
        }
        guard let staff = try await dependencies.store.user(id: userId, tenantId: context.caller.tenantId) else {
            throw APIError.notFound
        }
        // On the staff, a user reads the roster: an exhibitor sees only the leads of their booths.
        guard staff.role != .exhibitor else {
            throw APIError.invalidRequest(
                "An exhibitor works a booth, not the event's staff: put them on a booth instead.",
                status: .unprocessableContent)
        }
        // A partner's block manager names their block's tickets and sees nothing else of the event.
        guard staff.role != .blockManager else {
            throw APIError.invalidRequest(
                "A block manager names their block's tickets, not the event's staff: make them a block's manager instead.",
                status: .unprocessableContent)
        }
        // An event's organizer works its doors too: check-in staff and support are made one; a
        // mentor or a care worker works no event.
        if eventRole == .organizer, ![.checkinStaff, .support].contains(staff.role) {
            throw APIError.invalidRequest(
                staff.role == .organizer
                    ? "An organizer of the organisation organizes every event already."
                    : "Only check-in staff and support can be made an event's organizer.",
                status: .unprocessableContent)
        }
        try await dependencies.store.assignStaff(eventId: event.id, userId: userId, role: eventRole)
        return Response(status: .noContent)
    }

    /// The event's staff, by name (organizer, support).
    @Sendable func staff(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await Self.event(
            API.listStaff.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(
            UserList(
                users: try await dependencies.store.staff(eventId: event.id).map { member in
                    var info = member.user.info
                    info.eventRole = member.eventRole
                    return info
                }))
    }

    @Sendable func unassignStaff(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let (eventId, user) = try API.unassignStaff.parameters(in: context)
        let event = try await Self.event(eventId, context, dependencies)
        let userId = user
        guard try await dependencies.store.unassignStaff(eventId: event.id, userId: userId) else {
            throw APIError.notFound
        }
        return Response(status: .noContent)
    }

    @Sendable func stats(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await Self.event(
            API.stats.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        return try HTTPHelpers.json(try await dependencies.store.stats(eventId: event.id))
    }

    @Sendable func audit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await Self.event(
            API.audit.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        var cursor = AuditCursor.start
        if let since = request.uri.queryParameters.get("since") {
            guard let parsed = AuditCursor(token: since) else {
                throw APIError.invalidRequest("'since' is not a cursor this server issued.")
            }
            cursor = parsed
        }
        let limit = try HTTPHelpers.limit(request, default: 1000, maximum: 10_000)
        return try HTTPHelpers.json(
            try await dependencies.store.auditPage(
                event: event, after: cursor, limit: limit, filter: try Self.auditFilter(request)))
    }

    /// `kind`, `deviceId`, `userId`, `guestId`: the audit's filters. A filter given must be valid (an empty
    /// one too is refused: leave it out).
    static func auditFilter(_ request: Request) throws -> AuditFilter {
        let parameters = request.uri.queryParameters
        func given(_ name: String) -> String? { parameters.get(name) }
        var filter = AuditFilter()
        if let kind = given("kind") {
            guard let parsed = AuditKind(rawValue: kind) else {
                throw APIError.invalidRequest(
                    "'kind' must be one of \(AuditKind.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            filter.kind = parsed
        }
        if let device = given("deviceId") {
            guard (1...100).contains(device.count) else {
                throw APIError.invalidRequest("'deviceId' is 1 to 100 characters.")
            }
            filter.deviceId = device
        }
        if let user = given("userId") {
            guard let id = UserID(wire: user) else { throw APIError.invalidRequest("'userId' must be a user's id.") }
            filter.userId = id
        }
        if let guest = given("guestId") {
            guard let id = GuestID(wire: guest) else {
                throw APIError.invalidRequest("'guestId' must be a guest's id.")
            }
            filter.guestId = id
        }
        return filter
    }
}

extension HTTPHelpers {
    /// The `limit` query parameter, within 1...maximum.
    static func limit(_ request: Request, default defaultValue: Int, maximum: Int) throws -> Int {
        guard let text = request.uri.queryParameters.get("limit") else { return defaultValue }
        guard let value = Int(text), (1...maximum).contains(value) else {
            throw APIError.invalidRequest("'limit' must be a whole number from 1 to \(maximum).")
        }
        return value
    }
}
