import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTerminal

/// The commands of `outpost device mesh`, one a line, each answered with one line: what a door
/// person does (scan, confirm, cancel, sync) and what they look at (the peers and how fresh each
/// is, the door's state).
@MainActor
struct MeshDoor {
    let app: DeviceApp
    let node: MeshNode
    let json: Bool

    /// One command's answer (one JSON object with --json).
    struct Answer: Codable {
        var command: String
        /// The screen after the command (`confirmation` after a scan of a known ticket).
        var screen: String
        /// Whether the confirmation card is up (a known ticket scanned, waiting for confirm).
        var confirming: Bool
        /// The confirmation card's sentence when the guest is already checked in (here or at a
        /// peer: "Already checked in at 19:02 by Alex on door-1").
        var alreadyCheckedIn: String?
        /// The idempotency key of the check-in a confirm committed.
        var confirmed: String?
        var refusal: String?
        /// Peers with a live session and the seconds since each was heard.
        var peers: [String: Double]
        /// Entries this door holds of the event's mesh, and check-ins waiting for the server.
        var entries: Int
        var pending: Int
        /// When the answer was made (milliseconds since 1970), on this machine's clock.
        var at: Int64
    }

    func perform(_ line: String) async {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let verb = trimmed.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        let argument = trimmed.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
        var confirmed: String?
        switch verb {
        case "scan":
            app.scan(argument)
        case "confirm":
            let before = app.lastConfirmedKey
            await app.confirm(replayAfter: false)
            if app.refusal == nil, let key = app.lastConfirmedKey, key != before { confirmed = key }
        case "cancel":
            app.cancel()
        case "sync":
            await app.sync()
        case "peers", "status", "":
            break
        default:
            say(
                json
                    ? #"{"command":"\#(verb)","refusal":"unknown command"}"#
                    : "Unknown command \(verb): scan TEXT, confirm, cancel, sync, peers, status.")
            return
        }
        let tree = app.tree()
        let peers = await node.peers
        let answer = Answer(
            command: verb, screen: tree.screen, confirming: tree.contains(UIIdentifier.confirmationScreen),
            alreadyCheckedIn: tree.contains(UIIdentifier.alreadyCheckedIn)
                ? tree.element(UIIdentifier.alreadyCheckedIn)?.text ?? "" : nil,
            confirmed: confirmed, refusal: tree.refusal,
            peers: Dictionary(uniqueKeysWithValues: peers.map { ($0.device, $0.heard.seconds) }),
            entries: app.meshLog?.count ?? 0, pending: app.pendingCount,
            at: Date().millisecondsSince1970)
        say(json ? String(decoding: (try? OutpostJSON.encode(answer)) ?? Data(), as: UTF8.self) : Self.sentence(answer))
    }

    /// One line on standard output, written at once (the harness reading it waits for it).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The answer in words, for a person at a terminal.
    static func sentence(_ answer: Answer) -> String {
        var parts: [String] = []
        if let refusal = answer.refusal { parts.append(refusal) }
        if let already = answer.alreadyCheckedIn { parts.append(already.isEmpty ? "Already checked in." : already) }
        if answer.confirmed != nil { parts.append("Checked in.") }
        let peers =
            answer.peers.isEmpty
            ? "no peers"
            : answer.peers.sorted { $0.key < $1.key }.map { "\($0.key) · \(Int($0.value.rounded())) s ago" }
                .joined(separator: ", ")
        parts.append("\(answer.screen); \(peers); \(answer.entries) entries, \(answer.pending) waiting for the server")
        return parts.joined(separator: " ")
    }
}
