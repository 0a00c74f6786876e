import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore
import OutpostCore
import OutpostProtocol

/// The organizer console under `/admin`: server-rendered pages over the API. Every
/// page reads through ``ConsoleAPI`` and every form changes things through it, so the console
/// has the API's accounts, roles, rate limits and tenant isolation and no second copy of them.
/// Its own rules: a form post must come from the console's origin and carry the CSRF token of
/// its session; every answer carries the security headers of ``ConsoleHeaders``.
struct ConsoleRoutes: Sendable {
    let dependencies: ServerDependencies
    let api: ConsoleAPI
    let library: MustacheLibrary

    init(dependencies: ServerDependencies, responder: ConsoleAPI.Responder) {
        self.dependencies = dependencies
        self.api = ConsoleAPI(responder: responder)
        // The templates are compiled into the binary; one that does not parse is a programming
        // error the console tests catch.
        self.library = try! ConsoleTemplates.library()
    }

    func register(on router: Router<AppRequestContext>) {
        let configuration = dependencies.configuration
        let group = router.group().add(
            middleware: ConsoleHeaders { request, context in
                ConsoleHeaders.isSecure(request, context, configuration: configuration)
            })
        group.on(ConsolePages.home, use: home)
        group.on(ConsolePages.signInPage, use: signInPage)
        group.on(ConsolePages.signIn, use: signIn)
        group.on(ConsolePages.signOut, use: signOut)
        group.on(ConsolePages.events, use: events)
        group.on(ConsolePages.createEvent, use: createEvent)
        group.on(ConsolePages.event, use: event)
        group.on(ConsolePages.updateEvent, use: updateEvent)
        group.on(ConsolePages.cloneEvent, use: cloneEvent)
        group.on(ConsolePages.createAccessType, use: createAccessType)
        group.on(ConsolePages.assignStaff, use: assignStaff)
        group.on(ConsolePages.unassignStaff, use: unassignStaff)
        group.on(ConsolePages.setUpKiosk, use: setUpKiosk)
        group.on(ConsolePages.staff, use: staff)
        group.on(ConsolePages.createUser, use: createUser)
        group.on(ConsolePages.removeUser, use: removeUser)
        group.on(ConsolePages.updateUser, use: updateUser)
        group.on(ConsolePages.signOutUser, use: signOutUser)
        group.on(ConsolePages.turnOffUserTwoFactor, use: turnOffUserTwoFactor)
        registerPasswordLinks(on: group)
        registerDevices(on: group)
        registerBulkGuests(on: group)
        group.on(ConsolePages.tickets, use: tickets)
        group.on(ConsolePages.guests, use: guests)
        group.on(ConsolePages.importPage, use: importPage)
        group.on(ConsolePages.importGuests, use: importGuests)
        registerDashboard(on: group)
        registerGuest(on: group)
        registerAudit(on: group)
        registerWalkIns(on: group)
        registerBadges(on: group)
        registerSingleSignOn(on: group)
        registerZones(on: group)
        registerPickup(on: group)
        registerLeads(on: group)
        registerTicketBlocks(on: group)
        registerTicketMails(on: group)
        registerSettings(on: group)
        registerTwoFactor(on: group)
        registerMentoring(on: group)
        group.on(ConsolePages.style) { _, _ in Self.asset(ConsoleAssets.css, type: "text/css; charset=utf-8") }
        group.on(ConsolePages.importScript) { _, _ in
            Self.asset(ConsoleAssets.importScript, type: "text/javascript; charset=utf-8")
        }
    }

    // MARK: - Pages and forms

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        Self.redirect(Self.session(request) == nil ? ConsolePages.signInPage.path() : ConsolePages.events.path())
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if Self.session(request) != nil { return Self.redirect(ConsolePages.events.path()) }
        return try await signInForm(email: "", error: nil, notice: Self.flash(request))
    }

    func signInForm(
        email: String, error: String?, status: HTTPResponse.Status = .ok, notice: String? = nil
    ) async throws -> Response {
        try await signedOutPage("signIn", ["email": email], error: error, status: status, notice: notice)
    }

    /// A page of the signed-out forms: a fresh nonce in the sign-in cookie and its CSRF token in
    /// the page's form.
    func signedOutPage(
        _ template: String, _ values: [String: Any], error: String?, status: HTTPResponse.Status,
        title: String = "Sign in", notice: String? = nil
    ) async throws -> Response {
        let nonce = ConsoleSession.makeNonce()
        var values = values
        values["csrf"] = try await csrf().token(for: nonce)
        var response = try await page(
            template, title: title, values, error: error, session: nil, notice: notice, status: status)
        response.setCookie(cookie(ConsoleSession.preCookieName, nonce, maxAge: 3_600))
        return response
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        struct Form: SignedOutForm {
            var email: String
            var password: String
            var _csrf: String?
        }
        guard let form = try await signedOutForm(Form.self, request) else { return try await forbidden() }
        let body = try JSONEncoder().encode([
            "email": form.email, "password": form.password, "deviceId": "console",
        ])
        let (status, data) = try await api.call(API.signIn.line(), json: body, from: request, context: context)
        let answer = ConsoleAPI.Answer(status: status, body: data, renewed: nil)
        guard status == .ok, let pair = try? answer.decode(TokenPair.self) else {
            // The password was right; the code follows on a page of its own.
            if answer.errorCode == APIErrorCode.twoFactorRequired.rawValue,
                let challenge = try? answer.decode(ErrorBody.self).challenge
            {
                return try await signInCodeForm(challenge: challenge, error: nil, status: .ok)
            }
            return try await signInForm(
                email: form.email, error: answer.message,
                status: status == .tooManyRequests ? .tooManyRequests : .unauthorized)
        }
        return sessionStarted(pair)
    }

    /// A form of the signed-out pages (sign-in, single sign-on): from the console's origin, with
    /// the CSRF token of the sign-in page's cookie; nil when the token is not that.
    func signedOutForm<Form: SignedOutForm>(_ type: Form.Type, _ request: Request) async throws -> Form? {
        try guardOrigin(request)
        let form = try await Self.form(Form.self, request)
        let valid = try await csrf().isValid(form._csrf, for: request.cookies[ConsoleSession.preCookieName]?.value)
        return valid ? form : nil
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        try guardOrigin(request)
        guard let session = Self.session(request) else { return Self.redirect(ConsolePages.signInPage.path()) }
        try await requireToken(request, session)
        let body = try JSONEncoder().encode(["refreshToken": session.refreshToken])
        _ = try await api.call(API.signOut.line(), json: body, from: request, context: context)
        var response = Self.redirect(ConsolePages.signInPage.path())
        response.setCookie(cookie(ConsoleSession.cookieName, "", maxAge: 0))
        return response
    }

    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            try await eventsPage(request, session, call, draft: nil)
        }
    }

    /// The events and the new-event form (with a refused one's draft).
    func eventsPage(
        _ request: Request, _ session: ConsoleSession, _ call: Call, draft: FormDraft?
    ) async throws -> Response {
        let list = try await call(API.listEvents.line(query: [("range", "all"), ("counts", "true")]), nil)
            .decode(EventList.self)
        // An exhibitor works no event: their booths are their way in.
        let booths =
            Self.role(session) == .exhibitor
            ? try await call(API.myBooths.line(), nil).decode(MyBooths.self).booths.map { mine -> [String: Any] in
                ["id": mine.booth.id.wire, "name": mine.booth.name, "event": mine.event.name]
            } : []
        // A block manager works no event either: their blocks are.
        let blocks =
            Self.role(session) == .blockManager
            ? try await call(API.myTicketBlocks.line(), nil).decode(MyTicketBlocks.self).blocks.map {
                mine -> [String: Any] in
                [
                    "id": mine.block.id.wire, "partner": mine.block.partner, "event": mine.event.name,
                    "named": mine.block.named, "size": mine.block.size,
                ]
            } : []
        func row(_ event: EventInfo) -> [String: Any] {
            var row: [String: Any] = [
                "id": event.id.wire, "name": event.name, "timeZone": event.timeZone,
                "starts": Self.local(event.startsAt, event.timeZone, display: true),
                "ends": Self.local(event.endsAt, event.timeZone, display: true),
            ]
            if let counts = event.counts {
                row["counts"] = [
                    "guests": Self.grouped(counts.guests), "checkedIn": Self.grouped(counts.checkedIn),
                ]
            }
            return row
        }
        // Running and upcoming first, soonest first; then the past, the latest first.
        let now = dependencies.clock.now()
        let upcoming = list.events.filter { $0.endsAt >= now }
        let past = list.events.filter { $0.endsAt < now }.reversed()
        // New events start in the tenant's zone; without one, in the browser's (events.js).
        let canCreate = Self.role(session) == .organizer
        var zone = TimeZone.current.identifier
        var browserZone = false
        if canCreate {
            let settings = try await call(API.tenantSettings.line(), nil).decode(TenantSettings.self)
            if let tenantZone = settings.timeZone { zone = tenantZone } else { browserZone = true }
        }
        var values: [String: Any] = [
            "events": upcoming.map(row), "past": past.map(row), "hasPast": !past.isEmpty,
            "showCounts": list.events.contains { $0.counts != nil }, "canCreate": canCreate,
            "isExhibitor": Self.role(session) == .exhibitor, "booths": booths,
            "isBlockManager": Self.role(session) == .blockManager, "blocks": blocks,
            "form": ["timeZone": zone], "browserZone": browserZone && draft == nil,
            "zones": TimeZone.knownTimeZoneIdentifiers,
        ]
        draft?.apply(to: &values, defaults: ["timeZone": zone])
        return try await page("events", title: "Events", values, session: session, notice: Self.flash(request))
    }

    @Sendable func createEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(
            request, context,
            redisplay: { draft, session, call in try await eventsPage(request, session, call, draft: draft) }
        ) { session, form, call in
            let fields = try EventForm(form)
            let body = try OutpostJSON.encode(
                CreateEventRequest(
                    name: fields.name, startsAt: fields.startsAt, endsAt: fields.endsAt, timeZone: fields.timeZone))
            let answer = try await call(API.createEvent.line(), body)
            guard answer.status == .created, let created = try? answer.decode(EventInfo.self) else {
                return .refused(answer, back: ConsolePages.events.path())
            }
            return .redirect(ConsolePages.event.path(created.id, query: [("done", "created")]))
        }
    }

    @Sendable func event(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.event.parameters(in: context)
        return try await signedIn(request, context) { session, call in
            try await eventPage(request, id, session, call, draft: nil)
        }
    }

    /// The event page's forms a draft can be of: each keeps its values and errors apart.
    enum EventPageForm: String {
        case edit = "form"
        case clone
        case accessType
    }

    /// The event's page (with a refused form's draft, shown in that form).
    func eventPage(
        _ request: Request, _ id: EventID, _ session: ConsoleSession, _ call: Call,
        draft: (form: EventPageForm, draft: FormDraft)?
    ) async throws -> Response {
        let detail = try await eventDetail(id, call)
        let event = detail.event
        let role = Self.role(session, on: detail)
        // The team is the organisation's organizers' to give (an event's own organizer works
        // with the staff they are given).
        let canTeam = Self.role(session) == .organizer
        // What the role may read: the API answers 403 for the rest, and the page leaves it out.
        let staff = try await call(API.listStaff.line(event.id), nil)
        let users = canTeam ? try await call(API.listUsers.line(), nil) : nil
        let staffList = staff.status == .ok ? try staff.decode(UserList.self).users : []
        let assignable = (try users?.decode(UserList.self).users ?? []).filter { user in
            !staffList.contains { $0.id == user.id } && user.role != .organizer
        }
        var values: [String: Any] = [:]
        // Absent, not nil: a Mustache section tests presence.
        if let orientation = detail.kioskOrientation { values["kioskOrientation"] = orientation }
        values["guestFields"] = try await guestFields(event.id, call).map { field -> [String: Any] in
            [
                "id": field.id.wire, "label": field.label,
                "kind": field.kind == .text ? "text" : field.kind == .choice ? "one of" : "checkbox",
                "choices": field.choices.joined(separator: ", "),
            ]
        }
        // The header's counts, when the role may read the guests (one guest asked for: the
        // page's total is what counts).
        func total(_ filter: [(String, String?)]) async throws -> Int? {
            let answer = try await call(API.listGuests.line(event.id, query: filter + [("limit", "1")]), nil)
            return answer.status == .ok ? try answer.decode(GuestPage.self).total : nil
        }
        if let guests = try await total([]), let checkedIn = try await total([("checkIn", "checked_in")]) {
            values["counts"] = ["guests": Self.grouped(guests), "checkedIn": Self.grouped(checkedIn)]
        }
        let edit: [String: Any] = [
            "name": event.name, "startsAt": Self.local(event.startsAt, event.timeZone),
            "endsAt": Self.local(event.endsAt, event.timeZone), "timeZone": event.timeZone,
        ]
        var clone = edit
        clone["name"] = event.name + " (copy)"
        values["form"] = edit
        values["clone"] = clone
        if let (form, draft) = draft {
            let key = form.rawValue
            draft.apply(
                to: &values, defaults: form == .edit ? edit : form == .clone ? clone : [:], form: key,
                errors: key + "Errors", formError: key + "Error")
        }
        return try await page(
            "event", title: event.name,
            values.merging([
                "event": [
                    "id": event.id.wire, "name": event.name, "timeZone": event.timeZone,
                    "starts": Self.local(event.startsAt, event.timeZone, display: true),
                    "ends": Self.local(event.endsAt, event.timeZone, display: true),
                ],
                "accessTypes": detail.accessTypes.map { type -> [String: Any] in
                    var values: [String: Any] = ["name": type.name, "walkInAllowed": type.walkInAllowed]
                    if let capacity = type.walkInCapacity { values["walkInCapacity"] = capacity }
                    return values
                },
                "showStaff": staff.status == .ok,
                "staff": staffList.map { member -> [String: Any] in
                    var values: [String: Any] = [
                        "id": member.id.wire, "name": member.name, "email": member.email, "role": member.role.title,
                        "eventOrganizer": member.eventRole == .organizer,
                        "canOrganize": canTeam && Self.eventOrganizerRoles.contains(member.role),
                    ]
                    if member.eventRole == .organizer { values["role"] = "organizer of this event" }
                    return values
                },
                "canTeam": canTeam,
                "users": assignable.map { ["id": $0.id.wire, "name": $0.name, "role": $0.role.title] },
                "passcodeRules": PasscodeRule.allCases.map(\.explanation),
                "canEdit": role == .organizer,
                "canWatch": role == .organizer || role == .support,
                "zones": TimeZone.knownTimeZoneIdentifiers,
            ]) { first, _ in first }, session: session, notice: Self.flash(request))
    }

    /// A form of the event page: refusals show that page again with the form's draft.
    func eventForm(
        _ request: Request, _ context: AppRequestContext, _ id: EventID, _ form: EventPageForm,
        _ body: @escaping (ConsoleSession, [String: String], Call) async throws -> Outcome
    ) async throws -> Response {
        try await changing(
            request, context,
            redisplay: { draft, session, call in
                try await eventPage(request, id, session, call, draft: (form, draft))
            }, body)
    }

    @Sendable func updateEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.updateEvent.parameters(in: context)
        return try await eventForm(request, context, id, .edit) { _, form, call in
            let fields = try EventForm(form)
            let body = try OutpostJSON.encode(
                UpdateEventRequest(
                    name: fields.name, startsAt: fields.startsAt, endsAt: fields.endsAt, timeZone: fields.timeZone))
            let answer = try await call(API.updateEvent.line(id), body)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "saved")]))
        }
    }

    /// A new event like this one: the API's clone, with the form's name and times.
    @Sendable func cloneEvent(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.cloneEvent.parameters(in: context)
        return try await eventForm(request, context, id, .clone) { _, form, call in
            let fields = try EventForm(form)
            let body = try OutpostJSON.encode(
                CloneEventRequest(
                    name: fields.name, startsAt: fields.startsAt, endsAt: fields.endsAt, timeZone: fields.timeZone))
            let answer = try await call(API.cloneEvent.line(id), body)
            guard answer.status == .created, let created = try? answer.decode(EventInfo.self) else {
                return .refused(answer, back: ConsolePages.event.path(id))
            }
            return .redirect(ConsolePages.event.path(created.id, query: [("done", "cloned")]))
        }
    }

    @Sendable func createAccessType(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.createAccessType.parameters(in: context)
        return try await eventForm(request, context, id, .accessType) { _, form, call in
            // An empty capacity is no limit; anything else must be a number (the API says which).
            let capacityText = (form["walkInCapacity"] ?? "").trimmingCharacters(in: .whitespaces)
            var capacity: Int?
            if !capacityText.isEmpty {
                guard let number = Int(capacityText) else {
                    throw EventForm.Invalid(
                        sentence: "The walk-in places must be a whole number, or empty for no limit.",
                        field: "walkInCapacity")
                }
                capacity = number
            }
            let body = try OutpostJSON.encode(
                CreateAccessTypeRequest(
                    name: form["name"] ?? "", walkInAllowed: form["walkInAllowed"] == "true", walkInCapacity: capacity))
            let answer = try await call(API.createAccessType.line(id), body)
            guard answer.status == .created else { return .refused(answer, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "access-type")]))
        }
    }

    @Sendable func assignStaff(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.assignStaff.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            guard let user = form["userId"].flatMap(UserID.init(wire:)) else {
                throw EventForm.Invalid(sentence: "Choose a user to put on the staff.")
            }
            // Their own role, or the one the API gives per event (it refuses any other, with why).
            let role = form["role"].flatMap { $0.isEmpty ? nil : $0 }
            let answer = try await call(API.assignStaff.line(id, user, query: [("role", role)]), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "staff")]))
        }
    }

    @Sendable func unassignStaff(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, user) = try ConsolePages.unassignStaff.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.unassignStaff.line(id, user), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "unassigned")]))
        }
    }

    @Sendable func setUpKiosk(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.setUpKiosk.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let orientation = KioskOrientation(rawValue: form["orientation"] ?? "") ?? .portrait
            let body = try OutpostJSON.encode(
                KioskSetupRequest(passcode: form["passcode"] ?? "", orientation: orientation))
            let answer = try await call(API.setUpKiosk.line(id), body)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.event.path(id)) }
            return .redirect(ConsolePages.event.path(id, query: [("done", "kiosk")]))
        }
    }

    /// Every ticket as one PDF to print (the API's, as it made it).
    @Sendable func tickets(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.tickets.parameters(in: context)
        return try await download(
            request, context, API.ticketSheet.line(id), type: "application/pdf", name: "tickets.pdf",
            back: ConsolePages.event.path(id))
    }

    @Sendable func staff(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            try await staffPage(request, session, call, draft: nil)
        }
    }

    /// Who may be made one event's organizer (the API refuses the others).
    static let eventOrganizerRoles: Set<UserRole> = [.checkinStaff, .support]

    /// The roles an organizer gives in the console.
    static let assignableRoles: [UserRole] = [.checkinStaff, .support, .organizer, .mentor, .exhibitor, .blockManager]

    /// The tenant's users and the new-user form (with a refused one's draft).
    func staffPage(
        _ request: Request, _ session: ConsoleSession, _ call: Call, draft: FormDraft?
    ) async throws -> Response {
        let answer = try await call(API.listUsers.line(), nil)
        guard answer.status == .ok else {
            return try await problem(answer, session: session, back: ConsolePages.events.path())
        }
        let me = Self.userIdOf(session)
        let chosen = draft?.fields["role"] ?? UserRole.checkinStaff.rawValue
        var values: [String: Any] = [
            "users": try answer.decode(UserList.self).users.map { user -> [String: Any] in
                [
                    "id": user.id.wire, "name": user.name, "email": user.email, "role": user.role.title,
                    "me": user.id.wire == me, "twoFactor": user.twoFactorEnabled == true,
                    "roles": Self.assignableRoles.map {
                        ["value": $0.rawValue, "title": $0.title, "selected": $0 == user.role]
                    },
                ]
            },
            "roles": Self.assignableRoles.map {
                ["value": $0.rawValue, "title": $0.title, "selected": $0.rawValue == chosen]
            },
        ]
        // The latest changes to the accounts, on the organisation's clock.
        let changes = try await call(API.userChanges.line(query: [("limit", "50")]), nil)
        if changes.status == .ok {
            let settings = try await call(API.tenantSettings.line(), nil)
            let zone = settings.status == .ok ? try settings.decode(TenantSettings.self).timeZone : nil
            let clock = Self.localFormat(zone ?? "UTC")
            values["changes"] = try changes.decode(UserChangeList.self).changes.map { change -> [String: Any] in
                [
                    "at": clock.string(change.at) + (zone == nil ? " UTC" : ""), "what": change.kind.title,
                    "user": change.userName, "by": change.byName, "detail": change.detail ?? "",
                ]
            }
        }
        draft?.apply(to: &values)
        return try await page("staff", title: "Staff", values, session: session, notice: Self.flash(request))
    }

    @Sendable func createUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(
            request, context,
            redisplay: { draft, session, call in try await staffPage(request, session, call, draft: draft) }
        ) { _, form, call in
            let body = try OutpostJSON.encode(
                CreateUserRequest(
                    email: form["email"] ?? "", name: form["name"] ?? "",
                    role: UserRole(rawValue: form["role"] ?? "") ?? .checkinStaff, password: form["password"] ?? ""))
            let answer = try await call(API.createUser.line(), body)
            guard answer.status == .created else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "user")]))
        }
    }

    /// A user's new role (the API's: it ends their sign-ins).
    @Sendable func updateUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try ConsolePages.updateUser.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            guard let role = UserRole(rawValue: form["role"] ?? "") else {
                throw EventForm.Invalid(sentence: "Choose a role from the list.")
            }
            let answer = try await call(
                API.updateUser.line(user), try OutpostJSON.encode(UpdateUserRequest(role: role)))
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "role")]))
        }
    }

    /// Every sign-in of a user ended (a lost phone, a shared laptop).
    @Sendable func signOutUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try ConsolePages.signOutUser.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.signOutUser.line(user), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "signed-out")]))
        }
    }

    /// A user's second factor turned off (their phone and recovery codes lost).
    @Sendable func turnOffUserTwoFactor(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try ConsolePages.turnOffUserTwoFactor.parameters(in: context)
        return try await changing(request, context) { _, _, call in
            let answer = try await call(API.turnOffUserTwoFactor.line(user), nil)
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "two-factor-off")]))
        }
    }

    @Sendable func removeUser(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try ConsolePages.removeUser.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            // Work the user's devices have not sent is shown first; "remove anyway" confirms.
            let confirmed = form["confirm"] == "unsent"
            let answer = try await call(
                API.removeUser.line(user, query: [("confirm", confirmed ? "unsent" : nil)]), nil)
            if answer.errorCode == APIErrorCode.unsentWork.rawValue {
                return .confirm(
                    answer, action: ConsolePages.removeUser.path(user), confirm: "unsent", button: "Remove anyway",
                    back: ConsolePages.staff.path())
            }
            guard answer.status == .noContent else { return .refused(answer, back: ConsolePages.staff.path()) }
            return .redirect(ConsolePages.staff.path(query: [("done", "removed")]))
        }
    }

    @Sendable func guests(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.guests.parameters(in: context), call)
            let id = detail.event.id
            let parameters = request.uri.queryParameters
            let query = Self.given(request, Self.guestListParameters)
            let answer = try await call(
                API.listGuests.line(id, query: query + [("limit", "50")]), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let page = try answer.decode(GuestPage.self)
            let names = Dictionary(detail.accessTypes.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            let filters = query.filter { $0.0 != "after" }
            let clock = Self.localFormat(detail.event.timeZone)
            var links: [String: Any] = [:]
            if let next = page.next { links["next"] = ConsolePages.guests.path(id, query: filters + [("after", next)]) }
            // The sortable columns: a header's link turns its order around (from the first page).
            let sort = GuestSort(rawValue: parameters.get("sort") ?? "") ?? .name
            let unsorted = filters.filter { $0.0 != "sort" }
            for (column, ascending, descending) in [
                ("Name", GuestSort.name, GuestSort.nameDescending), ("Email", .email, .emailDescending),
            ] {
                let then = sort == ascending ? descending : ascending
                links["sort\(column)"] = ConsolePages.guests.path(
                    id, query: unsorted + [("sort", then == .name ? nil : then.rawValue)])
                links["aria\(column)"] =
                    sort == ascending ? "ascending" : sort == descending ? "descending" : "none"
            }
            if parameters.get("after") != nil { links["first"] = ConsolePages.guests.path(id, query: filters) }
            return try await self.page(
                "guests", title: "Guests · \(detail.event.name)",
                [
                    "event": ["id": id.wire, "name": detail.event.name], "q": request.formQuery("q") ?? "",
                    "total": page.total, "position": Self.position(page), "filtered": !filters.isEmpty,
                    "csv": ConsolePages.guestsCSV.path(id, query: filters),
                    "canMail": Self.role(session, on: detail) == .organizer && page.total > 0,
                    "canChange": Self.role(session, on: detail) == .organizer && page.total > 0,
                    "filterFields": Self.formBody(filters),
                    "accessTypes": detail.accessTypes.map {
                        ["id": $0.id.wire, "name": $0.name, "selected": parameters.get("accessTypeId") == $0.id.wire]
                    },
                    "statuses": ["confirmed", "cancelled", "revoked"].map { (status: String) in
                        ["value": status, "selected": parameters.get("status") == status]
                    },
                    "checkIns": [("checked_in", "checked in"), ("not_checked_in", "not checked in")].map {
                        ["value": $0.0, "label": $0.1, "selected": parameters.get("checkIn") == $0.0]
                    },
                    // The check-in desk's fields: the page's time (a form sent twice checks in
                    // once) and the list to come back to.
                    "scannedAt": String(dependencies.clock.now().millisecondsSince1970),
                    "list": Self.formBody(query),
                    "guests": page.guests.map { guest -> [String: Any] in
                        [
                            "canCheckIn": guest.status == .confirmed && guest.checkIn == nil,
                            // A ticket block's ticket before its partner names it.
                            "id": guest.id.wire,
                            "name": guest.name.isEmpty && guest.blockId != nil ? "(unnamed block ticket)" : guest.name,
                            "email": guest.email, "status": guest.status.rawValue,
                            "accessType": names[guest.accessTypeId] ?? "?", "notes": guest.notes,
                            "checkedIn": guest.checkIn.map {
                                clock.string($0.at) + " · " + $0.byName
                            } ?? "",
                        ]
                    },
                ].merging(links) { first, _ in first }, session: session, notice: Self.flash(request))
        }
    }

    @Sendable func importPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.importPage.parameters(in: context), call)
            return try await page(
                "import", title: "Import guests · \(detail.event.name)",
                [
                    "event": ["id": detail.event.id.wire, "name": detail.event.name],
                    "accessTypes": detail.accessTypes.map { ["name": $0.name] },
                    "fields": [
                        ("name", "Name", true), ("email", "E-mail", true), ("access_type", "Access type", true),
                        ("notes", "Notes", false),
                    ].map { ["field": $0.0, "title": $0.1, "required": $0.2] },
                ], session: session)
        }
    }

    /// The upload (`text/csv`, the CSRF token in `X-CSRF-Token`), streamed to the API's import;
    /// the API's report (or error) is the answer, as JSON for the page's script.
    @Sendable func importGuests(_ request: Request, context: AppRequestContext) async throws -> Response {
        try guardOrigin(request)
        let id = try ConsolePages.importGuests.parameters(in: context)
        guard var session = Self.session(request) else {
            throw APIError(.unauthorized, .unauthorized, "Your sign-in has ended; sign in again.")
        }
        guard try await csrf().isValid(request.headers[.csrfToken], for: session.nonce) else {
            throw APIError(.forbidden, .forbidden, "This upload did not come from the console; reload the page.")
        }
        // The upload is streamed once; refresh first when the access token is about to expire.
        if try await dependencies.accessTokens().verify(
            session.accessToken, now: dependencies.clock.now().addingTimeInterval(60)) == nil
        {
            session = try await api.refresh(session, from: request, context: context)
        }
        // The columns chosen on the page for the fields, as the API takes them.
        let mapping = GuestImport.fields.map { field in
            ("column.\(field)", request.uri.queryParameters.get("column.\(field)"))
        }
        let answer = try await api.call(
            API.importGuests.line(id, query: mapping), session: session, from: request, context: context,
            contentType: "text/csv", body: request.body)
        var response = Response(
            status: answer.status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
        response.setCookie(sessionCookie(session))
        return response
    }

    // MARK: - Sessions, CSRF, origin

    /// The session in the request's cookie, if any.
    static func session(_ request: Request) -> ConsoleSession? {
        request.cookies[ConsoleSession.cookieName].flatMap { ConsoleSession(cookie: $0.value) }
    }

    /// The caller's role on an event: their own, or organizer where its staff makes them its
    /// organizer (the API's answer; the API decides again on every change).
    static func role(_ session: ConsoleSession, on detail: EventDetail) -> UserRole? {
        detail.role ?? role(session)
    }

    static func role(_ session: ConsoleSession) -> UserRole? {
        tokenFields(session).flatMap { UserRole(rawValue: $0[2]) }
    }

    static func userIdOf(_ session: ConsoleSession) -> String? { tokenFields(session)?[0] }

    /// The access token's payload fields (user, tenant, role, expiry). Read, not trusted: the API
    /// decides what the caller may do; the pages only leave out what it would refuse.
    static func tokenFields(_ session: ConsoleSession) -> [String]? {
        let parts = session.accessToken.split(separator: ".")
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            let payload = String(validating: bytes, as: UTF8.self)
        else { return nil }
        let fields = payload.split(separator: "|").map(String.init)
        return fields.count >= 4 ? fields : nil
    }

    func csrf() async throws -> ConsoleCSRF { ConsoleCSRF(secret: try await dependencies.accessTokens().key) }

    func guardOrigin(_ request: Request) throws {
        guard
            ConsoleOrigin.isSameOrigin(
                origin: request.headers[.origin], fetchSite: request.headers[.secFetchSite],
                host: request.head.authority)
        else {
            throw APIError(.forbidden, .forbidden, "A form of another site cannot change anything here.")
        }
    }

    func requireToken(_ request: Request, _ session: ConsoleSession, form: [String: String]? = nil) async throws {
        var token = request.headers[.csrfToken]
        if token == nil {
            if let form {
                token = form["_csrf"]
            } else {
                token = try await Self.formFields(request)["_csrf"]
            }
        }
        guard try await csrf().isValid(token, for: session.nonce) else {
            throw APIError(
                .forbidden, .forbidden,
                "This form has expired or did not come from the console; reload the page and try again.")
        }
    }

    typealias Call = @Sendable (RequestLine, Data?) async throws -> ConsoleAPI.Answer

    /// A page for a signed-in browser: the API calls `body` makes carry the session (renewed
    /// tokens go back into the cookie); without a session, or once it has ended, the sign-in page.
    func signedIn(
        _ request: Request, _ context: AppRequestContext,
        _ body: (ConsoleSession, Call) async throws -> Response
    ) async throws -> Response {
        guard let start = Self.session(request) else { return Self.redirect(ConsolePages.signInPage.path()) }
        let current = SessionBox(start)
        let call: Call = { [api] line, json in
            let answer = try await api.call(
                line, json: json, session: current.value, from: request, context: context)
            if let renewed = answer.renewed { current.value = renewed }
            if answer.status == .forbidden, answer.errorCode == APIErrorCode.twoFactorEnrollmentRequired.rawValue {
                throw TwoFactorFirst()
            }
            return answer
        }
        do {
            var response = try await body(start, call)
            if current.value != start { response.setCookie(sessionCookie(current.value)) }
            return response
        } catch is TwoFactorFirst {
            // The organisation requires a second factor: that page, before any other.
            var response = Self.redirect(ConsolePages.twoFactor.path())
            if current.value != start { response.setCookie(sessionCookie(current.value)) }
            return response
        } catch is ConsoleAPI.SessionEnded {
            var response = Self.redirect(ConsolePages.signInPage.path())
            response.setCookie(cookie(ConsoleSession.cookieName, "", maxAge: 0))
            return response
        } catch let error as APIError where error.status == .notFound {
            return try await page(
                "problem", title: "Not found",
                [
                    "heading": "Not found", "sentence": "There is no such page, or it is not yours.",
                    "back": ConsolePages.events.path(),
                ],
                session: start, status: .notFound)
        }
    }

    enum Outcome {
        case redirect(String)
        /// The API refused: its answer (its status and sentence) and where to go back to.
        case refused(ConsoleAPI.Answer, back: String)
        /// The API asks for a confirmation: its sentence, and a form posting `confirm` to `action`.
        case confirm(ConsoleAPI.Answer, action: String, confirm: String, button: String, back: String)
        /// A page to show as the answer (an import's result, line by line).
        case shown(Response)
    }

    /// A form's own page shown again with what was typed and why it was refused.
    typealias Redisplay = (FormDraft, ConsoleSession, Call) async throws -> Response

    /// A form post: same origin, the session's CSRF token, then `body` with the form's fields.
    /// With `redisplay`, a refusal of what was typed (the API's 400, 409 or 422, or the form's
    /// own) shows the form's page again, its values kept and the sentence beside its field.
    func changing(
        _ request: Request, _ context: AppRequestContext, redisplay: Redisplay? = nil,
        _ body: @escaping (ConsoleSession, [String: String], Call) async throws -> Outcome
    ) async throws -> Response {
        try guardOrigin(request)
        let form = try await Self.formFields(request)
        return try await signedIn(request, context) { session, call in
            try await requireToken(request, session, form: form)
            do {
                switch try await body(session, form, call) {
                case .redirect(let target): return Self.redirect(target)
                case .shown(let response): return response
                case .refused(let answer, let back) where answer.status == .notFound:
                    return try await page(
                        "problem", title: "Not found",
                        [
                            "heading": "Not found", "sentence": "There is no such page, or it is not yours.",
                            "back": back,
                        ],
                        session: session, status: .notFound)
                case .confirm(let answer, let action, let confirm, let button, let back):
                    return try await page(
                        "confirm", title: "Not yet",
                        [
                            "heading": "Not yet", "sentence": answer.message, "action": action, "confirm": confirm,
                            "button": button, "back": back,
                        ], session: session, status: .conflict)
                case .refused(let answer, _)
                where redisplay != nil && [.badRequest, .conflict, .unprocessableContent].contains(answer.status):
                    var response = try await redisplay!(
                        FormDraft(
                            form, sentence: answer.message,
                            field: FormDraft.field(in: answer.message, code: answer.errorCode, of: form)),
                        session, call)
                    response.status = .unprocessableContent
                    return response
                case .refused(let answer, let back):
                    return try await page(
                        "problem", title: "Not saved",
                        ["heading": "Not saved", "sentence": answer.message, "back": back], session: session,
                        status: answer.status == .forbidden ? .forbidden : .unprocessableContent)
                }
            } catch let invalid as EventForm.Invalid where redisplay != nil {
                var response = try await redisplay!(
                    FormDraft(form, sentence: invalid.sentence, field: invalid.field), session, call)
                response.status = .unprocessableContent
                return response
            } catch let invalid as EventForm.Invalid {
                return try await page(
                    "problem", title: "Not saved",
                    ["heading": "Not saved", "sentence": invalid.sentence, "back": request.uri.path],
                    session: session, status: .unprocessableContent)
            }
        }
    }

    /// The API refused a session that must turn on two-factor sign-in first.
    struct TwoFactorFirst: Error {}

    private final class SessionBox: @unchecked Sendable {
        var value: ConsoleSession
        init(_ value: ConsoleSession) { self.value = value }
    }

    // MARK: - Rendering

    func page(
        _ template: String, title: String, _ values: [String: Any], error: String? = nil,
        session: ConsoleSession?, notice: String? = nil, status: HTTPResponse.Status = .ok, bodyClass: String? = nil
    ) async throws -> Response {
        var values = values
        var layout: [String: Any] = ["title": title, "signedIn": session != nil]
        if let bodyClass { layout["bodyClass"] = bodyClass }
        if let session {
            let token = try await csrf().token(for: session.nonce)
            layout["csrf"] = token
            values["csrf"] = values["csrf"] ?? token
            layout["role"] = Self.role(session)?.title ?? ""
            if !session.name.isEmpty { layout["userName"] = session.name }
            layout["organizer"] = Self.role(session) == .organizer
            // The bar's section of this page, marked for the eye and for a screen reader.
            let section = ConsoleTemplates.section(of: template)
            layout["eventsCurrent"] = section == .events
            layout["staffCurrent"] = section == .staff
            layout["settingsCurrent"] = section == .settings
            layout["twoFactorCurrent"] = section == .twoFactor
            layout["mentoringCurrent"] = section == .mentoring
            layout["devicesCurrent"] = section == .devices
        }
        layout["content"] = library.render(values, withTemplate: template) ?? ""
        if let error { layout["error"] = error }
        if let notice { layout["notice"] = notice }
        let html = library.render(layout, withTemplate: "layout") ?? ""
        return Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    func problem(_ answer: ConsoleAPI.Answer, session: ConsoleSession, back: String) async throws -> Response {
        try await page(
            "problem", title: "Not shown", ["heading": "Not shown", "sentence": answer.message, "back": back],
            session: session, status: answer.status)
    }

    func forbidden() async throws -> Response {
        try await page(
            "problem", title: "Refused",
            [
                "heading": "Refused",
                "sentence": "This form has expired or did not come from the console; reload the page and try again.",
                "back": ConsolePages.signInPage.path(),
            ], session: nil, status: .forbidden)
    }

    /// What the last change did, from `?done=`.
    static func flash(_ request: Request) -> String? {
        switch request.uri.queryParameters.get("done") {
        case "created": "The event was created."
        case "cloned": "The event was cloned with its access types, staff and badge; its guests are its own to add."
        case "settings":
            "Saved. New events start in the time zone given, and phones learn the window at their next sign-in."
        case "saved": "Saved."
        case "access-type": "The access type was added."
        case "staff": "They are on the staff now."
        case "unassigned": "They are off the staff."
        case "guest-field": "The field was added: guests' pages ask it, and the doors show it from their next sync."
        case "guest-field-removed": "The field was removed; guests' values of it are kept, no longer shown."
        case "kiosk": "The kiosk is set up."
        case "user": "The user was created; they sign in with that e-mail and password."
        case "removed": "The user was removed; their devices sign out at their next refresh."
        case "role": "The role was changed; their devices ask them to sign in again, with the new role."
        case "contact-saved": "The contact was saved; the mentors' phones get it at their next sync."
        case "device-named": "The device's name was saved; the dashboards show it."
        case "password-link": "A link to set a new password was mailed to them; it works once, for a day."
        case "password-set": "Your password is set: sign in with it."
        case "two-factor-off":
            "Their two-factor sign-in is off and their sign-ins ended: they sign in with their password, and can turn it on again."
        case "contact": "The contact was added; assign a mentor to it below."
        case "assigned": "The mentor was assigned; their phone has the contact from its next sync."
        case "erased": "The contact was erased; their activities stay in the report without the name."
        case "signed-out":
            "Their sign-ins ended: each device asks for the password at its next contact, and keeps what it holds."
        case "guest": "The guest was saved."
        case "bulk":
            "\(request.uri.queryParameters.get("changed") ?? "0") guest(s) changed, \(request.uri.queryParameters.get("refused") ?? "0") refused; the doors learn it at their next sync."
        case "mailed":
            "\(request.uri.queryParameters.get("queued") ?? "0") ticket(s) queued, \(request.uri.queryParameters.get("failed") ?? "0") could not be made; the list below shows each one as it goes."
        case "resent": "Queued again; the status below shows when the relay takes it."
        case "cancelled": "The registration was cancelled; the doors refuse the ticket from their next sync."
        case "checked-in": "Checked in."
        case "already": "They were already checked in; the guest's page says when and by whom."
        case "undone": "The check-in was undone and kept in the history; the doors learn it at their next sync."
        default: nil
        }
    }

    func eventDetail(_ id: EventID, _ call: Call) async throws -> EventDetail {
        let answer = try await call(API.getEvent.line(id), nil)
        guard answer.status == .ok else { throw APIError.notFound }
        return try answer.decode(EventDetail.self)
    }

    func sessionCookie(_ session: ConsoleSession) -> Cookie {
        cookie(
            ConsoleSession.cookieName, session.cookieValue,
            maxAge: Int(dependencies.configuration.refreshTokenLifetime))
    }

    func cookie(_ name: String, _ value: String, maxAge: Int, sameSite: Cookie.SameSite = .strict) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge, path: ConsolePages.home.path(),
            secure: dependencies.configuration.tls != nil,
            httpOnly: true, sameSite: sameSite)
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The request's query parameters among `names` that are given and not empty, in that order
    /// (an empty filter field of a page's form means "any"; the API refuses empty values).
    static func given(_ request: Request, _ names: [String]) -> [(String, String?)] {
        names.compactMap { name in request.formQuery(name).flatMap { $0.isEmpty ? nil : (name, $0) } }
    }

    /// Where a page of the guest list is: "1–50 of 4,210", or "63 guests" when it shows them all.
    static func position(_ page: GuestPage) -> String {
        let first = (page.offset ?? 0) + 1
        let last = (page.offset ?? 0) + page.guests.count
        switch page.total {
        case 0: return "No guests"
        case 1 where page.guests.count == 1: return "1 guest"
        case let total where first == 1 && last == total: return "\(grouped(total)) guests"
        default: return "\(grouped(first))–\(grouped(last)) of \(grouped(page.total))"
        }
    }

    /// Query pairs as a urlencoded string (`q=Ann%20Lee&after=…`), for a form's hidden field.
    static func formBody(_ pairs: [(String, String?)]) -> String {
        var components = URLComponents()
        components.queryItems = pairs.map { URLQueryItem(name: $0.0, value: $0.1) }
        return components.percentEncodedQuery ?? ""
    }

    /// A urlencoded form body (at most 64 KiB).
    static func formFields(_ request: Request) async throws -> [String: String] {
        let buffer = try await request.body.collect(upTo: 64 * 1_024)
        var fields: [String: String] = [:]
        for pair in String(buffer: buffer).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[decoded(parts[0])] = parts.count > 1 ? decoded(parts[1]) : ""
        }
        return fields
    }

    static func form<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let fields = try await formFields(request)
        let data = try JSONSerialization.data(withJSONObject: fields)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw APIError.invalidRequest("The form is missing a field.")
        }
    }

    /// `date` on the wall clock of `zone`: `2026-12-12T17:00` (a datetime-local field's value),
    /// or for display `2026-12-12 17:00`.
    static func local(_ date: Date, _ zone: String, display: Bool = false) -> String {
        localFormat(zone, display: display).string(date)
    }

    /// A count as people read it: 4210 as "4,210".
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return count < 0 ? "-" + text : text
    }

    /// The format of ``local(_:_:display:)``, to make once for a page's rows.
    static func localFormat(_ zone: String, display: Bool = true) -> WallClockFormat {
        WallClockFormat(display ? "yyyy-MM-dd HH:mm" : "yyyy-MM-dd'T'HH:mm", zone: zone)
    }
}

/// A form posted before sign-in: it carries the sign-in page's CSRF token.
protocol SignedOutForm: Decodable {
    var _csrf: String? { get }
}

/// The event form's fields: the times are the event's wall-clock times in its time zone.
struct EventForm {
    struct Invalid: Error {
        var sentence: String
        /// The form field it is about, when one.
        var field: String? = nil
    }

    var name: String
    var startsAt: Date
    var endsAt: Date
    var timeZone: String

    init(_ form: [String: String]) throws {
        let zoneName = (form["timeZone"] ?? "").trimmingCharacters(in: .whitespaces)
        guard let zone = TimeZone(identifier: zoneName) else {
            throw Invalid(
                sentence: "“\(zoneName)” is not a time zone; choose one such as Europe/Oslo.", field: "timeZone")
        }
        func time(_ key: String) throws -> Date {
            guard let date = Self.wallClock(form[key], in: zone) else {
                throw Invalid(sentence: "Give the event's start and end as a date and a time.", field: key)
            }
            return date
        }
        name = (form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        startsAt = try time("startsAt")
        endsAt = try time("endsAt")
        timeZone = zoneName
    }

    /// A datetime-local field's value (`2026-12-12T17:00`) on the wall clock of `zone`.
    static func wallClock(_ text: String?, in zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text ?? "") { return date }
        }
        return nil
    }
}

extension HTTPField.Name {
    static let csrfToken = HTTPField.Name("X-CSRF-Token")!
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
}
