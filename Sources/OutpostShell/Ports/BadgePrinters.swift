import Foundation
import OutpostProtocol

/// A badge printer the device can reach: on a phone a Bluetooth label printer (its maker's SDK),
/// on Linux a CUPS queue or the simulated Bluetooth printer.
public struct PrinterInfo: Codable, Sendable, Hashable {
    /// Stable across launches (a Bluetooth address, a queue's IPP URL): what pairing keeps.
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// What a printer says of itself (RFC 8011's printer-state and -state-reasons, or a Bluetooth
/// printer's status byte), as the door needs it.
public enum PrinterCondition: String, Codable, Sendable, CaseIterable {
    case ready
    case printing
    /// Out of labels (or paper): a job waits until someone refills it.
    case outOfPaper = "out-of-paper"
    /// Switched off, out of range or unreachable.
    case off
    /// Stopped for another reason (a jam, an open lid): the detail says which.
    case stopped
}

public struct PrinterStatus: Codable, Sendable, Hashable {
    public var condition: PrinterCondition
    /// The printer's own words ("media-empty-error", "lid open"), empty when it has none.
    public var detail: String

    public init(_ condition: PrinterCondition, detail: String = "") {
        self.condition = condition
        self.detail = detail
    }
}

/// Where a job is, as the printer knows it.
public enum PrinterJobState: String, Codable, Sendable {
    /// Received, waiting (a stopped printer keeps it): never send it again.
    case queued
    case printing
    case done
    /// Canceled or aborted at the printer: printed again only if staff ask.
    case canceled
}

/// One badge to print. Its id is the dedupe key: a job the printer already knows is never sent
/// again.
public struct PrinterJob: Sendable, Hashable {
    public var id: UUID
    public var badge: BadgeContent

    public init(id: UUID, badge: BadgeContent) {
        self.id = id
        self.badge = badge
    }
}

public enum PrinterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Off, out of range, or the print server does not answer.
    case unreachable(String)
    /// A printer without a spool (Bluetooth) that is out of labels refuses the job.
    case outOfPaper
    /// The printer refused the job: the sentence says why.
    case refused(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "The printer cannot be reached (\(why))."
        case .outOfPaper: "The printer is out of labels."
        case .refused(let why): "The printer refused the badge: \(why)"
        }
    }
}

/// The platform's badge printers (the port): what it can see, each one's state, and jobs by id.
public protocol BadgePrinters: Sendable {
    /// The printers in reach now (a Bluetooth scan; the CUPS queues).
    func discover() async -> [PrinterInfo]
    func status(of printer: PrinterInfo) async -> PrinterStatus
    /// Sends a badge. Throws ``PrinterError``; nothing was received then.
    func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws
    /// What the printer knows of job `id` (nil: it never received it). Throws when it cannot be asked.
    func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState?
    /// Asks a printer that stopped (out of labels) to go on with what it holds.
    func resume(_ printer: PrinterInfo) async throws
}

/// A device with no badge printer in reach (the default port).
public struct NoBadgePrinters: BadgePrinters {
    public init() {}
    public func discover() async -> [PrinterInfo] { [] }
    public func status(of printer: PrinterInfo) async -> PrinterStatus { PrinterStatus(.off) }
    public func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws {
        throw PrinterError.unreachable("no printer on this device")
    }
    public func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState? {
        throw PrinterError.unreachable("no printer on this device")
    }
    public func resume(_ printer: PrinterInfo) async throws {}
}
