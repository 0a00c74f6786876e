import ArgumentParser
import Foundation
import OutpostProtocol

/// The tracking commands' values, each parsed once by ArgumentParser: one that does not parse
/// is a usage error (exit 2) that says what the option takes, and `run()` reads typed values.
enum TrackArgument {
    /// A time of day, HH:MM, as minutes after midnight; `sentence` is the usage error.
    static func clock(_ sentence: String) -> @Sendable (String) throws -> Int {
        { text in
            guard let minutes = PlanArgument.clock(text) else { throw ValidationError(sentence) }
            return minutes
        }
    }

    /// A length: 8h, 7h30 or minutes.
    static func length(_ text: String) throws -> Int {
        guard let minutes = PlanArgument.length(text) else {
            throw ValidationError("--duration is 8h, 7h30 or minutes.")
        }
        return minutes
    }

    /// A timestamp as the API writes it (2026-11-24T08:00:00Z); one that does not exist as
    /// written (30 February) is refused.
    static func timestamp(_ text: String) throws -> Date {
        guard let date = OutpostJSON.parse(text) else {
            throw ValidationError("--from and --to are times like 2026-11-24T08:00:00Z.")
        }
        return date
    }

    /// A tracked session's id (sessionId on the history's rows).
    static func sessionId(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ValidationError("The session id is a UUID.") }
        return id
    }
}
