import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@Suite("Mesh frames")
struct MeshFrameTests {
    @Test(
        "mesh-frame-bytes: a hello, a batch (certificates, revocations, entries) and a heartbeat decode as they were sent; every shorter prefix, a longer tail, an unknown kind and random damage are refused (malformed, or an entry's own refusal), and a frame over 64 KiB is oversize, never a trap"
    )
    func frameBytes() throws {
        var fixture = try MeshFixture(doors: 2)
        let entries = [
            try fixture.doors[0].admit(.random(), at: 1_795_000_000_000),
            try fixture.doors[1].admit(.random(), at: 1_795_000_000_500),
        ]
        let revocation = fixture.authority.revoke(serial: [1, 2, 3], at: fixture.now)
        let frames: [MeshFrame] = [
            .hello(
                MeshHello(
                    certificate: MeshCertificates.der(fixture.doors[0].certificate),
                    vector: VersionVector(["door-1": 1, "door-2": 7]))),
            .batch(
                MeshBatch(
                    certificates: fixture.doors.map { MeshCertificates.der($0.certificate) }, revocations: [revocation],
                    entries: entries)),
            .ping,
        ]
        for frame in frames {
            let bytes = frame.encoded
            #expect(try MeshFrame(decoding: bytes) == frame)
            for length in 0..<bytes.count {
                #expect(throws: MeshRefusal.self) { try MeshFrame(decoding: Array(bytes.prefix(length))) }
            }
            #expect(throws: MeshRefusal.malformed) { try MeshFrame(decoding: bytes + [0]) }
        }
        #expect(throws: MeshRefusal.malformed) { try MeshFrame(decoding: [9]) }
        #expect(throws: MeshRefusal.oversize) {
            try MeshFrame(decoding: [UInt8](repeating: 3, count: MeshFrame.maximumSize + 1))
        }
        var random = SeededRandom(seed: 11)
        let batch = frames[1].encoded
        for _ in 0..<3000 {
            var noise = batch
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                noise[Int.random(in: 0..<noise.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            _ = try? MeshFrame(decoding: noise)
        }
    }
}
