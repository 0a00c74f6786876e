import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostTerminal

/// `outpost device printer ...` and `outpost device badge ...`: seed 000's Print tab, headless.
struct DevicePrinterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "printer",
        abstract: "The badge printer: the ones in reach, pairing (kept across launches), its state.",
        discussion: """
            In reach are the simulated Bluetooth label printer (`outpost device sim printer \
            on|off|paper-in|paper-out`) and the CUPS queues added with add-queue.
            """,
        subcommands: [
            PrinterListCommand.self, PrinterAddQueueCommand.self, PrinterPairCommand.self, PrinterUnpairCommand.self,
            PrinterStatusCommand.self,
        ]
    )
}

struct PrinterListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Look for printers in reach; prints each one's id and name.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            for printer in await app.discoverPrinters() { print("\(printer.id)\t\(printer.name)") }
        }
    }
}

struct PrinterAddQueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-queue", abstract: "Put a CUPS queue in reach, by its IPP address.")

    @OptionGroup var device: DeviceOptions
    @Argument(help: "ipp://host:port/printers/NAME") var queue: String

    func validate() throws {
        guard let url = URL(string: queue), CUPSBadgePrinter(queue: url) != nil else {
            throw ValidationError("A queue is an IPP address: ipp://host:631/printers/NAME.")
        }
    }

    @MainActor
    func run() async throws {
        var settings = try SimulatorSettings.load(home: device.homeURL)
        if !settings.printerQueues.contains(queue) { settings.printerQueues.append(queue) }
        try settings.save(home: device.homeURL)
        try await device.perform { app in
            for printer in await app.discoverPrinters() { print("\(printer.id)\t\(printer.name)") }
        }
    }
}

struct PrinterPairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair", abstract: "Pair a printer in reach (the Print tab appears); kept across launches.")

    @OptionGroup var device: DeviceOptions
    @Argument(help: "The printer's id (from `printer list`).") var printer: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            _ = await app.discoverPrinters()
            await app.pairPrinter(id: printer)
        }
    }
}

struct PrinterUnpairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unpair", abstract: "Forget the paired printer.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.unpairPrinter() }
    }
}

struct PrinterStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Ask the paired printer (badges waiting are sent); the Print screen.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.runPrintQueue()
            app.openPrint()
        }
    }
}

struct DeviceBadgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "badge", abstract: "Print a guest's badge on the paired printer.",
        subcommands: [BadgePrintCommand.self])
}

struct BadgePrintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a guest's badge; a guest whose badge this device printed needs --reprint REASON.")

    @OptionGroup var device: DeviceOptions
    @Option(help: "The guest's id.") var guest: GuestID
    @Option(help: "Why the badge is printed again (counted and audited).") var reprint: String?

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.printBadge(guestId: guest, reprintReason: reprint)
            guard app.refusal == nil else { return }
            app.openPrint()
        }
    }
}
