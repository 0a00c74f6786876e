import Foundation

/// The pretix benchmark peer (`../shared/peers/pretix`): its own scripts install pretix into a
/// venv, seed 10,000 paid tickets, serve it under gunicorn on 127.0.0.1:8345 and time its
/// check-in endpoint and its paged position download (`bench.py`). This runs them and reads the
/// figures back; nothing of pretix is part of Outpost.
package struct PretixPeer {
    /// Where the scripts run (a writable copy of the peer folder).
    package let directory: URL
    package let say: (String) -> Void

    /// The peer's positions (its `setup.sh` default, and the size Outpost is compared at).
    package static let positions = 10_000

    package struct Redeem {
        package var concurrency: Int
        package var requestsPerSecond: Double
        package var p99Milliseconds: Double
        package var ok: Int
        package var completed: Int
    }

    package struct Download {
        package var positions: Int
        package var seconds: Double
        package var positionsPerSecond: Double
        package var pages: Int
    }

    /// Finds the peer's scripts; a read-only folder is copied to `.build-peer/pretix` first
    /// (without its venv and data), since the scripts write next to themselves.
    package static func prepare(source: URL, say: @escaping (String) -> Void) throws -> PretixPeer {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source.appendingPathComponent("bench.py").path) else {
            throw CleanFailure("no pretix peer scripts at \(source.path) (give --peer-dir)")
        }
        if manager.isWritableFile(atPath: source.path) {
            return PretixPeer(directory: source, say: say)
        }
        let copy = URL(fileURLWithPath: ".build-peer/pretix", isDirectory: true)
        try manager.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: source.path)
        where !["venv", "data", "results", "__pycache__"].contains(name) {
            let target = copy.appendingPathComponent(name)
            try? manager.removeItem(at: target)
            try manager.copyItem(at: source.appendingPathComponent(name), to: target)
            try manager.setAttributes(
                [.posixPermissions: name.hasSuffix(".sh") ? 0o755 : 0o644], ofItemAtPath: target.path)
        }
        say("pretix peer: copied \(source.path) to \(copy.path) (the original is read-only)")
        return PretixPeer(directory: copy, say: say)
    }

    /// Runs `script` in the peer folder with `DB=db`; its output goes to the peer's log.
    @discardableResult
    package func run(_ command: String, db: String, allowFailedChecks: Bool = false) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["DB"] = db
        environment["POSITIONS"] = String(Self.positions)
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("pretix-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: capture) }
        let status = try LabProcess.spawnAndWait(
            ["/bin/bash", "-c", "cd '\(directory.path)' && \(command)"], environment: environment, output: capture.path)
        let data = (try? Data(contentsOf: capture)) ?? Data()
        let text = String(decoding: data, as: UTF8.self)
        let log = directory.appendingPathComponent("outpost-bench.log")
        if let handle = try? LabProcess.appending(log) {
            handle.write(Data("$ DB=\(db) \(command)\n".utf8) + data)
            try? handle.close()
        }
        // bench.py exits 1 when one of its own checks failed (pretix on SQLite answers some
        // concurrent check-ins with 500); its figures are still written and still count.
        let checksFailed = allowFailedChecks && status == 1 && text.contains("results: ")
        guard status == 0 || checksFailed else {
            throw CleanFailure("pretix peer: `DB=\(db) \(command)` failed; see \(log.path)")
        }
        return text
    }

    /// Set-up (idempotent: 11–24 minutes the first time per database, by machine; seconds after), a
    /// reset to zero check-ins, then the server.
    package func start(db: String) throws {
        say("pretix peer (\(db)): set-up (first time per database: 11–24 minutes)")
        try run("./setup.sh", db: db)
        try run("./reset.sh", db: db)
        try run("./serve.sh start", db: db)
    }

    package func stop(db: String) {
        _ = try? run("./serve.sh stop", db: db)
        // gunicorn's graceful stop can outlast serve.sh's 30 s wait; make sure it is gone.
        _ = try? run(
            "pid=$(cat data/\(db)/gunicorn.pid 2>/dev/null) && [ -n \"$pid\" ] && "
                + "{ pkill -9 -P \"$pid\"; kill -9 \"$pid\"; rm -f data/\(db)/gunicorn.pid; } || true", db: db)
        if db == "postgres" { _ = try? run("./pg.sh stop", db: db) }
    }

    /// The check-in endpoint at one concurrency: `count` distinct tickets, each with a new nonce.
    package func redeem(db: String, concurrency: Int, count: Int) throws -> Redeem {
        let object = try results(
            run(
                "./venv/bin/python bench.py -k \(count) -c \(concurrency) --replay 0 --dup 0 --race 0 --skip-sync "
                    + "--label outpost-bench-c\(concurrency)", db: db, allowFailedChecks: true))
        guard let redeem = object["a_redeem"] as? [String: Any],
            let rate = redeem["req_per_s"] as? Double,
            let latency = redeem["lat_ms"] as? [String: Any]
        else { throw CleanFailure("pretix peer: bench.py wrote no redeem figures") }
        return Redeem(
            concurrency: concurrency, requestsPerSecond: rate,
            p99Milliseconds: (latency["p99"] as? Double) ?? 0, ok: (redeem["ok"] as? Int) ?? 0,
            completed: (redeem["completed"] as? Int) ?? 0)
    }

    /// The full check-in-list position download (pages of 50, pretix's maximum).
    package func download(db: String) throws -> Download {
        let object = try results(
            run("./venv/bin/python bench.py --sync-only --label outpost-bench-sync", db: db, allowFailedChecks: true))
        guard let sync = object["d_checkinlist_positions"] as? [String: Any],
            let seconds = sync["seconds"] as? Double
        else { throw CleanFailure("pretix peer: bench.py wrote no download figures") }
        return Download(
            positions: (sync["positions"] as? Int) ?? 0, seconds: seconds,
            positionsPerSecond: (sync["positions_per_s"] as? Double) ?? 0, pages: (sync["pages"] as? Int) ?? 0)
    }

    /// The JSON file bench.py names on its `results: PATH` line.
    private func results(_ output: String) throws -> [String: Any] {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("results: ") }),
            let path = line.dropFirst("results: ".count).split(separator: " ").first
        else { throw CleanFailure("pretix peer: bench.py printed no results file") }
        let url =
            path.hasPrefix("/")
            ? URL(fileURLWithPath: String(path)) : directory.appendingPathComponent(String(path))
        // Python writes NaN for the latencies of an empty phase; JSON has no NaN.
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .replacingOccurrences(of: ": NaN", with: ": null")
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw CleanFailure("pretix peer: \(url.path) is not a JSON object")
        }
        return object
    }
}
