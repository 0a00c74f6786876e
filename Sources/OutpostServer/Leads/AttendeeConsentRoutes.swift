import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import OutpostCore
import OutpostProtocol

/// The attendee's own page, from the link in their ticket mail (no account, no sign-in: the
/// link's token names their ticket and nothing else): whether the exhibitors whose booths scan
/// their badge see their name and e-mail. Changing it changes every lead at once (the details
/// are joined when a lead is read).
struct AttendeeConsentRoutes {
    let dependencies: ServerDependencies

    func register(on router: Router<AppRequestContext>) {
        router.on(ConsolePages.attendeeContact, use: show)
        router.on(ConsolePages.setAttendeeContact, use: change)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await page(token: try ConsolePages.attendeeContact.parameters(in: context), saved: false)
    }

    @Sendable func change(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try ConsolePages.setAttendeeContact.parameters(in: context)
        let form = try await ConsoleRoutes.formFields(request)
        guard let guestId = try await dependencies.contactConsentLinks().guest(in: token),
            let found = try await dependencies.store.contactConsent(guestId: guestId)
        else { return Self.html(Self.notFound, status: .notFound) }
        guard let choice = form["share"], ["yes", "no"].contains(choice) else {
            return Self.html(
                Self.library.render(
                    ["title": "Not saved", "found": false, "message": "Choose to share or not to share."],
                    withTemplate: "page") ?? "", status: .badRequest)
        }
        _ = try await dependencies.store.setContactConsent(
            eventId: found.eventId, guestId: guestId, shares: choice == "yes", changedBy: "attendee",
            now: dependencies.clock.now())
        return try await page(token: token, saved: true)
    }

    private func page(token: String, saved: Bool) async throws -> Response {
        guard let guestId = try await dependencies.contactConsentLinks().guest(in: token),
            let found = try await dependencies.store.contactConsent(guestId: guestId)
        else { return Self.html(Self.notFound, status: .notFound) }
        let values: [String: Any] = [
            "title": "Your contact details", "found": true, "guest": found.guestName, "event": found.eventName,
            "shares": found.shares, "saved": saved, "action": ConsolePages.setAttendeeContact.path(token),
        ]
        return Self.html(Self.library.render(values, withTemplate: "page") ?? "", status: .ok)
    }

    /// The page's one template (Mustache escapes every value).
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        // A constant template: it parses, or no test would pass.
        try? library.register(
            """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>{{title}}</title></head>
            <body><h1>{{title}}</h1>
            {{#found}}<p>Hello {{guest}}, this is about {{event}}.</p>
            {{#saved}}<p id="saved">Saved.</p>{{/saved}}
            <p id="contact-state">{{#shares}}You share your name and e-mail with the exhibitors whose booths scan your badge.{{/shares}}{{^shares}}You do not share your name or e-mail with exhibitors: a booth that scans your badge sees only an anonymous number.{{/shares}}</p>
            <form method="post" action="{{action}}">
            <button type="submit" name="share" value="yes" id="share-yes">Share my name and e-mail</button>
            <button type="submit" name="share" value="no" id="share-no">Do not share them</button>
            </form>
            <p>You can change this at any time with the link in your ticket mail.</p>{{/found}}
            {{^found}}<p>{{message}}</p>{{/found}}
            </body></html>
            """, named: "page")
        return library
    }()

    static let notFound =
        library.render(
            [
                "title": "Not found", "found": false,
                "message": "This link is not valid. Use the one in your ticket mail.",
            ],
            withTemplate: "page") ?? ""

    static func html(_ text: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; form-action 'self'",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
