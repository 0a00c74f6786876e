import Foundation

/// A state's sealed-to-be bytes, encoded again only when the state changed: the shell asks every
/// module for its state after every action to see whether it changed, and JSON-encoding all of
/// them was about a quarter of a confirm (PERFORMANCE.md). Comparing the value first is a
/// fraction of encoding it.
package struct EncodedState<State: Encodable & Equatable> {
    private var last: (state: State, data: Data)?

    package init() {}

    /// The JSON of `state` (``JSONEncoder/outpostDevice``): the bytes of the last call when the
    /// state is equal to that call's.
    package mutating func data(for state: State) throws -> Data {
        if let last, last.state == state { return last.data }
        let data = try JSONEncoder.outpostDevice.encode(state)
        last = (state, data)
        return data
    }
}
