import Foundation
import HTTPTypes
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The check-in desk in the browser: check a guest in from their page or the guest list, and
/// take a check-in back with a reason. A check-in is the API's check-in, as a device sends it
/// (its batch route, one entry): the same Idempotency-Key (the console as the device, the
/// guest, the time the page was made), so a form sent twice checks in once, and the same
/// answers ("already checked in" names who did it and when).
extension ConsoleRoutes {
    func registerCheckInDesk(on group: RouterGroup<AppRequestContext>) {
        group.on(ConsolePages.checkInGuest, use: checkInGuest)
        group.on(ConsolePages.undoCheckIn, use: undoCheckIn)
    }

    /// The device id of the console's check-ins.
    static let deskDevice = "console"

    /// How old a check-in form may be: a page left open longer is made again before it checks in.
    static let deskFormLifetime: TimeInterval = 12 * 3_600

    /// The guest list's filters, the same for its page, its CSV and its bulk e-mail.
    static let guestListFilterNames = ["q", "accessTypeId", "status", "checkIn", "sort"]

    /// The guest list's filters and page a check-in from the list goes back to (nothing else of
    /// the form).
    static let guestListParameters = guestListFilterNames + ["after"]

    @Sendable func checkInGuest(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, guestId) = try ConsolePages.checkInGuest.parameters(in: context)
        let now = dependencies.clock.now()
        return try await changing(request, context) { _, form, call in
            guard let millis = form["scannedAt"].flatMap(Int64.init),
                abs(now.timeIntervalSince(Date(millisecondsSince1970: millis))) <= Self.deskFormLifetime
            else {
                throw EventForm.Invalid(sentence: "This page is too old to check in from; reload it and try again.")
            }
            let entry = CheckInRequest(
                guestId: guestId, deviceId: Self.deskDevice, scannedAt: Date(millisecondsSince1970: millis),
                method: .manual)
            let answer = try await call(
                API.checkInBatch.line(id), try OutpostJSON.encode(CheckInBatchRequest(entries: [entry])))
            let back = Self.deskReturn(form, event: id, guest: guestId)
            guard answer.status == .ok, let result = try CheckInBatchAnswer.split(answer.body).first else {
                return .refused(answer, back: back(nil))
            }
            let entryAnswer = ConsoleAPI.Answer(
                status: HTTPResponse.Status(code: result.status), body: result.body, renewed: nil)
            guard let decided = try? entryAnswer.decode(CheckInResponse.self) else {
                return .refused(entryAnswer, back: back(nil))
            }
            return .redirect(back(decided.result == .alreadyCheckedIn ? "already" : "checked-in"))
        }
    }

    @Sendable func undoCheckIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, guestId) = try ConsolePages.undoCheckIn.parameters(in: context)
        return try await changing(request, context) { _, form, call in
            guard let checkIn = form["checkInId"].flatMap(CheckInID.init(wire:)) else {
                throw EventForm.Invalid(sentence: "This form names no check-in; reload the guest's page.")
            }
            let back = ConsolePages.guest.path(id, guestId)
            let body = try OutpostJSON.encode(UndoCheckInRequest(reason: form["reason"] ?? ""))
            let answer = try await call(API.undoCheckIn.line(id, checkIn), body)
            guard answer.status == .ok else { return .refused(answer, back: back) }
            return .redirect(ConsolePages.guest.path(id, guestId, query: [("done", "undone")]))
        }
    }

    /// Where a check-in form goes back to, with what it did: the guest list it came from (its
    /// filters and page, from the form's `list`), or the guest's page.
    static func deskReturn(
        _ form: [String: String], event: EventID, guest: GuestID
    ) -> (_ done: String?) -> String {
        guard let list = form["list"] else {
            return { done in ConsolePages.guest.path(event, guest, query: done.map { [("done", $0)] } ?? []) }
        }
        let kept = guestListFilters(list, keeping: guestListParameters)
        return { done in ConsolePages.guests.path(event, query: kept + (done.map { [("done", $0)] } ?? [])) }
    }

    /// The guest list's parameters among a form's urlencoded `list` (its filters, and the page
    /// when `keeping` says so), nothing else of it.
    static func guestListFilters(
        _ list: String, keeping names: [String] = guestListFilterNames
    ) -> [(String, String?)] {
        (URLComponents(string: "?" + list)?.queryItems ?? []).compactMap { item -> (String, String?)? in
            guard names.contains(item.name), let value = item.value, !value.isEmpty else { return nil }
            return (item.name, value)
        }
    }
}
