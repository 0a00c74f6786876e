import Foundation
import OutpostDevice
import OutpostDrawing
import OutpostProtocol

/// A CUPS queue as a badge printer (Linux): badges drawn with cairo to a PDF at the label's
/// size and sent with IPP (Print-Job) to the queue's address, `ipp://host:port/printers/NAME`.
/// A job carries the app's id as its `job-uuid`, so the app asks for it (Get-Jobs) before it
/// would ever send it again; paper out stops the queue with the job held, and Resume-Printer
/// goes on with it. Everything through ``HTTPClientTransport`` (nothing here traps).
public struct CUPSBadgePrinter: BadgePrinters {
    public let queue: URL
    private let transport: HTTPClientTransport
    private let path: String
    private let user: String

    /// `queue`: `ipp://host:port/printers/NAME` (IPP over HTTP; `ipps` over TLS).
    public init?(queue: URL, user: String = "outpost", timeout: TimeInterval = 10) {
        guard let scheme = queue.scheme, ["ipp", "ipps"].contains(scheme), let host = queue.host else { return nil }
        let port = queue.port ?? 631
        guard let base = URL(string: "\(scheme == "ipps" ? "https" : "http")://\(host):\(port)") else { return nil }
        self.queue = queue
        transport = HTTPClientTransport(baseURL: base, timeout: timeout, connections: 2)
        path = queue.path.isEmpty ? "/" : queue.path
        self.user = user
    }

    public var info: PrinterInfo {
        PrinterInfo(id: queue.absoluteString, name: "\(queue.lastPathComponent) (CUPS, \(queue.host ?? ""))")
    }

    /// The queue itself, when its scheduler answers.
    public func discover() async -> [PrinterInfo] {
        (try? await printerAttributes()) != nil ? [info] : []
    }

    public func status(of printer: PrinterInfo) async -> PrinterStatus {
        do {
            return Self.status(try await printerAttributes())
        } catch {
            return PrinterStatus(.off, detail: "\(error)")
        }
    }

    /// RFC 8011 printer-state (3 idle, 4 processing, 5 stopped) and -state-reasons.
    static func status(_ attributes: [String: [IPPMessage.Value]]) -> PrinterStatus {
        let reasons = (attributes["printer-state-reasons"] ?? []).compactMap(\.string).filter { $0 != "none" }
        let detail = reasons.joined(separator: ",")
        if reasons.contains(where: { $0.hasPrefix("media-empty") || $0.hasPrefix("media-needed") }) {
            return PrinterStatus(.outOfPaper, detail: detail)
        }
        switch attributes["printer-state"]?.first?.int {
        case 3: return PrinterStatus(.ready, detail: detail)
        case 4: return PrinterStatus(.printing, detail: detail)
        default: return PrinterStatus(.stopped, detail: detail)
        }
    }

    public func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws {
        let pdf: Data
        do {
            pdf = try CairoCanvas.pdf([BadgeSheet.page(job.badge)])
        } catch {
            throw PrinterError.refused("the badge could not be drawn (\(error))")
        }
        let request = IPPMessage.request(
            IPPMessage.printJob, id: 1, printer: queue.absoluteString, user: user,
            operation: [
                IPPMessage.Attribute(
                    tag: IPPMessage.ValueTag.name.rawValue, name: "job-name",
                    values: [.string("outpost-badge-\(job.id.uuidString.lowercased())")]),
                IPPMessage.Attribute(
                    tag: IPPMessage.ValueTag.mimeType.rawValue, name: "document-format",
                    values: [.string("application/pdf")]),
            ],
            job: [
                IPPMessage.Attribute(
                    tag: IPPMessage.ValueTag.uri.rawValue, name: "job-uuid",
                    values: [.string("urn:uuid:\(job.id.uuidString.lowercased())")]),
                IPPMessage.keyword("media", job.badge.layout.label.cupsMedia),
            ],
            document: pdf)
        let answer = try await send(request)
        guard answer.succeeded else {
            throw PrinterError.refused("IPP status 0x\(String(answer.code, radix: 16))")
        }
    }

    public func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState? {
        let answer = try await send(
            IPPMessage.request(
                IPPMessage.getJobs, id: 2, printer: queue.absoluteString, user: user,
                operation: [
                    IPPMessage.keyword("which-jobs", "all"),
                    IPPMessage.keyword("requested-attributes", "job-uuid", "job-state", "job-id"),
                ]))
        guard answer.succeeded else {
            throw PrinterError.unreachable("Get-Jobs answered 0x\(String(answer.code, radix: 16))")
        }
        let uuid = "urn:uuid:\(id.uuidString.lowercased())"
        guard let job = answer.groups(.job).first(where: { $0["job-uuid"]?.first?.string == uuid }) else { return nil }
        // RFC 8011 job-state: 3 pending, 4 held, 5 processing, 6 stopped, 7 canceled, 8 aborted, 9 completed.
        switch job["job-state"]?.first?.int {
        case 9: return .done
        case 7, 8: return .canceled
        case 5: return .printing
        default: return .queued
        }
    }

    public func resume(_ printer: PrinterInfo) async throws {
        _ = try await send(
            IPPMessage.request(IPPMessage.resumePrinter, id: 3, printer: queue.absoluteString, user: user))
    }

    private func printerAttributes() async throws -> [String: [IPPMessage.Value]] {
        let answer = try await send(
            IPPMessage.request(
                IPPMessage.getPrinterAttributes, id: 4, printer: queue.absoluteString, user: user,
                operation: [
                    IPPMessage.keyword("requested-attributes", "printer-state", "printer-state-reasons")
                ]))
        guard answer.succeeded, let attributes = answer.groups(.printer).first else {
            throw PrinterError.unreachable("no such queue (IPP status 0x\(String(answer.code, radix: 16)))")
        }
        return attributes
    }

    private func send(_ message: IPPMessage) async throws -> IPPMessage {
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(
                    method: "POST", path: path, headers: ["Content-Type": "application/ipp"], body: message.encoded()))
        } catch {
            throw PrinterError.unreachable("\(error)")
        }
        guard response.status == 200 else { throw PrinterError.unreachable("HTTP \(response.status)") }
        do {
            return try IPPMessage.decode(response.body)
        } catch {
            throw PrinterError.unreachable("not an IPP answer (\(error))")
        }
    }
}

/// The badge printers a Linux device reaches: the simulated Bluetooth printer (while it is
/// switched on) and the CUPS queues it was given; each job goes to the one its id names.
public struct LinuxBadgePrinters: BadgePrinters {
    public let bluetooth: SimulatedBluetoothPrinter?
    public let queues: [CUPSBadgePrinter]

    public init(bluetooth: SimulatedBluetoothPrinter?, queues: [CUPSBadgePrinter]) {
        self.bluetooth = bluetooth
        self.queues = queues
    }

    private func printer(_ info: PrinterInfo) -> (any BadgePrinters)? {
        if info.id == SimulatedBluetoothPrinter.info.id { return bluetooth }
        return queues.first { $0.info.id == info.id }
    }

    public func discover() async -> [PrinterInfo] {
        var found = await bluetooth?.discover() ?? []
        for queue in queues { found += await queue.discover() }
        return found
    }

    public func status(of printer: PrinterInfo) async -> PrinterStatus {
        await self.printer(printer)?.status(of: printer) ?? PrinterStatus(.off)
    }

    public func submit(_ job: PrinterJob, to printer: PrinterInfo) async throws {
        guard let target = self.printer(printer) else { throw PrinterError.unreachable("not in reach") }
        try await target.submit(job, to: printer)
    }

    public func job(_ id: UUID, on printer: PrinterInfo) async throws -> PrinterJobState? {
        guard let target = self.printer(printer) else { throw PrinterError.unreachable("not in reach") }
        return try await target.job(id, on: printer)
    }

    public func resume(_ printer: PrinterInfo) async throws {
        try await self.printer(printer)?.resume(printer)
    }
}
