import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol

extension TraceScenario: ExpressibleByArgument {}

/// `track trace --seed N --scenario S`: a synthetic working day as GPX, with its manifest.
struct DeviceTrackTraceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Generate a synthetic working day (GPX) with what phones do in the field.",
        discussion: """
            Scenarios: \(TraceScenario.allCases.map(\.rawValue).joined(separator: ", ")). The worker \
            works inside a 100 m fence from 08:00 to 16:00 UTC on 2026-11-16. Beside the GPX goes \
            NAME.manifest.json: the fence, how the platform delivers events, and the truth (when the \
            worker was really inside), which `track replay` reads.
            """)
    @Option(help: "The random seed (the same seed makes the same day).") var seed: UInt64 = 1
    @Option(help: "What happens that day.") var scenario: TraceScenario = .noise
    @Option(help: ArgumentHelp("Write the GPX here (default: standard output, no manifest).", valueName: "file"))
    var out: String?
    @Flag(help: "Print the scenarios' names, one per line.") var listScenarios = false

    func run() throws {
        if listScenarios {
            for scenario in TraceScenario.allCases { print(scenario.rawValue) }
            return
        }
        let trace = scenario.trace(seed: seed)
        let gpx = TraceFile.gpx(trace)
        guard let out else {
            print(gpx, terminator: "")
            return
        }
        try Data(gpx.utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        let manifest = DeviceTrackReplayCommand.manifestPath(for: out)
        try OutpostJSON.encode(TraceManifest(trace)).write(to: URL(fileURLWithPath: manifest), options: .atomic)
        print("Wrote \(out) (\(trace.fixes.count) positions) and \(manifest).")
    }
}

/// `track replay FILE`: feeds a trace through the engine on simulated time.
struct DeviceTrackReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a GPX or CSV trace through the geofence engine and print the sessions it made.",
        discussion: """
            CSV columns: time,latitude,longitude,accuracy[,gps]. The fence comes from the trace's \
            manifest (NAME.manifest.json beside it, or --manifest) or from --latitude/--longitude/--radius; \
            with a manifest's truth the replay says how many minutes each profile is off.
            """)
    @Argument(help: "The trace: GPX or CSV.") var file: String
    @Option(help: "seed, field or both.") var profile: String = "both"
    @Option(help: "The trace's manifest (default: NAME.manifest.json beside it, when there).") var manifest: String?
    @Option(help: "The fence's centre latitude (instead of a manifest).") var latitude: Double?
    @Option(help: "The fence's centre longitude.") var longitude: Double?
    @Option(help: "The fence's radius in metres.") var radius: Double = WorkLocation.defaultRadius
    @Flag(help: "Print JSON.") var json = false

    static func manifestPath(for file: String) -> String {
        let url = URL(fileURLWithPath: file)
        return url.deletingPathExtension().path + ".manifest.json"
    }

    func validate() throws {
        guard profile == "both" || HysteresisPolicy.named(profile) != nil else {
            throw ValidationError("--profile is seed, field or both.")
        }
        guard (latitude == nil) == (longitude == nil) else {
            throw ValidationError("Give both --latitude and --longitude.")
        }
    }

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CleanFailure("\(file) cannot be read.")
        }
        let fixes: [TraceFix]
        do {
            fixes = try TraceFile.fixes(data, fileName: file)
        } catch let error as TraceFileError {
            throw CleanFailure("\(file): \(error.description)")
        }
        let trace: GeoTrace
        if let latitude, let longitude {
            trace = GeoTrace(
                name: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent,
                fence: Fence(center: GeoPoint(latitude: latitude, longitude: longitude), radius: radius),
                fixes: fixes)
        } else {
            let path = manifest ?? Self.manifestPath(for: file)
            guard let manifestData = FileManager.default.contents(atPath: path) else {
                throw CleanFailure("No fence: give --latitude and --longitude (and --radius), or a manifest (\(path)).")
            }
            trace = try OutpostJSON.decode(TraceManifest.self, from: manifestData).trace(fixes: fixes)
        }
        let policies =
            profile == "both" ? HysteresisPolicy.profiles : (HysteresisPolicy.named(profile).map { [$0] } ?? [])
        let results = policies.map { TraceReplay.run(trace, policy: $0) }
        if json {
            print(String(decoding: try OutpostJSON.encode(results.map(ReplaySummary.init)), as: UTF8.self))
            return
        }
        for line in ReplaySummary.lines(trace, results) { print(line) }
    }
}

/// A replay's result as printed.
struct ReplaySummary: Codable {
    var profile: String
    var sessions: [ReplayedSession]
    var trackedMinutes: Int
    var minutesOff: Int?
    var ignored: [String: Int]

    init(_ result: TraceReplayResult) {
        profile = result.policy
        sessions = result.sessions
        trackedMinutes = result.trackedMinutes
        minutesOff = result.minutesOff
        ignored = Dictionary(result.records.compactMap { $0.ignored?.rawValue }.map { ($0, 1) }, uniquingKeysWith: +)
    }

    static func lines(_ trace: GeoTrace, _ results: [TraceReplayResult]) -> [String] {
        let truth = trace.truth.map { intervals in
            " · really inside \(duration(Int((intervals.reduce(0) { $0 + $1.duration } / 60).rounded())))"
        }
        var lines = [
            "\(trace.name) · fence "
                + String(
                    format: "%.5f, %.5f, %.0f m", trace.fence.center.latitude, trace.fence.center.longitude,
                    trace.fence.radius) + " · \(trace.fixes.count) positions" + (truth ?? "")
        ]
        for result in results {
            let summary = ReplaySummary(result)
            let off = summary.minutesOff.map { " · off by \(duration($0))" } ?? ""
            lines.append("\(summary.profile): tracked \(duration(summary.trackedMinutes))\(off)")
            if summary.sessions.isEmpty { lines.append("  no session") }
            for session in summary.sessions {
                let end = session.clockOut.map(time) ?? "still open"
                lines.append("  \(time(session.clockIn))–\(end)\(session.reason.map { " (\($0.rawValue))" } ?? "")")
            }
            if !summary.ignored.isEmpty {
                lines.append(
                    "  ignored: "
                        + summary.ignored.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                        .joined(separator: ", "))
            }
        }
        return lines
    }

    static func time(_ date: Date) -> String {
        let text = OutpostJSON.format(date)
        return String(text.dropFirst(11).prefix(8)) + "Z"
    }

    static func duration(_ minutes: Int) -> String { "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min" }
}
