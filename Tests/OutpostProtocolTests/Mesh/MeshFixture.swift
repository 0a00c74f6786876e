import Crypto
import Foundation
import OutpostCore
import OutpostProtocol
import X509

/// A tenant's authority, an event and its certified doors, as the server would set them up.
struct MeshFixture {
    let tenant = TenantID.random()
    let event = EventID.random()
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let authority: MeshAuthority
    var doors: [Door] = []

    struct Door {
        var identity: MeshIdentity
        var key: P256.Signing.PrivateKey
        var certificate: Certificate
        var made: [MeshEntry] = []

        /// Signs this door's next admission of `guest`.
        mutating func admit(_ guest: GuestID, at millis: Int64) throws -> MeshEntry {
            var entry = MeshEntry(
                event: identity.event, guest: guest, author: identity.device, seq: UInt64(made.count + 1),
                previous: made.last?.id ?? MeshEntry.noPrevious, scannedAt: millis, door: identity.device,
                staff: "Staff \(identity.device)")
            try entry.sign(with: key)
            made.append(entry)
            return entry
        }
    }

    init(doors count: Int) throws {
        authority = try MeshAuthority.make(tenant: tenant, now: now)
        for index in 1...count { doors.append(try door("door-\(index)")) }
    }

    /// A door certified by `authority` (this fixture's unless given) with the given identity
    /// parts and validity.
    func door(
        _ device: String, tenant: TenantID? = nil, event: EventID? = nil, by authority: MeshAuthority? = nil,
        from notBefore: Date? = nil, to notAfter: Date? = nil, serial: [UInt8]? = nil
    ) throws -> Door {
        let identity = MeshIdentity(
            tenant: tenant ?? self.tenant, event: event ?? self.event, user: .random(), device: device,
            role: "checkin_staff")
        let key = P256.Signing.PrivateKey()
        let certificate = try (authority ?? self.authority).certify(
            identity, publicKey: key.publicKey, serial: serial ?? Self.serial(),
            notBefore: notBefore ?? now.addingTimeInterval(-3600), notAfter: notAfter ?? now.addingTimeInterval(86400))
        return Door(identity: identity, key: key, certificate: certificate)
    }

    static func serial() -> [UInt8] { (0..<12).map { _ in UInt8.random(in: 1...255) } }

    /// A trust for this event with every door accepted.
    func trust() throws -> MeshTrust {
        var trust = MeshTrust(authority: authority.certificate, tenant: tenant, event: event)
        for door in doors { try trust.accept(door.certificate, at: now) }
        return trust
    }
}
