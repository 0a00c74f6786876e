import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Seed 003 on the server: a worker's confirmed days, stored once each; the weeks an employer
/// finalises; the worker's data rights (export, delete). Every case runs on SQLite and
/// PostgreSQL. The test clock stands at Wednesday 2026-11-18 11:06 UTC.
@Suite("Time tracking: day submissions and data rights")
struct TrackingContractTests {
    static let day = "2026-11-17"

    static func submission(
        _ id: UUID = UUID(), day: String = day, zone: String = "Europe/Berlin", minutes: Int = 480
    ) -> DaySubmissionRequest {
        let start = OutpostJSON.parse("\(day)T07:00:00Z")!
        return DaySubmissionRequest(
            submissionId: id, timeZone: zone,
            sessions: [
                SubmittedSession(
                    id: UUID(), location: "Haus Linde", clockIn: start,
                    clockOut: start.addingTimeInterval(Double(minutes) * 60), method: "geofence_auto", short: false)
            ], trackedMinutes: minutes, confirmedAt: start.addingTimeInterval(86_400))
    }

    static func submit(
        _ api: TestAPI, _ worker: Session, _ body: DaySubmissionRequest, day: String = day
    )
        async throws -> APIResponse
    {
        try await api.request(.put, "/v1/tracking/days/\(day)", token: worker.accessToken, json: body)
    }

    @Test(
        "track-day-submit-idempotent: a day is stored once; the same submission again answers it; another is 409",
        arguments: StoreKind.allCases)
    func submitOnce(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(world.organizer, email: "wanda@acme.test", role: .worker, name: "W")
            let body = Self.submission()
            let first = try await Self.submit(api, worker, body)
            #expect(first.status == 201)
            let stored = try first.decode(DaySubmission.self)
            #expect(stored.week == "2026-W47" && stored.trackedMinutes == 480 && stored.userId == worker.user.id)
            // The answer was lost: the same submission answers what was stored, byte for byte.
            let replay = try await Self.submit(api, worker, body)
            #expect(replay.status == 200 && replay.body == first.body)
            // A second confirmation of the same day (another phone): refused, with the one that stands.
            let second = try await Self.submit(api, worker, Self.submission(minutes: 300))
            #expect(second.status == 409 && second.errorCode == "day_already_submitted")
            let conflict = try second.decode(DaySubmissionConflict.self)
            #expect(conflict.current == stored && conflict.message.contains("already submitted"))
            let list: DaySubmissionList = try await api.request(
                .get, "/v1/tracking/days", token: worker.accessToken
            ).decode()
            #expect(list.days == [stored])
            // The organizer of the tenant reads it; a worker reads only their own.
            let seen: DaySubmissionList = try await api.request(
                .get, "/v1/tracking/users/\(worker.user.id)/days", token: world.organizer.accessToken
            ).decode()
            #expect(seen.days == [stored])
            let colleague = try await api.createUser(
                world.organizer, email: "wim@acme.test", role: .worker, name: "Wim")
            #expect(
                try await api.request(
                    .get, "/v1/tracking/users/\(worker.user.id)/days", token: colleague.accessToken
                ).status == 403)
            let theirs: DaySubmissionList = try await api.request(
                .get, "/v1/tracking/days", token: colleague.accessToken
            ).decode()
            #expect(theirs.days.isEmpty)
        }
    }

    @Test(
        "track-strict-input-api: a submission naming 30 February or 25:00 is refused as invalid and stores nothing",
        arguments: StoreKind.allCases)
    func strictTimes(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(world.organizer, email: "wanda@acme.test", role: .worker, name: "W")
            let valid = String(decoding: try OutpostJSON.encode(Self.submission()), as: UTF8.self)
            #expect(valid.contains("\"2026-11-17T07:00:00.000Z\""))
            for bad in ["2026-02-30T07:00:00.000Z", "2026-11-17T25:00:00.000Z", "2026-11-17T07:60:00.000Z"] {
                let body = valid.replacingOccurrences(of: "2026-11-17T07:00:00.000Z", with: bad)
                let response = try await api.request(
                    .put, "/v1/tracking/days/\(Self.day)", token: worker.accessToken, body: Array(body.utf8),
                    headers: [.contentType: "application/json"])
                #expect(response.status == 400 || response.status == 422, "\(bad): \(response.status)")
            }
            let list: DaySubmissionList = try await api.request(
                .get, "/v1/tracking/days", token: worker.accessToken
            ).decode()
            #expect(list.days.isEmpty)
        }
    }

    @Test(
        "track-week-finalised: after the employer finalises a week no day of it can be submitted",
        arguments: StoreKind.allCases)
    func finalisedWeek(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(world.organizer, email: "wanda@acme.test", role: .worker, name: "W")
            #expect(
                try await Self.submit(api, worker, Self.submission(day: "2026-11-16"), day: "2026-11-16").status == 201)
            let path = "/v1/tracking/users/\(worker.user.id)/weeks/2026-W47/finalise"
            // Only an organizer finalises, and only their own tenant's workers.
            #expect(try await api.request(.post, path, token: worker.accessToken).status == 403)
            #expect(try await api.request(.post, path, token: world.otherOrganizer.accessToken).status == 404)
            let finalised: FinalisedWeek = try await api.request(.post, path, token: world.organizer.accessToken)
                .decode()
            #expect(finalised.week == "2026-W47" && finalised.finalisedBy == world.organizer.user.id)
            let again: FinalisedWeek = try await api.request(.post, path, token: world.organizer.accessToken).decode()
            #expect(again == finalised)
            let late = try await Self.submit(api, worker, Self.submission())
            #expect(late.status == 409 && late.errorCode == "week_finalised")
            #expect(try late.decode(DaySubmissionConflict.self).finalisedWeek == finalised)
            // The next week is open.
            #expect(
                try await api.request(
                    .post, "/v1/tracking/users/\(worker.user.id)/weeks/2026-W99/finalise",
                    token: world.organizer.accessToken
                ).status == 400)
        }
    }

    @Test(
        "track-corrections-server: a day's tracked and corrected minutes, each session's corrections and its deleted sessions are stored and read back as sent; a deleted session without its deletion or minutes beyond the day are refused",
        arguments: StoreKind.allCases)
    func corrections(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(world.organizer, email: "wanda@acme.test", role: .worker, name: "W")
            var body = Self.submission(minutes: 450)
            let start = body.sessions[0].clockIn
            let tracked = SessionTimes(clockIn: start, clockOut: start.addingTimeInterval(8 * 3600))
            let correctedAt = start.addingTimeInterval(9 * 3600)
            body.sessions[0].asTracked = tracked
            body.sessions[0].corrections = [
                SessionCorrection(
                    by: worker.user.id, at: correctedAt, before: tracked,
                    after: SessionTimes(clockIn: start, clockOut: body.sessions[0].clockOut))
            ]
            let deletedTimes = SessionTimes(
                clockIn: start.addingTimeInterval(9 * 3600), clockOut: start.addingTimeInterval(10 * 3600))
            body.deletedSessions = [
                SubmittedSession(
                    id: UUID(), location: "Haus Linde", clockIn: deletedTimes.clockIn, clockOut: deletedTimes.clockOut,
                    method: "manual", short: false,
                    corrections: [
                        SessionCorrection(by: worker.user.id, at: correctedAt, before: deletedTimes, after: nil)
                    ])
            ]
            body.asTrackedMinutes = 540
            // Refused first: minutes beyond the day, and a deleted session whose last change is not its deletion.
            var beyond = body
            beyond.asTrackedMinutes = 24 * 60 + 1
            #expect(try await Self.submit(api, worker, beyond).status == 422)
            var undeleted = body
            undeleted.deletedSessions?[0].corrections?[0].after = deletedTimes
            let refused = try await Self.submit(api, worker, undeleted)
            #expect(refused.status == 422 && refused.text.contains("deletion"), "\(refused.text)")
            let stored = try await Self.submit(api, worker, body)
            #expect(stored.status == 201, "\(stored.text)")
            let list: DaySubmissionList = try await api.request(
                .get, "/v1/tracking/users/\(worker.user.id)/days", token: world.organizer.accessToken
            ).decode()
            let day = try #require(list.days.first)
            #expect(day.trackedMinutes == 450 && day.asTrackedMinutes == 540)
            #expect(day.sessions == body.sessions && day.deletedSessions == body.deletedSessions)
            #expect(day.sessions[0].method == "geofence_auto", "the geofence's session stays one, corrected beside")
        }
    }

    @Test(
        "track-day-validation: a day not over, sessions of another day, a bad zone and non-workers are refused",
        arguments: StoreKind.allCases)
    func validation(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(world.organizer, email: "wanda@acme.test", role: .worker, name: "W")
            let today = try await Self.submit(api, worker, Self.submission(day: "2026-11-18"), day: "2026-11-18")
            #expect(today.status == 422 && today.text.contains("not over"))
            let elsewhere = try await Self.submit(api, worker, Self.submission(day: "2026-11-16"))
            #expect(elsewhere.status == 422)
            #expect(try await Self.submit(api, worker, Self.submission(zone: "Mars/Olympus")).status == 422)
            #expect(try await Self.submit(api, worker, Self.submission(), day: "2026-02-30").status == 400)
            #expect(try await Self.submit(api, world.organizer, Self.submission()).status == 403)
            #expect(try await Self.submit(api, world.staff1, Self.submission()).status == 403)
        }
    }

    @Test(
        "gdpr-server-export-delete: the export holds the account, consent and days; after delete nothing of the worker is left",
        arguments: StoreKind.allCases)
    func exportAndDelete(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let worker = try await api.createUser(
                world.organizer, email: "wanda.erased@acme.test", role: .worker, name: "Wanda Erased")
            _ = try await api.request(
                .put, "/v1/me/consent", token: worker.accessToken, json: ConsentRecord(version: "2026-01"))
            let stored = try await Self.submit(api, worker, Self.submission()).decode(DaySubmission.self)
            let export = try await api.request(.get, "/v1/me/export", token: worker.accessToken)
            #expect(export.headers[.cacheControl] == "no-store")
            let document = try export.decode(AccountExport.self)
            #expect(document.user.email == "wanda.erased@acme.test" && document.consent.version == "2026-01")
            #expect(document.days == [stored] && document.devices == ["test-device"])
            // Staff accounts are the organization's to remove.
            #expect(try await api.request(.delete, "/v1/me", token: world.staff1.accessToken).status == 403)
            #expect(try await api.request(.delete, "/v1/me", token: worker.accessToken).status == 204)
            #expect(try await api.request(.get, "/v1/me/export", token: worker.accessToken).status == 401)
            #expect(
                try await Self.submit(api, worker, Self.submission(day: "2026-11-16"), day: "2026-11-16").status == 401)
            #expect(try await Self.refresh(api, worker).status == 401)
            let leftovers = try await Self.rows(
                in: api.store, mentioning: ["wanda.erased", "Wanda Erased", worker.user.id.wire])
            #expect(leftovers.isEmpty, "rows still naming the worker: \(leftovers)")
            // The tenant and its other people are untouched.
            #expect(try await api.request(.get, "/v1/events", token: world.organizer.accessToken).status == 200)
        }
    }

    static func refresh(_ api: TestAPI, _ session: Session) async throws -> APIResponse {
        try await api.request(.post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
    }

    /// Every row of every table with a text or blob value containing one of `needles`.
    static func rows(in store: Store, mentioning needles: [String]) async throws -> [String] {
        try await store.database.read { connection in
            let tables =
                store.database.dialect == .postgres
                ? try await connection.query(
                    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()", []
                )
                : try await connection.query(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'", [])
            var found: [String] = []
            for table in try tables.map({ try $0.text("name") }) {
                for row in try await connection.query("SELECT * FROM \(table)", []) {
                    for value in row.values {
                        let text: String
                        switch value {
                        case .text(let string): text = string
                        case .blob(let bytes): text = String(decoding: bytes, as: UTF8.self)
                        default: continue
                        }
                        if needles.contains(where: { text.localizedCaseInsensitiveContains($0) }) {
                            found.append("\(table): \(text.prefix(80))")
                        }
                    }
                }
            }
            return found
        }
    }
}
