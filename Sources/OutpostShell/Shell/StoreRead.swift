/// What a screen's reload read from the store, kept until a write could have changed it: read
/// again when the generation it was read at moves (``StoreChanges``: a commit to its tables, or
/// another connection's) or its scope changes (the open event, the signed-in user, the guest).
/// A read during which a storage fault was recorded is not kept, so the next action reads it
/// again instead of showing a fallback until the next write.
package struct StoreRead<Value> {
    private var kept: (value: Value, generation: Int, scope: AnyHashable?)?

    package init() {}

    /// The kept value while `generation` and `scope` are those it was read at; otherwise
    /// `read()`'s, kept when `faultsRecorded` did not move during it.
    package mutating func value(
        generation: Int, scope: AnyHashable?, faultsRecorded: () -> Int, read: () -> Value
    ) -> Value {
        if let kept, kept.generation == generation, kept.scope == scope { return kept.value }
        let before = faultsRecorded()
        let value = read()
        kept = faultsRecorded() == before ? (value, generation, scope) : nil
        return value
    }
}
