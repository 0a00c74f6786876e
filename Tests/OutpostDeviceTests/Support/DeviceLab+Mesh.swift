import OutpostCore
import OutpostDevice
import OutpostProtocol

extension DeviceLab {
    /// Door `number` of the world's event, signed in and synced (so certified for the mesh): Alex's
    /// door 1, Bea's the others. On the server's clock unless given another: a door checks its
    /// peers' certificates against its own clock.
    @MainActor
    func meshDoor(_ number: Int, clock: WallClock? = nil) async throws -> DeviceApp {
        try await readyDevice(
            "door\(number)", email: number == 1 ? "alex@acme.test" : "bea@acme.test",
            clock: clock ?? api.clock.wallClock)
    }
}

extension DeviceApp {
    /// The door meets `peer` without a network: its hello, and the batch `peer` answers it with.
    @discardableResult
    func meshTake(from peer: DeviceApp) throws -> MeshReceipt {
        guard let hello = meshHello() else { throw NoMeshCredentials() }
        return meshReceive(try peer.meshBatch(for: hello))
    }
}

/// A door without the open event's mesh credentials was asked to say hello.
struct NoMeshCredentials: Error {}
