import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

struct DeviceTrackClockInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clock-in", abstract: "Clock in by hand.")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID

    @MainActor
    func run() async throws { try await device.perform { app in app.clockIn(at: id) } }
}

struct DeviceTrackClockOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clock-out", abstract: "Clock out by hand.")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The location's id.") var id: LocationID

    @MainActor
    func run() async throws { try await device.perform { app in app.clockOut(at: id) } }
}

/// `track session add --location ID --from T --to T`.
struct DeviceTrackSessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Sessions entered by hand, corrections, and breaks.",
        subcommands: [
            DeviceTrackSessionAddCommand.self, DeviceTrackSessionEditCommand.self,
            DeviceTrackSessionDeleteCommand.self, DeviceTrackSessionBreakCommand.self,
        ])
}

/// `track session edit SESSION_ID [--from T] [--to T]`: seed 003's drag handles.
struct DeviceTrackSessionEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Correct a session's start or end (not on a confirmed day); its times as tracked are kept.",
        discussion: """
            A session still open (you forgot to clock out, the phone died at work) is clocked out \
            and ends at --to. The correction, with the times before it, goes with the day's \
            submission and is in the data export.
            """)
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).", transform: TrackArgument.sessionId)
    var id: UUID
    @Option(help: "The new start, RFC 3339 (2026-11-24T08:00:00Z).", transform: TrackArgument.timestamp)
    var from: Date?
    @Option(help: "The new end, RFC 3339.", transform: TrackArgument.timestamp) var to: Date?

    func validate() throws {
        guard from != nil || to != nil else { throw ValidationError("Give --from, --to or both.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.correctSession(id, start: from, end: to)
        }
    }
}

/// `track session delete SESSION_ID`.
struct DeviceTrackSessionDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete a finished session (not on a confirmed day); it stays in the export and the day's submission as deleted."
    )
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).", transform: TrackArgument.sessionId)
    var id: UUID

    @MainActor
    func run() async throws { try await device.perform { app in app.deleteSession(id) } }
}

struct DeviceTrackSessionAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a session by hand: not in the future, ending after it starts, not overlapping another there.")
    @OptionGroup var device: DeviceOptions
    @Option(help: "The location's id.") var location: LocationID
    @Option(help: "Start, RFC 3339 (2026-11-24T08:00:00Z).", transform: TrackArgument.timestamp) var from: Date
    @Option(help: "End, RFC 3339.", transform: TrackArgument.timestamp) var to: Date

    @MainActor
    func run() async throws {
        try await device.perform { app in
            app.addManualSession(
                at: location, from: from, to: to)
        }
    }
}

/// `track session break SESSION_ID --minutes M`: the break of a finished session.
struct DeviceTrackSessionBreakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "break",
        abstract: "Give a finished session a break (shared out over its days; not on a confirmed day).")
    @OptionGroup var device: DeviceOptions
    @Argument(help: "The session's id (sessionId on the history's rows).", transform: TrackArgument.sessionId)
    var id: UUID
    @Option(help: "The break in minutes (0 removes it).") var minutes: Int

    func validate() throws {
        guard minutes >= 0 else { throw ValidationError("--minutes is 0 or more.") }
    }

    @MainActor
    func run() async throws {
        try await device.perform { app in app.setSessionBreak(id, minutes: minutes) }
    }
}
