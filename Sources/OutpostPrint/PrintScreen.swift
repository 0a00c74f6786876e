import Foundation
import OutpostCore
import OutpostShell

/// The Print tab: the paired printer and its state, the printers in reach to pair, and the
/// event's latest badges in this device's queue (who, where each is, a reprint's reason).
package struct PrintScreen: ScreenModel, Sendable {
    package struct Job: Sendable {
        package var job: PrintJobRecord
        package var guestName: String
    }

    package var paired: PrinterInfo?
    package var status: PrinterStatus?
    package var discovered: [PrinterInfo]
    package var jobs: [Job]
    package var message: String?
    package var timeZone: String?

    package var identifier: String { UIIdentifier.printScreen }

    package func elements() -> [UIElement] {
        var elements = [UIElement(UIIdentifier.printScreen, "Badge printing")]
        if let paired { elements.append(PrintScreen.stateElement(paired, status)) }
        for printer in discovered where printer.id != paired?.id {
            elements.append(UIElement(UIIdentifier.printerFound, printer.name, ["printerId": printer.id]))
        }
        for shown in jobs {
            let job = shown.job
            var text = "\(shown.guestName): \(Self.words(job.state))"
            if let at = job.printedAt { text += " at \(TimeFormatting.time(at, timeZone))" }
            if job.reprint { text += " (reprint: \(job.reason ?? ""))" }
            if job.state == .queued, let error = job.lastError { text += " — \(error)" }
            elements.append(
                UIElement(
                    UIIdentifier.printJob, text,
                    [
                        "printId": job.id.wire, "guestId": job.guestId.wire, "state": job.state.rawValue,
                        "reprint": job.reprint ? "true" : "false", "attempts": String(job.attempts),
                    ]))
        }
        if let message { elements.append(UIElement(UIIdentifier.printMessage, message)) }
        return elements
    }

    static func words(_ state: PrintJobRecord.State) -> String {
        switch state {
        case .queued: "waiting for the printer"
        case .sent: "at the printer"
        case .printed: "printed"
        case .failed: "not printed (canceled at the printer)"
        }
    }

    /// The paired printer's line: on the Print screen and on the event shell (the station's).
    static func stateElement(_ printer: PrinterInfo, _ status: PrinterStatus?) -> UIElement {
        let condition = status?.condition
        let words =
            switch condition {
            case .ready: "ready"
            case .printing: "printing"
            case .outOfPaper: "out of labels — refill it; waiting badges print then"
            case .off: "off or out of reach — waiting badges print when it is back"
            case .stopped: "stopped" + (status.map { $0.detail.isEmpty ? "" : " (\($0.detail))" } ?? "")
            case nil: "not asked yet"
            }
        return UIElement(
            UIIdentifier.printerState, "Printer \(printer.name): \(words)",
            ["printerId": printer.id, "state": condition?.rawValue ?? "unknown", "detail": status?.detail ?? ""])
    }
}
