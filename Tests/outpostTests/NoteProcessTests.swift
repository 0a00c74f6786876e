import Foundation
import OutpostCore
import OutpostLab
import Testing

/// `outpost device note` as real processes against a real server.
@Suite("outpost device note")
struct NoteProcessTests {
    @Test(
        "notes-cli: a handover written offline is kept and queued; an unknown note cannot be edited (exit 3); online it syncs and an edit replaces it"
    )
    func notesCLI() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let session = try await server.organizerSetUp()
        let device = try await HeadlessDevice(on: server, event: session.eventId)
        try await device.run(["sim", "network", "off"])
        let written = try await CLI.tree(
            try device.run(["note", "add", "--body", "Shift 2: press packs under the desk"]))
        #expect(written["pending"] as? Int == 1)
        let refused = try await device.run(
            ["note", "edit", "00000000-0000-4000-8000-000000000001", "--body", "x"], status: 3)
        #expect(refused.stderr == "refused: There is no such note at this event.\n")
        try await device.run(["sim", "network", "on"])
        #expect(try await CLI.tree(try device.run(["sync"]))["pending"] as? Int == 0)
        let list = try await CLI.tree(try device.run(["note", "list"]))
        let entries = (list["elements"] as? [[String: Any]] ?? []).filter { $0["id"] as? String == "notes-entry" }
        let noteId = try #require((entries.first?["attributes"] as? [String: String])?["noteId"])
        #expect((entries.first?["text"] as? String)?.hasPrefix("Handover: Shift 2: press packs under the desk") == true)
        try await device.run(["note", "edit", noteId, "--body", "Shift 3: press packs handed out"])
        let notes = try await server.json("GET", "/v1/events/\(session.eventId)/notes", token: session.token)
        let bodies = (notes["notes"] as? [[String: Any]] ?? []).compactMap {
            ($0["revision"] as? [String: Any])?["body"] as? String
        }
        #expect(bodies == ["Shift 2: press packs under the desk", "Shift 3: press packs handed out"])
    }
}
