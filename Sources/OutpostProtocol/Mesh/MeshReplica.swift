import Foundation
import X509

/// One door's copy of an event's mesh, as the exchange needs it: the log and the trust. Its two
/// steps are the whole protocol between two doors, the same for a door app and the bench's
/// doors: answer a hello with what the peer lacks, and take a peer's batch.
public struct MeshReplica: Sendable {
    public var log: MeshLog
    public var trust: MeshTrust

    public init(log: MeshLog, trust: MeshTrust) {
        self.log = log
        self.trust = trust
    }

    /// What taking a batch did: the receipt, and what the door keeps of it (the entries it
    /// took, the revocations and peer certificates it learnt), for it to store.
    public struct Intake: Sendable {
        public var receipt = MeshReceipt()
        public var entries: [MeshEntry] = []
        public var revocations: [MeshRevocation] = []
        public var certificates: [[UInt8]] = []
    }

    /// A peer said hello: its certificate is checked and remembered (a refusal ends the
    /// exchange), and it is sent what its vector lacks, with the certificates of those entries'
    /// authors and `revocations`, in one frame.
    public mutating func batch(
        for hello: MeshHello, revocations: [MeshRevocation], at now: Date
    ) throws(MeshRefusal) -> MeshBatch {
        guard let certificate = try? Certificate(derEncoded: hello.certificate) else { throw .malformed }
        try trust.accept(certificate, at: now)
        let authors = trust.authors
        return MeshBatch.fitting(
            log.delta(since: hello.vector, limit: MeshBatch.maximumEntries), revocations: revocations
        ) { authors[$0].map(MeshCertificates.der) }
    }

    /// A peer's batch: revocations learnt first, then each author's certificate checked, then
    /// each entry (one already held is not verified again) checked and kept. Whatever is
    /// refused is counted and dropped alone.
    public mutating func take(_ batch: MeshBatch, at now: Date) -> Intake {
        var intake = Intake()
        for revocation in batch.revocations {
            do {
                if try trust.learn(revocation) { intake.revocations.append(revocation) }
            } catch {
                intake.receipt.refuse(.badSignature)
            }
        }
        for der in batch.certificates {
            do {
                try trust.accept(try Certificate(derEncoded: der), at: now)
                intake.certificates.append(der)
            } catch let refusal as MeshRefusal {
                intake.receipt.refuse(refusal)
            } catch {
                intake.receipt.refuse(.malformed)
            }
        }
        for entry in batch.entries.prefix(MeshBatch.maximumEntries) {
            if log.contains(entry) {
                intake.receipt.known += 1
                continue
            }
            do throws(MeshRefusal) {
                try trust.verify(entry, at: now)
                switch try log.insert(entry) {
                case .added: intake.receipt.added += 1
                case .known: intake.receipt.known += 1
                case .fork: intake.receipt.forks += 1
                }
                intake.entries.append(entry)
            } catch {
                intake.receipt.refuse(error)
            }
        }
        if batch.entries.count > MeshBatch.maximumEntries {
            intake.receipt.refused[.oversize, default: 0] += batch.entries.count - MeshBatch.maximumEntries
        }
        return intake
    }
}
