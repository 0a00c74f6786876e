import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The committed trace library: a synthetic day per field failure, as GPX
/// with its manifest, replayed through both geofence profiles and compared with the sessions
/// each is expected to make (`scripts/trace-library` regenerates them; a diff there is a
/// behaviour change to read).
@Suite("Trace library")
struct TraceLibraryTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces")

    struct Expected: Codable, Equatable {
        var profile: String
        var sessions: [ReplayedSession]
        var trackedMinutes: Int
        var minutesOff: Int?
        var ignored: [String: Int]
    }

    static func expected() throws -> [String: [Expected]] {
        try OutpostJSON.decode(
            [String: [Expected]].self, from: Data(contentsOf: directory.appendingPathComponent("expected.json")))
    }

    static func trace(_ name: String) throws -> GeoTrace {
        let fixes = try TraceFile.fixes(Data(contentsOf: directory.appendingPathComponent("\(name).gpx")))
        let manifest = try OutpostJSON.decode(
            TraceManifest.self, from: Data(contentsOf: directory.appendingPathComponent("\(name).manifest.json")))
        return manifest.trace(fixes: fixes)
    }

    @Test(
        "trace-library: every committed trace replays to the expected sessions under both profiles",
        arguments: TraceScenario.allCases)
    func library(scenario: TraceScenario) throws {
        let name = "\(scenario.rawValue)-1"
        let expected = try #require(try Self.expected()[name], "\(name) is not in expected.json")
        let trace = try Self.trace(name)
        #expect(trace.fixes.count == 1_561)
        for want in expected {
            let policy = try #require(HysteresisPolicy.named(want.profile))
            let result = TraceReplay.run(trace, policy: policy)
            let ignored = Dictionary(
                result.records.compactMap { $0.ignored?.rawValue }.map { ($0, 1) }, uniquingKeysWith: +)
            let got = Expected(
                profile: policy.name, sessions: result.sessions, trackedMinutes: result.trackedMinutes,
                minutesOff: result.minutesOff, ignored: ignored)
            #expect(got == want, "\(name) under \(policy.name)")
            // Whatever a profile makes of a day, sessions never overlap and every one ends after it starts.
            for (earlier, later) in zip(result.sessions, result.sessions.dropFirst()) {
                #expect((earlier.clockOut ?? .distantFuture) <= later.clockIn)
            }
            #expect(result.sessions.allSatisfy { ($0.clockOut ?? .distantFuture) >= $0.clockIn })
        }
    }

    @Test("trace-library-deterministic: a scenario and seed make the same GPX as the one committed")
    func deterministic() throws {
        for scenario in TraceScenario.allCases {
            let committed = try String(
                contentsOf: Self.directory.appendingPathComponent("\(scenario.rawValue)-1.gpx"), encoding: .utf8)
            #expect(TraceFile.gpx(scenario.trace(seed: 1)) == committed, "\(scenario.rawValue)")
        }
        #expect(TraceScenario.noise.trace(seed: 2).fixes != TraceScenario.noise.trace(seed: 1).fixes)
    }

    @Test(
        "trace-profiles-differ: drift keeps the seed right and splits the field's day; an ENTER without a fix costs the field the whole day"
    )
    func profilesDiffer() throws {
        let drift = try Self.trace("drift-1")
        let seed = TraceReplay.run(drift, policy: .seed)
        let field = TraceReplay.run(drift, policy: .field)
        #expect(seed.sessions.count == 1 && field.sessions.count == 2)
        #expect((seed.minutesOff ?? 999) < (field.minutesOff ?? 0))
        #expect(seed.records.contains { $0.ignored == .poorAccuracy })
        let garage = try Self.trace("arrive-no-fix-1")
        #expect(TraceReplay.run(garage, policy: .field).sessions.isEmpty)
        #expect(TraceReplay.run(garage, policy: .seed).sessions.count == 1)
        // A phone dead from 12:00 to 19:00 is clocked out when it comes back: both overcount.
        let dead = try Self.trace("dies-inside-1")
        for policy in HysteresisPolicy.profiles {
            let result = TraceReplay.run(dead, policy: policy)
            #expect(result.sessions.first?.clockOut == TraceScenario.day.addingTimeInterval(19 * 3600))
        }
    }

    @Test("trace-file-formats: GPX with hdop or none, CSV with a header, and clear errors for broken files")
    func formats() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
              <trk><trkseg>
                <trkpt lat="52.52" lon="13.405"><time>2026-11-16T08:00:30Z</time><hdop>4</hdop></trkpt>
                <trkpt lat="52.5201" lon="13.405"><time>2026-11-16T08:00:00Z</time></trkpt>
              </trkseg></trk>
            </gpx>
            """
        let fixes = try TraceFile.fixes(Data(gpx.utf8))
        #expect(fixes.map(\.accuracy) == [10, 20], "sorted by time; no hdop is 10 m, hdop 4 is 20 m")
        let csv = "time,latitude,longitude,accuracy,gps\n2026-11-16T08:00:00Z,52.52,13.405,12,false\n"
        let fromCSV = try TraceFile.fixes(Data(csv.utf8))
        #expect(fromCSV.count == 1 && fromCSV[0].gps == false && fromCSV[0].accuracy == 12)
        let broken: [(String, String)] = [
            ("<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>", "Point 1 has no valid lat"),
            ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"></trkpt></trkseg></trk></gpx>", "no <time>"),
            ("<gpx><trk>", "GPX ends early: after line 1"),
            ("<kml></kml>", "not GPX"),
            ("time,latitude\n2026-11-16T08:00:00Z,52\n", "Line 2"),
            ("", "no positions"),
        ]
        // track-export-gpx-errors: a .gpx file that is not XML is a GPX error;
        // one cut short names its last line, a position that exists.
        do {
            _ = try TraceFile.fixes(Data(csv.utf8), fileName: "day.gpx")
            Issue.record("a CSV named .gpx was read")
        } catch let error as TraceFileError {
            #expect(error.description.contains("not GPX"), "\(error)")
        }
        let cut = String(gpx.prefix(gpx.count - 30))
        let lines = cut.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: "\n", omittingEmptySubsequences: false)
        do {
            _ = try TraceFile.fixes(Data(cut.utf8), fileName: "day.gpx")
            Issue.record("a truncated GPX was read")
        } catch let error as TraceFileError {
            let named = error.description.firstMatch(of: /line (\d+)/).flatMap { Int($0.1) }
            #expect(named.map { (1...lines.count).contains($0) } == true, "\(error) (\(lines.count) lines)")
        }
        for (text, message) in broken {
            #expect(throws: TraceFileError.self) { try TraceFile.fixes(Data(text.utf8)) }
            do {
                _ = try TraceFile.fixes(Data(text.utf8))
            } catch let error as TraceFileError {
                #expect(error.description.contains(message), "\(text): \(error)")
            }
        }
    }
}
