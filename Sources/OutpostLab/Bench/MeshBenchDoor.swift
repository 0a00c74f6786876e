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
    var log = MeshLog()
    var trust: MeshTrust
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
        trust = MeshTrust(authority: authority.certificate, tenant: tenant, event: event)
        _ = try trust.accept(made, at: now)
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
            event: trust.event, guest: guest, author: device, seq: UInt64(made.count + 1),
            previous: made.last?.id ?? MeshEntry.noPrevious, scannedAt: Date().millisecondsSince1970, door: device,
            staff: "Bench")
        try entry.sign(with: key)
        made.append(entry)
        try log.insert(entry)
        let node = node
        Task { await node.announce() }
        return entry
    }

    private func batch(for hello: MeshHello) throws(MeshRefusal) -> MeshBatch {
        guard let certificate = try? Certificate(derEncoded: hello.certificate) else { throw .malformed }
        try trust.accept(certificate, at: Date())
        let authors = trust.authors
        return MeshBatch.fitting(log.delta(since: hello.vector, limit: MeshBatch.maximumEntries), revocations: []) {
            authors[$0].map(MeshCertificates.der)
        }
    }

    private func receive(_ batch: MeshBatch) -> MeshReceipt {
        var receipt = MeshReceipt()
        let now = Date()
        for der in batch.certificates {
            if let certificate = try? Certificate(derEncoded: der) { _ = try? trust.accept(certificate, at: now) }
        }
        for entry in batch.entries {
            if log.contains(entry) {
                receipt.known += 1
                continue
            }
            do throws(MeshRefusal) {
                try trust.verify(entry, at: now)
                if try log.insert(entry) == .added {
                    receipt.added += 1
                    arrivals[Data(entry.id)] = .now
                } else {
                    receipt.known += 1
                }
            } catch {
                receipt.refuse(error)
            }
        }
        return receipt
    }
}

/// The node's way back to its door, which owns the node (not the other way round).
@MainActor
private final class WeakDoor {
    weak var door: MeshBenchDoor?
}
