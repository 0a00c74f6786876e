import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

/// `outpost device pickup ...`: the EFx tab's pickup station, headless.
struct DevicePickupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pickup",
        abstract: "The EFx pickup station: scan a ticket, hand out what it includes; decides offline.",
        subcommands: [PickupShowCommand.self, PickupScanCommand.self]
    )
}

struct PickupShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "The station: each item and what this station counts left of it.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in app.openPickupStation() }
    }
}

struct PickupScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "A ticket at the pickup station: what the guest may still collect, and hands items out in one step.",
        discussion: """
            Without --item or --all it only shows what the guest may collect. --item takes an item's \
            name (any case) or id, with =N for more than one ("Lunch day 1=2"); repeat it for several \
            items. A handing-out the station refuses (already collected, out of stock) exits 3 with \
            the reason. Give the ticket text, or --image with a photo (PNG or JPEG) to decode with zbar.
            """)

    @OptionGroup var device: DeviceOptions
    @OptionGroup var scanned: ScannedTicket
    @Option(name: .customLong("item"), help: "An item to hand out: its name or id, =N for a quantity.")
    var items: [String] = []
    @Flag(help: "Hand out everything the guest may still collect.") var all = false

    func validate() throws {
        if all, !items.isEmpty { throw ValidationError("Give --item or --all, not both.") }
        for item in items where Self.split(item).quantity == nil {
            throw ValidationError("\(item): a quantity after = is a whole number from 1.")
        }
    }

    /// "Lunch day 1=2" → ("Lunch day 1", 2); a name without =N is one.
    static func split(_ text: String) -> (name: String, quantity: Int?) {
        guard let equals = text.lastIndex(of: "=") else { return (text, 1) }
        let count = Int(text[text.index(after: equals)...])
        return (String(text[..<equals]), count.flatMap { $0 >= 1 ? $0 : nil })
    }

    @MainActor
    func run() async throws {
        let ticket = try scanned.ticket()
        try await device.perform { app in
            app.pickupScan(ticket)
            guard all || !items.isEmpty, app.refusal == nil else { return }
            var request: [PickupItemID: Int]?
            if !all {
                var chosen: [PickupItemID: Int] = [:]
                for item in items {
                    let (name, quantity) = Self.split(item)
                    guard
                        let match = app.pickupItems.first(where: {
                            $0.name.lowercased() == name.lowercased() || $0.id.wire == name.lowercased()
                        })
                    else {
                        throw DeviceOptions.refused("There is no item named \(name) in this event.")
                    }
                    chosen[match.id, default: 0] += quantity ?? 1
                }
                request = chosen
            }
            app.pickupRedeem(request)
            if let last = app.shown().part(PickupStationScreen.self)?.last, !last.handedOut {
                try device.output(app)
                throw DeviceOptions.refused(last.sentence)
            }
        }
    }
}
