import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// Bulk actions on the guest list (organizer): cancel the registrations of, or give another
/// access type to, the guests ticked on the page or every guest the filter shows. Each change is
/// the API's guest update, as one guest's page makes it (audited, the roster's change number
/// moved, the doors told at their next sync), and what was refused is counted, not hidden.
extension ConsoleRoutes {
    func registerBulkGuests(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.bulkGuests, use: bulkGuests)
    }

    /// The most guests one bulk action changes (a filter that shows more is refused, in words).
    static let bulkGuestLimit = 5_000

    /// The ids of the ticked rows: each row's box is its own field (`guest-<id>`), as a form
    /// sends repeated names as one.
    static func tickedGuests(_ form: [String: String]) -> [GuestID] {
        form.compactMap { key, value in
            guard key.hasPrefix("guest-"), value == "1" else { return nil }
            return GuestID(wire: String(key.dropFirst("guest-".count)))
        }
        .sorted { $0.wire < $1.wire }
    }

    @Sendable func bulkGuests(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try ConsolePages.bulkGuests.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            // Another tenant's event is not found, whatever the form says.
            _ = try await eventDetail(id, call)
            let filters = Self.guestListFilters(form["list"] ?? "")
            let back = ConsolePages.guests.path(id, query: filters)
            let change: UpdateGuestRequest
            switch form["action"] {
            case "cancel":
                change = UpdateGuestRequest(status: .cancelled)
            case "access-type":
                guard let type = form["accessTypeId"].flatMap(AccessTypeID.init(wire:)) else {
                    throw EventForm.Invalid(sentence: "Choose the access type to give them.")
                }
                change = UpdateGuestRequest(accessTypeId: type)
            default:
                throw EventForm.Invalid(sentence: "Choose what to do with the guests.")
            }
            var ids: [GuestID] = []
            if form["scope"] == "filter" {
                var after: String?
                repeat {
                    let answer = try await call(
                        API.listGuests.line(id, query: filters + [("limit", "500"), ("after", after)]), nil)
                    guard answer.status == .ok else { return .refused(answer, back: back) }
                    let page = try answer.decode(GuestPage.self)
                    guard page.total <= Self.bulkGuestLimit else {
                        throw EventForm.Invalid(
                            sentence:
                                "This filter shows \(Self.grouped(page.total)) guests; one bulk action changes at most \(Self.grouped(Self.bulkGuestLimit)): narrow the filter."
                        )
                    }
                    ids += page.guests.filter { guest in
                        // Those the change would not change are left alone.
                        change.status.map { guest.status != $0 } ?? (change.accessTypeId != guest.accessTypeId)
                    }
                    .map(\.id)
                    after = page.next
                } while after != nil
            } else {
                ids = Self.tickedGuests(form)
                guard !ids.isEmpty else {
                    throw EventForm.Invalid(sentence: "Tick the guests first, or choose every guest the filter shows.")
                }
            }
            // The API's bulk change, a request per 500 (the guests it would not change are left
            // alone; ids no longer the event's are counted as refused).
            var changed = 0
            var refused = 0
            for start in stride(from: 0, to: ids.count, by: 500) {
                let body = try OutpostJSON.encode(
                    BulkGuestUpdate(
                        guestIds: Array(ids[start..<min(start + 500, ids.count)]), status: change.status,
                        accessTypeId: change.accessTypeId))
                let answer = try await call(API.bulkUpdateGuests.line(id), body)
                guard answer.status == .ok else { return .refused(answer, back: back) }
                let result = try answer.decode(BulkGuestResult.self)
                changed += result.changed
                refused += result.notFound
            }
            return .redirect(
                ConsolePages.guests.path(
                    id, query: filters + [("done", "bulk"), ("changed", String(changed)), ("refused", String(refused))])
            )
        }
    }
}
