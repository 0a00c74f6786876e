import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostDrawing
import OutpostProtocol

/// The event's badge for its organizer: the label size, the line under the name, the colour
/// band, the QR code and print-on-check-in, a preview drawn as the printers will draw it, and
/// every badge printed with the reprints and their reasons.
extension ConsoleRoutes {
    func registerBadges(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.badge, use: badge)
        group.on(ConsolePages.setBadge, use: setBadge)
        group.on(ConsolePages.badgePreview, use: badgePreview)
    }

    @Sendable func badge(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.badge.parameters(in: context), call)
            let id = detail.event.id
            let answer = try await call(API.badgeLayout.line(id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(id))
            }
            let layout = try answer.decode(BadgeLayout.self)
            // Organizers and support see the prints; the API refuses door staff, and so does the page.
            let printsAnswer = try await call(API.listBadgePrints.line(id), nil)
            guard printsAnswer.status == .ok else {
                return try await problem(printsAnswer, session: session, back: ConsolePages.event.path(id))
            }
            let prints: BadgePrintList? = try printsAnswer.decode(BadgePrintList.self)
            let clock = Self.localFormat(detail.event.timeZone)
            let values: [String: Any] = [
                "event": ["id": id.wire, "name": detail.event.name],
                "canEdit": Self.role(session, on: detail) == .organizer,
                "labels": LabelSize.allCases.map {
                    ["value": $0.rawValue, "title": $0.title, "selected": $0 == layout.label]
                },
                "secondLines": BadgeSecondLine.allCases.map {
                    ["value": $0.rawValue, "title": $0.title, "selected": $0 == layout.secondLine]
                },
                "band": layout.band, "qr": layout.qr, "printOnCheckIn": layout.printOnCheckIn,
                "preview": ConsolePages.badgePreview.path(id),
                "previewWidth": Int(layout.label.width.rounded()), "previewHeight": Int(layout.label.height.rounded()),
                "showsPrints": prints != nil,
                "printed": prints?.printed ?? 0, "reprinted": prints?.reprinted ?? 0,
                "prints": (prints?.prints ?? []).map { print -> [String: Any] in
                    [
                        "at": clock.string(print.at), "guest": print.guestName, "guestId": print.record.guestId.wire,
                        "by": print.byName, "device": print.record.deviceId, "reprint": print.record.reprint,
                        "reason": print.record.reason ?? "",
                    ]
                },
            ]
            return try await self.page(
                "badge", title: "Badge · \(detail.event.name)", values, session: session,
                notice: request.uri.queryParameters.get("done") == "badge" ? "Badge saved." : nil)
        }
    }

    @Sendable func setBadge(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.setBadge.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            let layout = BadgeLayout(
                label: LabelSize(rawValue: form["label"] ?? "") ?? .label4x3,
                secondLine: BadgeSecondLine(rawValue: form["secondLine"] ?? "") ?? .accessType,
                band: form["band"] == "on", qr: form["qr"] == "on", printOnCheckIn: form["printOnCheckIn"] == "on")
            let answer = try await call(API.setBadgeLayout.line(id), try OutpostJSON.encode(layout))
            guard answer.status == .ok else { return .refused(answer, back: ConsolePages.badge.path(id)) }
            return .redirect(ConsolePages.badge.path(id, query: [("done", "badge")]))
        }
    }

    /// The event's badge as a PNG, drawn by the printers' own drawing (``BadgeSheet``) for a
    /// sample guest with the event's first access type.
    @Sendable func badgePreview(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await signedIn(request, context) { session, call in
            let detail = try await eventDetail(ConsolePages.badgePreview.parameters(in: context), call)
            let answer = try await call(API.badgeLayout.line(detail.event.id), nil)
            guard answer.status == .ok else {
                return try await problem(answer, session: session, back: ConsolePages.event.path(detail.event.id))
            }
            let png = try Self.previewPNG(
                layout: try answer.decode(BadgeLayout.self), accessType: detail.accessTypes.first)
            return Response(
                status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
    }

    /// A sample badge under `layout`, as PNG bytes at 2 px per point.
    static func previewPNG(layout: BadgeLayout, accessType: AccessTypeInfo?) throws -> Data {
        let badge = BadgeContent.of(
            name: "Ada Lovelace", email: "ada@analytical.example", accessTypeId: accessType?.id ?? AccessTypeID(UUID()),
            accessType: accessType?.name ?? "General", ticket: "OUTPOST-BADGE-PREVIEW", layout: layout)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "outpost-badge-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try CairoCanvas.write(BadgeSheet.page(badge), format: .png, to: url, scale: 2)
        return try Data(contentsOf: url)
    }
}
