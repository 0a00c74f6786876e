import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The venue mesh's certificates: `POST /v1/events/{eventId}/mesh/certificate` certifies the
/// calling device's key for the event (those who work its doors: check-in staff, support, its
/// organizers), and `GET …/mesh/revocations` lists what the tenant's authority has revoked for
/// it, signed, for devices to learn and pass on to their peers; `POST …/mesh/entries` takes the
/// signed entries a door holds that the server lacks (custody, ``MeshUpload``).
struct MeshRoutes {
    let dependencies: ServerDependencies

    /// The roles a mesh certificate is issued to: those who scan at the event's doors.
    static let doorRoles: Set<UserRole> = [.organizer, .support, .checkinStaff]
    /// A certificate is valid from 12 hours before the event (an hour before now, if later
    /// already) to 12 hours after it, and never more than 14 days ahead.
    static let margin: TimeInterval = 12 * 3600
    static let longest: TimeInterval = 14 * 86400

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.meshCertificate, use: certify)
        group.on(API.meshRevocations, use: revocations)
        group.on(API.meshEntries, use: upload)
    }

    /// A device id as a certificate and an entry carry it (``MeshIdentity/isValidDevice(_:)``),
    /// else 422.
    static func checkDevice(_ device: String) throws {
        guard MeshIdentity.isValidDevice(device) else {
            throw APIError.invalidRequest(
                "'device' must be 1 to 64 letters, digits or -_.:@.", status: .unprocessableContent)
        }
    }

    @Sendable func certify(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.meshCertificate.parameters(in: context), context, dependencies, requiring: Self.doorRoles)
        let body = try await HTTPHelpers.decode(MeshCertificateRequest.self, from: request)
        try Self.checkDevice(body.device)
        guard let spki = Data(base64Encoded: body.publicKey),
            let publicKey = try? MeshCertificates.publicKey(spkiDER: Array(spki))
        else {
            throw APIError.invalidRequest(
                "'publicKey' must be a P-256 public key (SubjectPublicKeyInfo DER, base64).",
                status: .unprocessableContent)
        }
        let now = dependencies.clock.now()
        let notAfter = min(event.endsAt.addingTimeInterval(Self.margin), now.addingTimeInterval(Self.longest))
        guard notAfter > now else {
            throw APIError.invalidRequest(
                "The event ended more than 12 hours ago: its mesh is closed.", status: .conflict)
        }
        let notBefore = min(event.startsAt.addingTimeInterval(-Self.margin), now.addingTimeInterval(-3600))
        let store = dependencies.store
        let authority = try await store.meshAuthority(tenantId: event.tenantId, now: now)
        let identity = MeshIdentity(
            tenant: event.tenantId, event: event.id, user: context.caller.userId, device: body.device,
            role: context.caller.role.rawValue)
        let record = try await store.certifyMeshDevice(
            identity, publicKey: publicKey, authority: authority, notBefore: notBefore, notAfter: notAfter, now: now)
        return try HTTPHelpers.json(
            MeshCredentials(
                certificate: Data(record.certificate).base64EncodedString(),
                authority: Data(authority.certificateDER).base64EncodedString(), fingerprint: authority.fingerprint,
                serial: record.serial, notBefore: notBefore, notAfter: record.notAfter,
                revocations: try await store.meshRevocations(eventId: event.id, authority: authority), serverTime: now))
    }

    @Sendable func revocations(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.meshRevocations.parameters(in: context), context, dependencies, requiring: Self.doorRoles)
        let authority = try await dependencies.store.meshAuthority(
            tenantId: event.tenantId, now: dependencies.clock.now())
        return try HTTPHelpers.json(
            MeshRevocationList(
                revocations: try await dependencies.store.meshRevocations(eventId: event.id, authority: authority)))
    }

    /// A door's entries, each checked on its own: decoded, of this event, not a fork of one the
    /// server keeps, signed by a certificate the authority issued its author for the event and
    /// made before that certificate was revoked or expired. Each new one is applied as its
    /// author's check-in (``CheckInCommand/viaMesh``) and kept; the answer says what became of
    /// each and what the server now holds of every author.
    @Sendable func upload(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.meshEntries.parameters(in: context), context, dependencies, requiring: Self.doorRoles)
        let body = try await HTTPHelpers.decode(MeshUpload.self, from: request)
        try Self.checkDevice(body.device)
        guard body.entries.count <= MeshUpload.maximumEntries, body.peers.count <= MeshUpload.maximumPeers,
            body.peers.allSatisfy(MeshIdentity.isValidDevice), (0...10_000_000).contains(body.held)
        else {
            throw APIError.invalidRequest(
                "At most \(MeshUpload.maximumEntries) entries and \(MeshUpload.maximumPeers) peers (device ids), and 'held' a whole number from 0.",
                status: .unprocessableContent)
        }
        let store = dependencies.store
        let now = dependencies.clock.now()
        var results: [MeshUploadResult?] = Array(repeating: nil, count: body.entries.count)
        var checked: [(index: Int, record: MeshEntryRecord)] = []
        var keys: [String: [MeshAuthorKey]] = [:]
        var seen = Set<[UInt8]>()
        for (index, text) in body.entries.enumerated() {
            guard let bytes = Data(base64Encoded: text), let entry = try? MeshEntry(decoding: Array(bytes)) else {
                results[index] = MeshUploadResult(author: nil, seq: nil, outcome: .refused, reason: .malformed)
                continue
            }
            func refuse(_ reason: MeshUploadResult.Reason) {
                results[index] = MeshUploadResult(
                    author: entry.author, seq: entry.seq, outcome: .refused, reason: reason)
            }
            guard entry.event == event.id else {
                refuse(.otherEvent)
                continue
            }
            if keys[entry.author] == nil {
                keys[entry.author] = try await store.meshAuthorKeys(eventId: event.id, device: entry.author)
            }
            guard let key = keys[entry.author]?.first(where: { entry.isSigned(by: $0.publicKey) }) else {
                refuse(.unsigned)
                continue
            }
            let scannedAt = Date(millisecondsSince1970: entry.scannedAt)
            guard scannedAt <= key.notAfter, key.revokedAt.map({ scannedAt < $0 }) ?? true else {
                refuse(.revoked)
                continue
            }
            if let kept = try await store.meshEntryId(eventId: event.id, author: entry.author, seq: entry.seq) {
                if kept == entry.id {
                    results[index] = MeshUploadResult(author: entry.author, seq: entry.seq, outcome: .held)
                } else {
                    dependencies.logger.warning(
                        "venue mesh fork: two entries under one author and number",
                        metadata: ["event": "\(event.id)", "author": "\(entry.author)", "seq": "\(entry.seq)"])
                    refuse(.fork)
                }
                continue
            }
            guard seen.insert(entry.id).inserted else {
                results[index] = MeshUploadResult(author: entry.author, seq: entry.seq, outcome: .held)
                continue
            }
            checked.append((index, MeshEntryRecord(entry: entry, userId: key.userId, uploadedBy: body.device)))
        }

        // Each new entry is its author's check-in, decided as the author's own would be.
        let roles = try await store.meshAuthorRoles(Set(checked.map(\.record.userId)))
        var commands: [(index: Int, record: MeshEntryRecord, command: CheckInCommand)] = []
        for (index, record) in checked {
            guard let role = roles[record.userId] else {
                results[index] = MeshUploadResult(
                    author: record.entry.author, seq: record.entry.seq, outcome: .refused, reason: .authorNotAllowed)
                continue
            }
            let entry = record.entry
            let checkIn = CheckInRequest(
                guestId: entry.guest, deviceId: entry.author, scannedAt: Date(millisecondsSince1970: entry.scannedAt),
                method: .manual)
            commands.append(
                (
                    index, record,
                    CheckInCommand(
                        caller: Caller(userId: record.userId, tenantId: event.tenantId, role: role),
                        eventId: event.id, guestId: entry.guest, idempotencyKey: checkIn.idempotencyKey.description,
                        requestHash: CheckInCommand.meshCustodyHash, request: checkIn, now: now,
                        dedupeWindow: dependencies.configuration.dedupeWindow, viaMesh: true)
                ))
        }
        var kept: [MeshEntryRecord] = []
        if !commands.isEmpty {
            let answers = try await store.checkIns(commands.map(\.command), render: CheckInRoutes.render)
            for ((index, record, _), answer) in zip(commands, answers) {
                let entry = record.entry
                if case .fresh(_, let outcome) = answer, outcome == .notFound || outcome == .eventNotVisible {
                    // The author may no longer work the event: not the event's record.
                    results[index] = MeshUploadResult(
                        author: entry.author, seq: entry.seq, outcome: .refused, reason: .authorNotAllowed)
                    continue
                }
                if case .fresh(_, let outcome) = answer {
                    dependencies.metrics.countCheckIn(result: CheckInRoutes.metricName(outcome))
                }
                results[index] = MeshUploadResult(author: entry.author, seq: entry.seq, outcome: .applied)
                kept.append(record)
            }
        }
        try await store.keepMeshEntries(
            kept, report: (body.device, context.caller.userId, body.held, body.peers), eventId: event.id, now: now)
        let answered = results.map {
            $0 ?? MeshUploadResult(author: nil, seq: nil, outcome: .refused, reason: .malformed)
        }
        for result in answered {
            dependencies.metrics.countMeshEntry(result: result.reason?.rawValue ?? result.outcome.rawValue)
        }
        return try HTTPHelpers.json(
            MeshUploadAnswer(results: answered, vector: try await store.meshVector(eventId: event.id)))
    }
}
