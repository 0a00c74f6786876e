import Crypto
import Foundation
import GRDB
import OutpostCore

/// What the machine itself does in the time of the measured paths, measured in the same run:
/// each figure is printed beside one of these and as a ratio to it, so runs on noisy or
/// different machines compare by ratio, and `--check` guards ratios, never absolute times.
package struct BenchFloors {
    /// Seconds per Ed25519 signature verification (the floor of a ticket check).
    var ed25519Verify: Double
    /// Seconds per durable one-row SQLite transaction in WAL mode (the floor of a local commit).
    var durableTransaction: Double

    static func common(work: URL) throws -> BenchFloors {
        BenchFloors(
            ed25519Verify: ed25519VerifySeconds(),
            durableTransaction: try durableTransactionSeconds(at: work.appendingPathComponent("floor-commit.sqlite")))
    }

    static func ed25519VerifySeconds() -> Double {
        let key = Curve25519.Signing.PrivateKey()
        let message = Data((0..<57).map { UInt8($0) })
        let signature = (try? key.signature(for: message)) ?? Data()
        var samples = Samples()
        var valid = 0
        for _ in 0..<2_000 {
            samples.time { if key.publicKey.isValidSignature(signature, for: message) { valid += 1 } }
        }
        return valid > 0 ? samples.median : .nan
    }

    static func durableTransactionSeconds(at url: URL) throws -> Double {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)") }
        var samples = Samples()
        let body = Data(repeating: 7, count: 200)
        for _ in 0..<200 {
            try samples.time {
                try queue.write { try $0.execute(sql: "INSERT INTO t (body) VALUES (?)", arguments: [body]) }
            }
        }
        return samples.median
    }

    /// Seconds to insert `rows` guest-shaped rows into a fresh SQLite file in one transaction.
    /// With `sealingPages`, the floor of a sealed roster as well: the rows' bytes are also sealed
    /// with AES-GCM a page at a time (`pageSize` rows to a box, on this one thread).
    static func plainInsertSeconds(rows: Int, at url: URL, sealingPages pageSize: Int? = nil) throws -> Double {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(
                sql: "CREATE TABLE guests (id TEXT PRIMARY KEY, name TEXT, email TEXT, code TEXT, notes TEXT)")
            if pageSize != nil { try db.execute(sql: "CREATE TABLE pages (id INTEGER PRIMARY KEY, sealed BLOB)") }
        }
        let key = SymmetricKey(size: .bits256)
        let start = ContinuousClock.now
        try queue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO guests VALUES (?, ?, ?, ?, ?)")
            let page = try pageSize.map { _ in try db.makeStatement(sql: "INSERT INTO pages (sealed) VALUES (?)") }
            var plaintext: [UInt8] = []
            for index in 0..<rows {
                let row = [UUID().uuidString, "Guest Name \(index)", "guest\(index)@example.org", "CODE\(index)", ""]
                try statement.execute(arguments: StatementArguments(row))
                guard let pageSize, let page else { continue }
                for text in row { plaintext.append(contentsOf: text.utf8) }
                if (index + 1) % pageSize == 0 || index == rows - 1 {
                    try page.execute(arguments: [try AES.GCM.seal(plaintext, using: key).combined])
                    plaintext.removeAll(keepingCapacity: true)
                }
            }
        }
        return (ContinuousClock.now - start).seconds
    }

    /// Seconds to open (authenticate and decrypt) one AES-GCM box of `bytes` bytes: the least a
    /// launch that reads a sealed snapshot of that size does.
    static func aesGCMOpenSeconds(bytes: Int) throws -> Double {
        let key = SymmetricKey(size: .bits256)
        let box = try AES.GCM.seal(Data(repeating: 0x5A, count: max(bytes, 1)), using: key)
        var samples = Samples()
        for _ in 0..<5 { _ = try samples.time { try AES.GCM.open(box, using: key) } }
        return samples.median
    }

    /// Seconds per binary search for a prefix over `names` sorted strings: the least a prefix
    /// search over that many keys does.
    static func binarySearchSeconds(names: [String]) -> Double {
        // One search takes a fraction of a microsecond, near the clock's own cost and
        // resolution: timed one by one, the median moved 1.8x between two runs on one machine
        // and failed a check. Timed in batches of 500 (100 batches, tens of milliseconds in all),
        // each sample is a hundred microseconds or more.
        let sorted = names.map { $0.lowercased() }.sorted()
        var random = SeededRandom(seed: 3)
        let batch = 500
        var samples = Samples()
        var found = 0
        for _ in 0..<100 {
            let prefixes = (0..<batch).map { _ in String((sorted.randomElement(using: &random) ?? "a").prefix(2)) }
            samples.time {
                for prefix in prefixes {
                    var low = 0
                    var high = sorted.count
                    while low < high {
                        let middle = (low + high) / 2
                        if sorted[middle] < prefix { low = middle + 1 } else { high = middle }
                    }
                    if low < sorted.count, sorted[low].hasPrefix(prefix) { found += 1 }
                }
            }
        }
        // The tenth percentile: still 1.6x apart between runs at the median, because a burst
        // of other work on two cores can cover half the batches. The floor is the least a
        // search costs on this machine, so the quick batches are the measure.
        return found > 0 ? samples.percentile(10) / Double(batch) : .nan
    }
}
