import Foundation

/// A map on every core, in order: the bulk sealing and unsealing of the store (a roster's
/// pages, a feed's notes, the whole roster read for the search index).
package enum ParallelMap {
    package static func map<Item: Sendable, Value: Sendable>(
        _ items: [Item], minimumChunk: Int = 256, _ transform: @Sendable (Item) throws -> Value
    ) throws -> [Value] {
        try chunks(items, minimumChunk: minimumChunk) { try $0.map(transform) }.flatMap { $0 }
    }

    /// `transform` of each of a few contiguous parts of `items` (two per core, each at least
    /// `minimumChunk` items), in order: for work that folds a part into one value.
    package static func chunks<Item: Sendable, Value: Sendable>(
        _ items: [Item], minimumChunk: Int = 256, _ transform: @Sendable (ArraySlice<Item>) throws -> Value
    ) throws -> [Value] {
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 2, items.count / minimumChunk))
        let results = ChunkResults<Value>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (items.count * chunk / chunks)..<(items.count * (chunk + 1) / chunks)
            results.store(chunk, Result { try transform(items[range]) })
        }
        return try results.all().map { try $0.get() }
    }
}

/// Per-chunk results of a parallel map, collected under a lock.
private final class ChunkResults<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<Value, any Error>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func store(_ chunk: Int, _ result: Result<Value, any Error>) { lock.withLock { results[chunk] = result } }

    /// Every chunk's result (each chunk stores one before the concurrent perform returns).
    func all() -> [Result<Value, any Error>] { lock.withLock { results.compactMap { $0 } } }
}
