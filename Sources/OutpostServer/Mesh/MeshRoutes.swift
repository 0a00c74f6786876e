import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// The venue mesh's certificates: `POST /v1/events/{eventId}/mesh/certificate` certifies the
/// calling device's key for the event (those who work its doors: check-in staff, support, its
/// organizers), and `GET …/mesh/revocations` lists what the tenant's authority has revoked for
/// it, signed, for devices to learn and pass on to their peers.
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
    }

    @Sendable func certify(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.meshCertificate.parameters(in: context), context, dependencies, requiring: Self.doorRoles)
        let body = try await HTTPHelpers.decode(MeshCertificateRequest.self, from: request)
        guard MeshIdentity.isValidDevice(body.device) else {
            throw APIError.invalidRequest(
                "'device' must be 1 to 64 letters, digits or -_.:@.", status: .unprocessableContent)
        }
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
}
