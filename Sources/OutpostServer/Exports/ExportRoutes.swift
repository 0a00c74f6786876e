import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OutpostCore
import OutpostProtocol

/// The event's check-ins, its audit log and its attendee list as CSV for a spreadsheet
/// (organizer, support): `GET /v1/events/{eventId}/checkins.csv`, `…/audit.csv` (the audit's
/// filters apply) and `…/guests.csv` (the guest list's filters apply). Written by ``CSVWriter`` (RFC 4180, formula-safe: a guest named `=HYPERLINK(…)`
/// is text in the sheet), streamed a page at a time, times with the event's UTC offset.
struct ExportRoutes {
    let dependencies: ServerDependencies

    static let pageSize = 1_000
    static let checkInHeader = [
        "checked_in_at", "guest", "email", "code", "access_type", "status", "by", "device", "method", "note",
    ]
    static let auditHeader = [
        "at", "kind", "guest", "guest_id", "user", "user_id", "device", "method", "device_time", "entry",
    ]

    static let guestHeader = [
        "name", "email", "code", "access_type", "status", "checked_in_at", "checked_in_by", "notes",
    ]

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.exportCheckIns, use: checkIns)
        group.on(API.exportAudit, use: audit)
        group.on(API.exportGuests, use: guests)
    }

    /// The attendee list: the guest list's filters, by name, every guest (not a page).
    @Sendable func guests(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.exportGuests.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let filter = try GuestRoutes.filter(request)
        let store = dependencies.store
        let clock = Self.timestamps(event.timeZone)
        let names = Dictionary(
            try await store.accessTypes(eventId: event.id).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        // The event's own fields follow, a column each, headed by the label (as the import reads).
        let fields = try await store.guestFields(eventId: event.id)
        return Self.csv("guests.csv") { writer in
            try await writer.write(ByteBuffer(string: CSVWriter.record(Self.guestHeader + fields.map(\.label))))
            var cursor: GuestListCursor?
            repeat {
                let page = try await store.guestList(
                    event: event, filter: filter, after: cursor, limit: Self.pageSize, counted: false)
                let text = page.guests.map { guest in
                    CSVWriter.record(
                        [
                            guest.name, guest.email, guest.code, names[guest.accessTypeId] ?? "", guest.status.rawValue,
                            guest.checkIn.map { clock.string($0.at) } ?? "", guest.checkIn?.byName ?? "", guest.notes,
                        ] + fields.map { guest.fields?[$0.id.wire] ?? "" })
                }.joined()
                if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                cursor = page.next.flatMap { GuestListCursor(token: $0, sort: filter.sort) }
            } while cursor != nil
        }
    }

    /// Times on the event's clock with its offset: `2026-12-12T19:04:05+01:00`.
    static func timestamps(_ zone: String) -> WallClockFormat {
        WallClockFormat("yyyy-MM-dd'T'HH:mm:ssXXXXX", zone: zone)
    }

    static func timestamp(_ date: Date, _ zone: String) -> String { timestamps(zone).string(date) }

    static func csv(
        _ name: String, _ write: @escaping @Sendable (inout any ResponseBodyWriter) async throws -> Void
    )
        -> Response
    {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: ResponseBody { writer in
                try await write(&writer)
                try await writer.finish(nil)
            })
    }

    @Sendable func checkIns(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.exportCheckIns.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let store = dependencies.store
        let clock = Self.timestamps(event.timeZone)
        return Self.csv("checkins.csv") { writer in
            try await writer.write(ByteBuffer(string: CSVWriter.record(Self.checkInHeader)))
            var after: (at: Date, id: String)?
            while true {
                let rows = try await store.checkInExport(eventId: event.id, after: after, limit: Self.pageSize)
                let text = rows.map {
                    CSVWriter.record([
                        clock.string($0.at), $0.guestName, $0.email, $0.code, $0.accessType,
                        $0.status,
                        $0.byName, $0.deviceId, $0.method, $0.note,
                    ])
                }.joined()
                if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                guard rows.count == Self.pageSize, let last = rows.last else { break }
                after = (last.at, last.id)
            }
        }
    }

    @Sendable func audit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.exportAudit.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let filter = try EventRoutes.auditFilter(request)
        let store = dependencies.store
        let clock = Self.timestamps(event.timeZone)
        return Self.csv("audit.csv") { writer in
            try await writer.write(ByteBuffer(string: CSVWriter.record(Self.auditHeader)))
            var cursor = AuditCursor.start
            while true {
                let page = try await store.auditPage(event: event, after: cursor, limit: Self.pageSize, filter: filter)
                let text = page.entries.map {
                    CSVWriter.record([
                        clock.string($0.at), $0.kind.rawValue, $0.guestName ?? "",
                        $0.guestId?.wire ?? "", $0.userName ?? "", $0.userId?.wire ?? "", $0.deviceId ?? "",
                        $0.method ?? "", $0.clientAt.map(clock.string) ?? "", $0.id,
                    ])
                }.joined()
                if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
                guard page.hasMore, let next = AuditCursor(token: page.cursor) else { break }
                cursor = next
            }
        }
    }
}
