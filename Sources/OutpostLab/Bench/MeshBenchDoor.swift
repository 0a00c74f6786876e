import Crypto
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import X509

/// A door of the mesh bench: its certified key, its log and its trust, without a device app
/// around it (the bench measures the mesh, not the check-in screens), on a real ``MeshNode``.
@MainActor
final class MeshBenchDoor {
    let device: String
    let key = P256.Signing.PrivateKey()
    let certificate: [UInt8]
    let authority: MeshAuthority
    /// The door's log and trust, changed in place (a copy of a log is a copy of every entry).
    var replica: MeshReplica
    var log: MeshLog { replica.log }
    private(set) var node: MeshNode
    /// When each entry this door did not make arrived here.
    var arrivals: [Data: ContinuousClock.Instant] = [:]
    private var made: [MeshEntry] = []

    init(device: String, authority: MeshAuthority, tenant: TenantID, event: EventID, now: Date) throws {
        self.device = device
        self.authority = authority
        let identity = MeshIdentity(
            tenant: tenant, event: event, user: .random(), device: device, role: "checkin_staff")
        let made = try authority.certify(
            identity, publicKey: key.publicKey, serial: (0..<16).map { _ in UInt8.random(in: 1...255) },
            notBefore: now.addingTimeInterval(-3600), notAfter: now.addingTimeInterval(86400))
        certificate = MeshCertificates.der(made)
        var trust = MeshTrust(authority: authority.certificate, tenant: tenant, event: event)
        _ = try trust.accept(made, at: now)
        replica = MeshReplica(log: MeshLog(), trust: trust)
        let handshake = trust
        let weak = WeakDoor()
        node = MeshNode(
            host: MeshNode.Host(
                credentials: {
                    weak.door.map {
                        MeshNodeCredentials(
                            key: $0.key, certificate: $0.certificate, authority: $0.authority.certificateDER)
                    }
                },
                hello: { weak.door.map { MeshHello(certificate: $0.certificate, vector: $0.log.vector) } },
                batch: { hello throws(MeshRefusal) in
                    guard let door = weak.door else { throw .unknownAuthor }
                    return try door.batch(for: hello)
                },
                receive: { batch in weak.door?.receive(batch) ?? MeshReceipt() },
                check: { certificate in
                    do throws(MeshRefusal) {
                        _ = try handshake.check(certificate, at: Date())
                        return nil
                    } catch {
                        return error
                    }
                }))
        weak.door = self
    }

    /// Admits `guest` here: the next signed entry, kept and pushed to every peer.
    func admit(_ guest: GuestID) throws -> MeshEntry {
        var entry = MeshEntry(
            event: replica.trust.event, guest: guest, author: device, seq: UInt64(made.count + 1),
            previous: made.last?.id ?? MeshEntry.noPrevious, scannedAt: Date().millisecondsSince1970, door: device,
            staff: "Bench")
        try entry.sign(with: key)
        made.append(entry)
        try replica.log.insert(entry)
        let node = node
        Task { await node.announce() }
        return entry
    }

    private func batch(for hello: MeshHello) throws(MeshRefusal) -> MeshBatch {
        try replica.batch(for: hello, revocations: [], at: Date())
    }

    private func receive(_ batch: MeshBatch) -> MeshReceipt {
        let intake = replica.take(batch, at: Date())
        for entry in intake.entries { arrivals[Data(entry.id)] = .now }
        return intake.receipt
    }
}

/// The node's way back to its door, which owns the node (not the other way round).
@MainActor
private final class WeakDoor {
    weak var door: MeshBenchDoor?
}
