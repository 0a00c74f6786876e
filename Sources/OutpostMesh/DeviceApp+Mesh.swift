import Foundation
import OutpostProtocol
import OutpostShell

/// The venue mesh's exchange, as the transport between doors (and tests) drives it.
extension DeviceApp {
    package var meshModule: MeshModule? { module(MeshModule.self) }

    /// What this door says to a peer it meets; nil without the open event's mesh credentials.
    public func meshHello() -> MeshHello? { meshModule?.hello() }

    /// The entries a peer lacks, after checking its certificate.
    public func meshBatch(for hello: MeshHello) throws(MeshRefusal) -> MeshBatch {
        guard let meshModule else { throw .unknownAuthor }
        return try meshModule.batch(for: hello)
    }

    /// A peer's entries, checked and kept; the screens are rebuilt (a guest a peer admitted now
    /// shows as checked in).
    @discardableResult
    public func meshReceive(_ batch: MeshBatch) -> MeshReceipt {
        var receipt = MeshReceipt()
        perform { receipt = meshModule?.receive(batch) ?? MeshReceipt() }
        return receipt
    }

    /// What this door holds of the open event's mesh.
    public var meshLog: MeshLog? { meshModule?.log }
}
