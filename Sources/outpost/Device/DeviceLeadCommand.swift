import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice

/// `outpost device lead ...`: an exhibitor's lead station, headless.
struct DeviceLeadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lead",
        abstract: "The EFx lead station of an exhibitor: capture leads at your booth, offline as online.",
        subcommands: [
            LeadShowCommand.self, LeadBoothCommand.self, LeadScanCommand.self, LeadEditCommand.self,
            LeadResolveCommand.self, LeadExportCommand.self,
        ]
    )
}

/// A lead's rating, notes and answers, as options.
struct LeadDetails: ParsableArguments {
    @Option(help: "A rating from 1 to 5 (0: none).") var rating: Int?
    @Option(help: "Notes on the conversation.") var notes: String?
    @Option(name: .customLong("answer"), help: "An answer to one of the booth's questions: key=text (repeatable).")
    var answers: [String] = []

    var given: Bool { rating != nil || notes != nil || !answers.isEmpty }

    func validate() throws {
        if let rating, !(0...5).contains(rating) { throw ValidationError("A rating is from 0 (none) to 5.") }
        for answer in answers where !answer.contains("=") { throw ValidationError("\(answer): an answer is key=text.") }
    }

    var answerMap: [String: String]? {
        guard !answers.isEmpty else { return nil }
        var map: [String: String] = [:]
        for answer in answers {
            let parts = answer.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            map[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return map
    }
}

struct LeadShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Your booths and the chosen booth's leads.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { _ in }
    }
}

struct LeadBoothCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booth", abstract: "Choose the booth this device captures for (its boothId in `lead show --json`)."
    )

    @OptionGroup var device: DeviceOptions
    @Option(help: "The booth's id.") var id: BoothID

    @MainActor
    func run() async throws {
        try await device.perform { app in app.chooseBooth(id) }
    }
}

struct LeadScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "An attendee's badge or ticket at the booth: a lead, rated and noted in one step.",
        discussion: "Give the ticket text, or --image with a photo (PNG or JPEG) to decode with zbar.")

    @OptionGroup var device: DeviceOptions
    @OptionGroup var scanned: ScannedTicket
    @OptionGroup var details: LeadDetails

    @MainActor
    func run() async throws {
        let ticket = try scanned.ticket()
        try await device.perform { app in
            app.leadScan(ticket)
            guard let last = app.shown().part(LeadsScreen.self)?.last else { return }
            guard last.captured, let lead = last.leadId else {
                try device.output(app)
                throw DeviceOptions.refused(last.sentence)
            }
            if details.given {
                app.leadEdit(lead, rating: details.rating, notes: details.notes, answers: details.answerMap)
            }
        }
    }
}

struct LeadEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Rate, note or answer a lead (its leadId in `lead show --json`).")

    @OptionGroup var device: DeviceOptions
    @Option(help: "The lead's id.") var lead: LeadID
    @OptionGroup var details: LeadDetails

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.leadEdit(lead, rating: details.rating, notes: details.notes, answers: details.answerMap)
        }
    }
}

struct LeadResolveCommand: AsyncParsableCommand {
    enum Side: String, ExpressibleByArgument { case mine, theirs }

    static let configuration = CommandConfiguration(
        commandName: "resolve", abstract: "End a conflict on a lead: keep your edit (mine) or the other (theirs).")

    @OptionGroup var device: DeviceOptions
    @Option(help: "The lead's id.") var lead: LeadID
    @Option(help: "mine or theirs.") var keep: Side

    @MainActor
    func run() async throws {
        try await device.perform { app in app.leadResolve(lead, keepMine: keep == .mine) }
    }
}

struct LeadExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "The chosen booth's leads as CSV (formula-safe), what waits to sync included.")

    @OptionGroup var device: DeviceOptions
    @Option(help: "Write the CSV to this file instead of standard output.") var out: String?

    @MainActor
    func run() async throws {
        let app = try device.launch()
        guard let csv = app.leadsCSV else {
            await device.finish(app)
            throw DeviceOptions.refused("You are on no booth yet: the organizer adds you, then sync.")
        }
        if let out {
            try Data(csv.utf8).write(to: URL(fileURLWithPath: out))
        } else {
            FileHandle.standardOutput.write(Data(csv.utf8))
        }
        await device.finish(app)
    }
}
