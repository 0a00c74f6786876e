import Foundation
import OutpostLab
import Testing

/// The device CLI's contract for refusals: a script can tell an action the
/// app refused from one it carried out. A refusal exits 3, prints the tree as always with its
/// `refusal`, and says why in one `refused: …` line on standard error; the next command starts
/// without it.
@Suite("the device CLI's refusals")
struct RefusalExitTests {
    @Test(
        "cli-refusal-exit-status: an unknown location, an overlapping session, a sign-out with hours waiting and a second clock-in exit 3 with the refusal in the tree; the actions around them exit 0"
    )
    func refusals() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (device, location) = try await DeviceHome.worker(on: server)
        let unknown = "00000000-0000-4000-8000-000000000001"

        // An unknown location id: refused, and the tree still shows where the worker is.
        let clockIn = try await device(["track", "clock-in", unknown], refused: true)
        #expect(clockIn.screen == "track-status-screen")
        #expect(clockIn.refusal == clockIn.text("track-error"))
        try await device(
            [
                "track", "session", "add", "--location", unknown, "--from", "2026-11-02T08:00:00Z",
                "--to", "2026-11-02T12:00:00Z",
            ], refused: true)

        // A session, then one overlapping it.
        try await device([
            "track", "session", "add", "--location", location, "--from", "2026-11-02T08:00:00Z", "--to",
            "2026-11-02T12:00:00Z",
        ])
        let overlap = try await device(
            [
                "track", "session", "add", "--location", location, "--from", "2026-11-02T11:00:00Z", "--to",
                "2026-11-02T13:00:00Z",
            ], refused: true)
        #expect(overlap.refusal?.contains("overlap") == true, "\(overlap.refusal ?? "")")
        // The refusal is not carried into the next command.
        try await device(["track", "history"])

        // Clocking in twice: the second is refused.
        try await device(["track", "clock-in", location])
        try await device(["track", "clock-in", location], refused: true)
        try await device(["track", "clock-out", location])

        // A day submitted offline waits; a plain sign-out is refused, and says how many.
        try await device(["sim", "network", "off"])
        try await device(["track", "confirm", "2026-11-02"])
        #expect(try await device(["track", "confirm", "--continue"]).pending == 1)
        let signOut = try await device(["signout"], refused: true)
        #expect(signOut.text("native-shell-signout-pending-warning") != nil, "\(signOut.elements)")
        #expect(signOut.refusal?.hasPrefix("Not signed out: 1 ") == true, "\(signOut.refusal ?? "")")
        try await device(["signout", "--keep"])
        // Signed out, the privacy export has nothing to give: refused too.
        let export = try await CLI.run(["device", "privacy", "export", "--home", device.path, "--json"])
        #expect(export.status == 3 && export.stderr.contains("refused: Nothing to export"), "\(export.stderr)")
    }

    @Test(
        "cli-refusal-exit-status-mentor: a visit for a contact that is not the mentor's exits 3 and queues nothing; one for her contact exits 0"
    )
    func mentorRefusal() async throws {
        let world = try await PeerMentorProcessTests.World.make()
        defer { world.stop() }
        let stranger = UUID().uuidString.lowercased()
        let refused = try await world.device(
            [
                "activity", "register", "--contact", stranger, "--type", "visit", "--date", "2026-11-20", "--duration",
                "45",
            ],
            refused: true)
        #expect(refused.refusal == "Choose one of your contacts.")
        #expect(refused.pending == 0)
        let saved = try await world.register("Ingrid", notes: "Cards")
        #expect(saved.refusal == nil)
    }
}
