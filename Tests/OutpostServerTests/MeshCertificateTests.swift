import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing
import X509

@testable import OutpostServer

/// The venue mesh's certificates: the tenant's authority certifies a door's key for one event,
/// and what it revokes reaches the doors signed.
@Suite("Mesh certificates")
struct MeshCertificateTests {
    /// Asks for a certificate for `key` as `device`.
    static func certify(
        _ api: TestAPI, _ session: Session, event: EventID, device: String, key: P256.Signing.PrivateKey
    ) async throws -> APIResponse {
        try await api.request(
            .post, API.meshCertificate.path(event), token: session.accessToken,
            json: MeshCertificateRequest(
                device: device, publicKey: key.publicKey.derRepresentation.base64EncodedString()))
    }

    /// The trust a door builds from its credentials, with their revocations learnt.
    static func trust(_ credentials: MeshCredentials, tenant: TenantID, event: EventID) throws -> MeshTrust {
        let authority = try Certificate(derEncoded: Array(try #require(Data(base64Encoded: credentials.authority))))
        var trust = MeshTrust(authority: authority, tenant: tenant, event: event)
        for revocation in credentials.revocations { try trust.learn(revocation) }
        return trust
    }

    static func certificate(_ credentials: MeshCredentials) throws -> Certificate {
        try Certificate(derEncoded: Array(try #require(Data(base64Encoded: credentials.certificate))))
    }

    @Test(
        "mesh-certify: check-in staff on the event get their device's key certified by the tenant's authority for that event (12 hours either side of it); the same key again is the same certificate, a new key revokes the old; another tenant's authority is another",
        arguments: StoreKind.allCases)
    func certify(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let key = P256.Signing.PrivateKey()
            let first = try await Self.certify(api, world.staff1, event: world.event.id, device: "door-1", key: key)
            #expect(first.status == 200, "\(first.text)")
            let credentials = try first.decode(MeshCredentials.self)
            let tenant = world.organizer.user.tenantId
            let trust = try Self.trust(credentials, tenant: tenant, event: world.event.id)
            let certificate = try Self.certificate(credentials)
            let identity = try trust.check(certificate, at: api.clock.now)
            #expect(
                identity
                    == MeshIdentity(
                        tenant: tenant, event: world.event.id, user: world.staff1.user.id, device: "door-1",
                        role: "checkin_staff"))
            #expect(certificate.publicKey == Certificate.PublicKey(key.publicKey))
            #expect(credentials.notBefore == world.event.startsAt.addingTimeInterval(-12 * 3600))
            #expect(credentials.notAfter == world.event.endsAt.addingTimeInterval(12 * 3600))
            #expect(certificate.notValidAfter == credentials.notAfter)
            #expect(
                credentials.fingerprint
                    == MeshCertificates.fingerprint(Array(Data(base64Encoded: credentials.authority)!)))
            #expect(credentials.revocations.isEmpty)
            // Again with the same key: the same certificate.
            let again = try await Self.certify(api, world.staff1, event: world.event.id, device: "door-1", key: key)
            #expect(try again.decode(MeshCredentials.self).serial == credentials.serial)
            // A support user and the organizer get theirs from the same authority.
            let support = try await Self.certify(
                api, world.support, event: world.event.id, device: "desk", key: P256.Signing.PrivateKey())
            let supportCredentials = try support.decode(MeshCredentials.self)
            #expect(supportCredentials.authority == credentials.authority)
            #expect(try trust.check(try Self.certificate(supportCredentials), at: api.clock.now).role == "support")
            // The device reset: a new key revokes the old certificate, and the revocation is the
            // authority's.
            let reset = try await Self.certify(
                api, world.staff1, event: world.event.id, device: "door-1", key: P256.Signing.PrivateKey())
            let resetCredentials = try reset.decode(MeshCredentials.self)
            #expect(resetCredentials.serial != credentials.serial)
            #expect(resetCredentials.revocations.map(\.serialHex) == [credentials.serial])
            let after = try Self.trust(resetCredentials, tenant: tenant, event: world.event.id)
            #expect(throws: MeshRefusal.revoked) { try after.check(certificate, at: api.clock.now) }
            #expect(try after.check(try Self.certificate(resetCredentials), at: api.clock.now).device == "door-1")
            // Another tenant: another authority, whose doors this one's refuse.
            let other = try await Self.certify(
                api, world.otherOrganizer, event: world.otherEvent.id, device: "door-1", key: P256.Signing.PrivateKey())
            let otherCredentials = try other.decode(MeshCredentials.self)
            #expect(otherCredentials.authority != credentials.authority)
            #expect(throws: MeshRefusal.uncertified) {
                try trust.check(try Self.certificate(otherCredentials), at: api.clock.now)
            }
        }
    }

    @Test(
        "mesh-certify-refused: staff not on the event and an exhibitor (even on a booth) get 404; a device id or key that is not one is 422, another tenant's event 404, and an event over for 12 hours 409",
        arguments: StoreKind.allCases)
    func refused(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let key = P256.Signing.PrivateKey()
            let elsewhere = try await api.createEvent(world.organizer, name: "Elsewhere")
            #expect(
                try await Self.certify(api, world.staff1, event: elsewhere.id, device: "d", key: key).status == 404)
            let exhibitor = try await api.createUser(
                world.organizer, email: "ex@acme.test", role: .exhibitor, name: "Exhibitor")
            // An exhibitor, even on one of its booths, does not work the event's doors: as for any
            // event they may not work, 404.
            let booths = try await api.request(
                .put, API.setBooths.path(world.event.id), token: world.organizer.accessToken,
                json: BoothList(booths: [Booth(id: .random(), name: "Stand 1", exhibitors: [exhibitor.user.id])]))
            #expect(booths.status == 200, "\(booths.text)")
            let refused = try await Self.certify(api, exhibitor, event: world.event.id, device: "d", key: key)
            #expect(refused.status == 404, "\(refused.text)")
            #expect(
                try await Self.certify(api, world.otherOrganizer, event: world.event.id, device: "d", key: key).status
                    == 404)
            for device in ["", String(repeating: "d", count: 65), "door 1", "dør"] {
                let bad = try await Self.certify(api, world.staff1, event: world.event.id, device: device, key: key)
                #expect(bad.status == 422, "\(device): \(bad.text)")
            }
            for publicKey in [
                "", "not base64", Curve25519.Signing.PrivateKey().publicKey.rawRepresentation.base64EncodedString(),
                P384.Signing.PrivateKey().publicKey.derRepresentation.base64EncodedString(),
            ] {
                let bad = try await api.request(
                    .post, API.meshCertificate.path(world.event.id), token: world.staff1.accessToken,
                    json: MeshCertificateRequest(device: "d", publicKey: publicKey))
                #expect(bad.status == 422, "\(bad.text)")
            }
            api.clock.advance(by: 6 * 3600 + 12 * 3600 + 1)
            let later = try await api.signIn(email: world.staff1.user.email, password: "staff-password")
            let late = try await Self.certify(api, later, event: world.event.id, device: "d", key: key)
            #expect(late.status == 409 && late.text.contains("mesh is closed"), "\(late.text)")
        }
    }

    @Test(
        "mesh-cert-revoked-server: signing out revokes that device's certificate; ending every sign-in or removing the user revokes all of theirs; each revocation is the authority's signed word, and a door that learns it refuses the certificate",
        arguments: StoreKind.allCases)
    func revokedOnSignOut(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let tenant = world.organizer.user.tenantId
            // Bea on two devices, each signed in on its own.
            let phone = try await api.signIn(
                email: world.staff2.user.email, password: "staff-password", deviceId: "phone")
            let tablet = try await api.signIn(
                email: world.staff2.user.email, password: "staff-password", deviceId: "tablet")
            var serials: [String: String] = [:]
            for (device, session) in [("phone", phone), ("tablet", tablet)] {
                let answer = try await Self.certify(
                    api, session, event: world.event.id, device: device, key: P256.Signing.PrivateKey())
                serials[device] = try answer.decode(MeshCredentials.self).serial
            }
            let alex = try await Self.certify(
                api, world.staff1, event: world.event.id, device: "test-device", key: P256.Signing.PrivateKey())
            let alexSerial = try alex.decode(MeshCredentials.self).serial
            func revoked() async throws -> [MeshRevocation] {
                try await api.lab(world.organizer).call(API.meshRevocations, world.event.id, what: "revocations")
                    .revocations
            }
            #expect(try await revoked().isEmpty)
            // The phone signs out: its certificate only.
            let out = try await api.request(
                .post, API.signOut.path(), json: RefreshRequest(refreshToken: phone.refreshToken))
            #expect((200..<300).contains(out.status))
            #expect(try await revoked().map(\.serialHex) == [serials["phone"]!])
            // The organizer ends every sign-in of Bea: the tablet's too.
            let everywhere = try await api.request(
                .post, API.signOutUser.path(world.staff2.user.id), token: world.organizer.accessToken)
            #expect((200..<300).contains(everywhere.status))
            #expect(Set(try await revoked().map(\.serialHex)) == Set(serials.values))
            // Alex removed: his too.
            let removed = try await api.request(
                .delete, API.removeUser.path(world.staff1.user.id), token: world.organizer.accessToken)
            #expect((200..<300).contains(removed.status))
            let all = try await revoked()
            #expect(Set(all.map(\.serialHex)) == Set(serials.values).union([alexSerial]))
            // Signed by the authority: a door learns them all and refuses Alex's certificate.
            let support = try await Self.certify(
                api, world.support, event: world.event.id, device: "desk", key: P256.Signing.PrivateKey())
            let credentials = try support.decode(MeshCredentials.self)
            #expect(Set(credentials.revocations.map(\.serialHex)) == Set(all.map(\.serialHex)))
            let trust = try Self.trust(credentials, tenant: tenant, event: world.event.id)
            #expect(throws: MeshRefusal.revoked) {
                try trust.check(try Self.certificate(try alex.decode(MeshCredentials.self)), at: api.clock.now)
            }
            // Staff cannot read another event's list; another tenant's organizer gets 404.
            let foreign = try await api.request(
                .get, API.meshRevocations.path(world.event.id), token: world.otherOrganizer.accessToken)
            #expect(foreign.status == 404)
        }
    }
}
