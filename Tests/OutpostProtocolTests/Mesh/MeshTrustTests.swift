import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import Testing
import X509

@Suite("Mesh trust")
struct MeshTrustTests {
    @Test("mesh-cert-accepted: a door certified by the tenant's authority for this event is accepted as who it says")
    func accepted() throws {
        let fixture = try MeshFixture(doors: 1)
        let trust = MeshTrust(authority: fixture.authority.certificate, tenant: fixture.tenant, event: fixture.event)
        #expect(try trust.check(fixture.doors[0].certificate, at: fixture.now) == fixture.doors[0].identity)
        // The authority's key and certificate survive being stored and loaded.
        let loaded = try MeshAuthority(
            keyDER: fixture.authority.keyDER, certificateDER: fixture.authority.certificateDER)
        #expect(loaded.fingerprint == fixture.authority.fingerprint)
        #expect(throws: MeshCertificateError.keyDoesNotMatch) {
            try MeshAuthority(
                keyDER: P256.Signing.PrivateKey().derRepresentation.map { $0 },
                certificateDER: fixture.authority.certificateDER)
        }
    }

    @Test(
        "mesh-cert-uncertified: a certificate another authority issued (even one naming the same tenant), a self-signed one and the authority's own are refused as uncertified"
    )
    func uncertified() throws {
        let fixture = try MeshFixture(doors: 0 + 1)
        let trust = MeshTrust(authority: fixture.authority.certificate, tenant: fixture.tenant, event: fixture.event)
        let impostor = try MeshAuthority.make(tenant: fixture.tenant, now: fixture.now)
        let stranger = try fixture.door("door-9", by: impostor)
        #expect(throws: MeshRefusal.uncertified) { try trust.check(stranger.certificate, at: fixture.now) }
        // Self-signed, with this authority's very subject as issuer.
        let key = P256.Signing.PrivateKey()
        let selfSigned = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: fixture.now.addingTimeInterval(-60), notValidAfter: fixture.now.addingTimeInterval(60),
            issuer: fixture.authority.certificate.subject, subject: fixture.authority.certificate.subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: .init(), issuerPrivateKey: .init(key))
        #expect(throws: MeshRefusal.uncertified) { try trust.check(selfSigned, at: fixture.now) }
        #expect(throws: MeshRefusal.uncertified) { try trust.check(fixture.authority.certificate, at: fixture.now) }
    }

    @Test(
        "mesh-cert-scope: a certificate of this authority for another event or another tenant is refused, each with its reason"
    )
    func scope() throws {
        let fixture = try MeshFixture(doors: 1)
        let trust = MeshTrust(authority: fixture.authority.certificate, tenant: fixture.tenant, event: fixture.event)
        #expect(throws: MeshRefusal.wrongEvent) {
            try trust.check(try fixture.door("door-2", event: .random()).certificate, at: fixture.now)
        }
        #expect(throws: MeshRefusal.wrongTenant) {
            try trust.check(try fixture.door("door-3", tenant: .random()).certificate, at: fixture.now)
        }
    }

    @Test(
        "mesh-cert-expired: a certificate is refused before its validity and after it, by the trusted time the check is given"
    )
    func expired() throws {
        let fixture = try MeshFixture(doors: 1)
        let trust = MeshTrust(authority: fixture.authority.certificate, tenant: fixture.tenant, event: fixture.event)
        let certificate = fixture.doors[0].certificate
        #expect(throws: MeshRefusal.notYetValid) {
            try trust.check(certificate, at: certificate.notValidBefore.addingTimeInterval(-1))
        }
        #expect(throws: MeshRefusal.expired) {
            try trust.check(certificate, at: certificate.notValidAfter.addingTimeInterval(1))
        }
        #expect(try trust.check(certificate, at: certificate.notValidAfter).device == "door-1")
    }

    @Test(
        "mesh-cert-revoked: once a device learns the authority's revocation (from the server or any peer), the certificate is refused and its author's new entries are unknown; a revocation not signed by the authority is refused and changes nothing"
    )
    func revoked() throws {
        var fixture = try MeshFixture(doors: 2)
        var trust = try fixture.trust()
        let before = try fixture.doors[0].admit(.random(), at: 1)
        try trust.verify(before, at: fixture.now)
        let serial = Array(fixture.doors[0].certificate.serialNumber.bytes)
        // Forged: signed by another key.
        let forger = try MeshAuthority.make(tenant: fixture.tenant, now: fixture.now)
        #expect(throws: MeshRefusal.badSignature) { try trust.learn(forger.revoke(serial: serial, at: fixture.now)) }
        #expect(trust.revoked.isEmpty)
        var tampered = fixture.authority.revoke(
            serial: Array(fixture.doors[1].certificate.serialNumber.bytes), at: fixture.now)
        tampered.serial = serial
        #expect(throws: MeshRefusal.badSignature) { try trust.learn(tampered) }
        // The real one, learnt twice: new once.
        let revocation = fixture.authority.revoke(serial: serial, at: fixture.now)
        #expect(try trust.learn(revocation))
        #expect(try !trust.learn(revocation))
        #expect(throws: MeshRefusal.revoked) { try trust.check(fixture.doors[0].certificate, at: fixture.now) }
        let after = try fixture.doors[0].admit(.random(), at: 2)
        #expect(throws: MeshRefusal.unknownAuthor) { try trust.verify(after, at: fixture.now) }
        #expect(throws: MeshRefusal.revoked) { try trust.accept(fixture.doors[0].certificate, at: fixture.now) }
        // The other door is untouched.
        try trust.verify(try fixture.doors[1].admit(.random(), at: 3), at: fixture.now)
    }

    @Test(
        "mesh-entry-forged: an entry naming one door but signed by another door's key, or unsigned, is refused; an author without an accepted certificate is unknown"
    )
    func forged() throws {
        var fixture = try MeshFixture(doors: 2)
        let trust = try fixture.trust()
        var entry = try fixture.doors[0].admit(.random(), at: 1)
        try entry.sign(with: fixture.doors[1].key)
        #expect(throws: MeshRefusal.badSignature) { try trust.verify(entry, at: fixture.now) }
        entry.signature = []
        #expect(throws: MeshRefusal.badSignature) { try trust.verify(entry, at: fixture.now) }
        var stranger = try fixture.door("door-7")
        #expect(throws: MeshRefusal.unknownAuthor) {
            try trust.verify(try stranger.admit(.random(), at: 1), at: fixture.now)
        }
    }

    @Test(
        "mesh-entry-tampered: changing any field of a signed entry (guest, time, door, number, link, event) breaks its signature; an entry for another event is refused as foreign"
    )
    func tampered() throws {
        var fixture = try MeshFixture(doors: 1)
        let trust = try fixture.trust()
        let entry = try fixture.doors[0].admit(.random(), at: 1_795_000_000_000)
        try trust.verify(entry, at: fixture.now)
        let changes: [(String, (inout MeshEntry) -> Void)] = [
            ("guest", { $0.guest = .random() }), ("time", { $0.scannedAt += 1 }), ("door", { $0.door = "door-0" }),
            ("staff", { $0.staff = "Mallory" }), ("number", { $0.seq += 1 }),
            ("link", { $0.previous = Array(repeating: 1, count: 32) }),
        ]
        for (field, change) in changes {
            var changed = entry
            change(&changed)
            #expect(throws: MeshRefusal.badSignature, "\(field)") { try trust.verify(changed, at: fixture.now) }
        }
        var elsewhere = entry
        elsewhere.event = .random()
        #expect(throws: MeshRefusal.foreignEvent) { try trust.verify(elsewhere, at: fixture.now) }
    }

    @Test(
        "mesh-entry-replayed: an entry sent again is known and changes nothing; one from another event's mesh is refused; its certificate expired, the author's entries are refused"
    )
    func replayed() throws {
        var fixture = try MeshFixture(doors: 1)
        let trust = try fixture.trust()
        let entry = try fixture.doors[0].admit(.random(), at: 1)
        var log = MeshLog()
        try trust.verify(entry, at: fixture.now)
        #expect(try log.insert(entry) == .added)
        for _ in 0..<3 { #expect(try log.insert(entry) == .known) }
        #expect(log.count == 1 && log.admissions(of: entry.guest).count == 1)
        // The same door's entry from last year's event, replayed into this one.
        var lastYear = try MeshFixture(doors: 1)
        let old = try lastYear.doors[0].admit(entry.guest, at: 1)
        #expect(throws: MeshRefusal.foreignEvent) { try trust.verify(old, at: fixture.now) }
        let late = fixture.doors[0].certificate.notValidAfter.addingTimeInterval(60)
        #expect(throws: MeshRefusal.expired) { try trust.verify(entry, at: late) }
    }

    @Test(
        "mesh-entry-bytes: an entry decodes from its bytes as it was, signature and all; every shorter prefix, a longer tail, another version tag and random bytes are malformed, and over the size limit is oversize, never a trap"
    )
    func entryBytes() throws {
        var fixture = try MeshFixture(doors: 1)
        let trust = try fixture.trust()
        let entry = try fixture.doors[0].admit(.random(), at: 1_795_000_000_000)
        let bytes = entry.encoded
        let decoded = try MeshEntry(decoding: bytes)
        #expect(decoded == entry && decoded.id == entry.id)
        try trust.verify(decoded, at: fixture.now)
        for length in 0..<bytes.count {
            #expect(throws: MeshRefusal.malformed) { try MeshEntry(decoding: Array(bytes.prefix(length))) }
        }
        #expect(throws: MeshRefusal.malformed) { try MeshEntry(decoding: bytes + [0]) }
        var version = bytes
        version[19] = UInt8(ascii: "2")
        #expect(throws: MeshRefusal.malformed) { try MeshEntry(decoding: version) }
        #expect(throws: MeshRefusal.oversize) {
            try MeshEntry(decoding: bytes + [UInt8](repeating: 0, count: MeshEntry.maximumSize))
        }
        var random = SeededRandom(seed: 7)
        for _ in 0..<2000 {
            var noise = bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                noise[Int.random(in: 0..<noise.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let read = try? MeshEntry(decoding: noise), read != entry {
                #expect(throws: MeshRefusal.self) { try trust.verify(read, at: fixture.now) }
            }
        }
    }
}
