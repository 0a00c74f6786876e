import ArgumentParser
import OutpostLab
import OutpostTerminal

struct DeviceScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Validate a ticket locally; shows the confirmation screen or a banner.",
        discussion:
            "Give the ticket text, or --image with a photo (PNG or JPEG) to decode with zbar, as the camera would.")

    @OptionGroup var device: DeviceOptions
    @OptionGroup var scanned: ScannedTicket

    @MainActor
    func run() async throws {
        let ticket = try scanned.ticket()
        try await device.perform { app in
            app.scan(ticket)
        }
    }
}

/// What a scan command is given: the ticket's text as a scanner types it, or a photo of its QR
/// code (decoded with zbar, as the camera would), one of the two.
struct ScannedTicket: ParsableArguments {
    @Argument(help: "The ticket text, as the scanner reads it.")
    var text: String?

    @Option(help: ArgumentHelp("A photo of the ticket's QR code (PNG or JPEG).", valueName: "path"))
    var image: String?

    func validate() throws {
        guard (text == nil) != (image == nil) else {
            throw ValidationError("Give the ticket text or --image, not both.")
        }
    }

    /// The ticket: the text, or the photo's QR code; a photo without one is a clean failure.
    func ticket() throws -> String {
        guard let image else { return text ?? "" }
        do {
            return try QRImageDecoder.decode(path: image)[0]
        } catch let error as QRImageDecoder.DecodeError {
            throw CleanFailure(error.description)
        }
    }
}

struct DeviceLookupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup", abstract: "Manual entry: autocomplete over the local roster (name, e-mail, code).")

    @OptionGroup var device: DeviceOptions

    @Argument(help: "What was typed so far.")
    var query: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.lookup(query)
        }
    }
}

struct DeviceCheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "Manual entry by confirmation code, to the confirmation screen.")

    @OptionGroup var device: DeviceOptions

    @Option(help: "The guest's confirmation code.")
    var code: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.checkIn(code: code)
        }
    }
}

struct DeviceConfirmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "confirm",
        abstract: "On the confirmation screen: commit the check-in locally (re-confirm if already checked in).")

    @OptionGroup var device: DeviceOptions

    @Option(help: "A note to send with the check-in.")
    var note: String?

    @Option(
        name: .customLong("name"),
        help: "The holder's name, for a block's unnamed ticket named at the door (when the block allows it).")
    var holderName: String?

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.confirm(note: note, holderName: holderName)
        }
    }
}

struct DeviceBlockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "block",
        abstract:
            "A ticket block's holder without a ticket: the block's next unnamed ticket, to the confirmation screen.",
        discussion: """
            Give the partner's name (any case) or the block's id. Then `outpost device confirm --name "…"` \
            names the ticket at the door and checks its holder in, if the organizer lets the door name \
            the block's tickets; otherwise the confirm exits 3 saying the partner names its own.
            """)

    @OptionGroup var device: DeviceOptions

    @Argument(help: "The partner's name or the block's id.")
    var partner: String

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.openBlockTicket(partner)
        }
    }
}

struct DeviceCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "On the confirmation screen: go back without writing anything.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.cancel()
        }
    }
}

struct DeviceSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Replay the outbox and pull the roster delta.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.sync()
        }
    }
}

struct DeviceStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Print the current UI tree.")

    @OptionGroup var device: DeviceOptions

    @MainActor
    func run() async throws {
        try await device.perform { _ in }
    }
}

struct DeviceSignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "Sign out; with pending check-ins, shows the warning unless a choice is given.")

    @OptionGroup var device: DeviceOptions

    @Flag(help: "Wait for the pending check-ins to sync, then sign out.")
    var wait = false

    @Flag(help: "Sign out and discard pending check-ins.")
    var discard = false

    @Flag(help: "Sign out keeping pending check-ins; they sync when the same user signs in again.")
    var keep = false

    func validate() throws {
        if [wait, discard, keep].filter({ $0 }).count > 1 {
            throw ValidationError("Choose at most one of --wait, --discard and --keep.")
        }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            await app.signOut(wait ? .wait : discard ? .discard : keep ? .keep : nil)
        }
    }
}
