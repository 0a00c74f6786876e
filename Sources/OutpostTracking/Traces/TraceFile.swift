import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell
import SWXMLHash

/// Why a trace file could not be read (said as it is, with the line or point where it broke).
public struct TraceFileError: Error, CustomStringConvertible, Equatable {
    public let description: String
    package init(_ description: String) { self.description = description }
}

/// Trace files: GPX (1.0 or 1.1, every `trkpt` of every track, parsed with SWXMLHash) or CSV
/// (`time,latitude,longitude,accuracy[,gps]`). A GPX point's accuracy is Outpost's
/// `<outpost:accuracy>` extension when present, else its `<hdop>` × 5 m, else 10 m; a point
/// whose `<outpost:gps>` is `false` is a coarse position only the OS region monitor has.
public enum TraceFile {
    public static let namespace = "https://outpost.invalid/gpx/1"

    /// Reads the fixes of a GPX or CSV document: a `.gpx` or `.csv` file by its name (a `.gpx`
    /// that is not XML is a GPX error, not a CSV one), anything else by its first bytes.
    public static func fixes(_ data: Data, fileName: String? = nil) throws -> [TraceFix] {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let named = fileName.map { URL(fileURLWithPath: $0).pathExtension.lowercased() }
        let isGPX = named == "gpx" || (named != "csv" && text.hasPrefix("<"))
        let fixes = isGPX ? try gpx(text) : try csv(data)
        guard !fixes.isEmpty else { throw TraceFileError("The file holds no positions.") }
        return fixes.sorted { $0.time < $1.time }
    }

    package static func gpx(_ text: String) throws -> [TraceFix] {
        guard text.hasPrefix("<") else {
            throw TraceFileError("This is not GPX: a GPX file is XML and starts with '<'.")
        }
        let document = XMLHash.config { $0.detectParsingErrors = true }.parse(text)
        if case .parsingError(let error) = document {
            // A file that ends early is reported at its last line, not past it.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard error.line >= 1, error.line <= lines.count else {
                let last = lines.last.map(String.init) ?? ""
                throw TraceFileError(
                    "This GPX ends early: after line \(lines.count), column \(last.count + 1), an element is not closed."
                )
            }
            throw TraceFileError("This is not well-formed XML (line \(error.line), column \(error.column)).")
        }
        guard document["gpx"].element != nil else { throw TraceFileError("This XML is not GPX (no <gpx> root).") }
        var fixes: [TraceFix] = []
        for (index, point) in document["gpx"]["trk"].all.flatMap({ $0["trkseg"].all.flatMap { $0["trkpt"].all } })
            .enumerated()
        {
            let number = index + 1
            guard let element = point.element,
                let latitude = element.attribute(by: "lat").flatMap({ Double($0.text) }),
                let longitude = element.attribute(by: "lon").flatMap({ Double($0.text) }),
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else { throw TraceFileError("Point \(number) has no valid lat and lon.") }
            guard let timeText = point["time"].element?.text, let time = OutpostJSON.parse(timeText) else {
                throw TraceFileError("Point \(number) has no <time> (RFC 3339, like 2026-11-16T08:00:00Z).")
            }
            let extensions = point["extensions"]
            let accuracy =
                extensions["outpost:accuracy"].element.flatMap { Double($0.text) }
                ?? point["hdop"].element.flatMap { Double($0.text) }.map { $0 * 5 } ?? 10
            guard accuracy > 0, accuracy.isFinite else {
                throw TraceFileError("Point \(number) has an accuracy that is not a positive number.")
            }
            let gps = extensions["outpost:gps"].element?.text != "false"
            fixes.append(
                TraceFix(
                    time: time, point: GeoPoint(latitude: latitude, longitude: longitude), accuracy: accuracy,
                    gps: gps))
        }
        return fixes
    }

    package static func csv(_ data: Data) throws -> [TraceFix] {
        var fixes: [TraceFix] = []
        for record in CSVReader.records(data) {
            let fields: [String]
            switch record.fields {
            case .success(let values): fields = values.map { $0.trimmingCharacters(in: .whitespaces) }
            case .failure(let error): throw TraceFileError("Line \(record.line): \(error).")
            }
            if record.line == 1, fields.first?.lowercased() == "time" { continue }
            if fields.allSatisfy(\.isEmpty) { continue }
            guard fields.count >= 4, let time = OutpostJSON.parse(fields[0]), let latitude = Double(fields[1]),
                let longitude = Double(fields[2]), let accuracy = Double(fields[3]), accuracy > 0,
                (-90...90).contains(latitude), (-180...180).contains(longitude)
            else {
                throw TraceFileError(
                    "Line \(record.line): expected time,latitude,longitude,accuracy[,gps] (time as 2026-11-16T08:00:00Z)."
                )
            }
            fixes.append(
                TraceFix(
                    time: time, point: GeoPoint(latitude: latitude, longitude: longitude), accuracy: accuracy,
                    gps: fields.count < 5 || fields[4].lowercased() != "false"))
        }
        return fixes
    }

    /// A trace as GPX 1.1, its accuracy and GPS flag in Outpost's extension.
    public static func gpx(_ trace: GeoTrace) -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<gpx version="1.1" creator="Outpost" xmlns="http://www.topografix.com/GPX/1/1" xmlns:outpost="\#(namespace)">"#,
            "  <metadata><name>\(escape(trace.name))</name></metadata>",
            "  <trk><name>\(escape(trace.name))</name><trkseg>",
        ]
        for fix in trace.fixes {
            let position = String(format: "lat=\"%.7f\" lon=\"%.7f\"", fix.point.latitude, fix.point.longitude)
            let accuracy = String(format: "%.1f", fix.accuracy)
            let gps = fix.gps ? "" : "<outpost:gps>false</outpost:gps>"
            lines.append(
                "    <trkpt \(position)><time>\(OutpostJSON.format(fix.time))</time>"
                    + "<extensions><outpost:accuracy>\(accuracy)</outpost:accuracy>\(gps)</extensions></trkpt>")
        }
        lines += ["  </trkseg></trk>", "</gpx>", ""]
        return lines.joined(separator: "\n")
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
