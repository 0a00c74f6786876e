import NIOCore
import OutpostProtocol

/// Splits the byte stream into frames: a 4-byte big-endian length, then that many bytes. A
/// length over ``MeshFrame/maximumSize`` ends the session before a byte of it is buffered.
struct MeshFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length <= UInt32(MeshFrame.maximumSize) else { throw MeshRefusal.oversize }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: Int(length))!))
        return .continue
    }
}

/// Prefixes each outgoing frame with its length.
struct MeshFrameEncoder: MessageToByteEncoder {
    typealias OutboundIn = ByteBuffer

    func encode(data: ByteBuffer, out: inout ByteBuffer) throws {
        out.writeInteger(UInt32(data.readableBytes))
        out.writeImmutableBuffer(data)
    }
}

/// A peer's allowance of frames: a token bucket of `2 × limit` frames refilled at `limit` a
/// second. Pure (the caller gives the time), so the rule is tested without a clock.
struct MeshFrameAllowance: Sendable {
    let limit: Double
    private var tokens: Double
    private var at: Double?

    init(limit: Int) {
        self.limit = Double(limit)
        tokens = 2 * Double(limit)
    }

    /// Takes one frame's token at `now` (seconds on a monotonic clock); false when none is left.
    mutating func take(at now: Double) -> Bool {
        if let at { tokens = min(2 * limit, tokens + max(0, now - at) * limit) }
        at = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}

/// Counts a peer's frames as they arrive, on the event loop (not as the door gets round to
/// them: a door busy elsewhere must still see a flood for what it is), and ends the session with
/// ``MeshRefusal/flood`` once the peer is over its allowance; the frames of a flood never reach
/// the door.
final class MeshFloodGuard: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private var allowance: MeshFrameAllowance
    private var flooded = false
    private let report: @Sendable () -> Void

    init(limit: Int, flooded report: @escaping @Sendable () -> Void) {
        allowance = MeshFrameAllowance(limit: limit)
        self.report = report
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !flooded else { return }
        let now = Double(NIODeadline.now().uptimeNanoseconds) / 1e9
        guard allowance.take(at: now) else {
            flooded = true
            report()
            context.fireErrorCaught(MeshRefusal.flood)
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}
