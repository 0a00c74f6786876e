import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostDrawing
import OutpostReport

extension CairoCanvas.Format: ExpressibleByArgument {}

/// `track report --month YYYY-MM --format svg|png|pdf [--out FILE]`: the month as a page a
/// worker can send to their employer (the grid, the bars, the totals), drawn with cairo.
struct DeviceTrackReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a month (grid, daily bars, totals) as a PNG, PDF or SVG file.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "The month, YYYY-MM (default: the one shown, else this one).") var month: String?
    @Option(help: "png, pdf or svg (default: from --out's extension, else png).") var format: CairoCanvas.Format?
    @Option(help: "The file to write (default: hours-YYYY-MM.FORMAT in the current directory).") var out: String?

    func validate() throws {
        if let month, !ActivityDate.isValid(month + "-01") { throw ValidationError("--month is YYYY-MM.") }
        if let out, let format, let named = CairoCanvas.Format(rawValue: URL(fileURLWithPath: out).pathExtension),
            named != format
        {
            throw ValidationError("--out names a .\(named.rawValue) file but --format is \(format.rawValue).")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.showMonth(month)
            let shown = app.shown()
            guard let month = shown.part(MonthScreen.self) else {
                throw ValidationError("No month to draw: sign in as a worker first.")
            }
            let chosen =
                format ?? out.flatMap { CairoCanvas.Format(rawValue: URL(fileURLWithPath: $0).pathExtension) } ?? .png
            let name = out ?? "hours-\(String((month.days.first?.hours.day ?? "").prefix(7))).\(chosen.rawValue)"
            let url = URL(fileURLWithPath: name)
            try CairoCanvas.write(try MonthReport.page(shown, worker: shown.tree.user), format: chosen, to: url)
            print("report \(url.path)")
        }
    }
}
