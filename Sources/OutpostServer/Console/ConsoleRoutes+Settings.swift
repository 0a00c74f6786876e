import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The tenant's settings (organizer): how long a phone may unlock offline, and the time zone new
/// events start in. Read and written through `GET`/`PUT /v1/tenant/settings`.
extension ConsoleRoutes {
    func registerSettings(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.settings, use: settings)
        group.on(ConsolePages.saveSettings, use: saveSettings)
        group.on(ConsolePages.eventsScript) { _, _ in
            Self.asset(ConsoleAssets.eventsScript, type: "text/javascript; charset=utf-8")
        }
    }

    @Sendable func settings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            try await settingsPage(request, session, call, draft: nil)
        }
    }

    /// The settings form (with a refused one's draft).
    func settingsPage(
        _ request: Request, _ session: ConsoleSession, _ call: Call, draft: FormDraft?
    ) async throws -> Response {
        let answer = try await call(API.tenantSettings.line(), nil)
        guard answer.status == .ok else {
            return try await problem(answer, session: session, back: ConsolePages.events.path())
        }
        let settings = try answer.decode(TenantSettings.self)
        var values: [String: Any] = [
            "form": [
                "offlineUnlockHours": String(settings.offlineUnlockHours), "timeZone": settings.timeZone ?? "",
            ],
            "organizersNeedTwoFactor": settings.organizersNeedTwoFactor == true,
            "minHours": TenantSettings.offlineUnlockRange.lowerBound,
            "maxHours": TenantSettings.offlineUnlockRange.upperBound,
            "zones": TimeZone.knownTimeZoneIdentifiers,
        ]
        if let draft {
            draft.apply(to: &values)
            values["organizersNeedTwoFactor"] = draft.fields["organizersNeedTwoFactor"] == "true"
        }
        return try await page("settings", title: "Settings", values, session: session, notice: Self.flash(request))
    }

    @Sendable func saveSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await changing(
            request, context,
            redisplay: { draft, session, call in try await settingsPage(request, session, call, draft: draft) }
        ) { _, form, call in
            guard let hours = Int((form["offlineUnlockHours"] ?? "").trimmingCharacters(in: .whitespaces)) else {
                throw EventForm.Invalid(
                    sentence: "The offline unlock window is a whole number of hours.", field: "offlineUnlockHours")
            }
            let zone = (form["timeZone"] ?? "").trimmingCharacters(in: .whitespaces)
            let body = try OutpostJSON.encode(
                TenantSettings(
                    offlineUnlockHours: hours, timeZone: zone.isEmpty ? nil : zone,
                    organizersNeedTwoFactor: form["organizersNeedTwoFactor"] == "true"))
            let answer = try await call(API.setTenantSettings.line(), body)
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.settings.path()) }
            return .redirect(ConsolePages.settings.path(query: [("done", "settings")]))
        }
    }
}
