import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Closes a connection once its client has closed its side and no request is in flight.
///
/// Hummingbird keeps connections open for half-closure: when a client closes, the server
/// half-closes too and then waits for the channel to close, which it does only at the idle
/// timeout (measured: a client-closed connection held its slot for exactly `--idle-timeout`).
/// Under the connection cap every device process that exits would keep a slot for that long.
/// A client that half-closes after sending a whole request still gets its answer: the close
/// waits for the response's end.
final class CloseWhenClientLeaves: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Requests whose head arrived and whose response has not ended.
    private var inFlight = 0
    private var clientClosed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { inFlight += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        inFlight = max(0, inFlight - 1)
        guard clientClosed, inFlight == 0 else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        let channel = context.channel
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.writeAndFlush(data, promise: written)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            clientClosed = true
            if inFlight == 0 {
                context.close(promise: nil)
                return
            }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
