import Foundation
import Testing

/// Seed 004's acceptance criteria through `outpost device` processes against `outpost serve`:
/// every command is one app launch, `sim network off` is airplane mode, `sim kill` ends the app.
@Suite("Peer mentors as processes (seed 004)")
struct PeerMentorProcessTests {
    static let phone = "+47 915 55 012"
    static let healthNotes = "Insulin at 18:00; hearing aid left ear"
    static let address = "Fjordveien 12, 9990 Båtsfjord"

    /// A server with an organizer, mentor Mia and two contacts assigned to her, and Mia's device
    /// signed in (online).
    final class World: @unchecked Sendable {
        let server: RunningServer
        let home: String
        var contacts: [String: String] = [:]

        init(server: RunningServer, home: String) {
            self.server = server
            self.home = home
        }

        static func make() async throws -> World {
            let server = try await RunningServer.start()
            _ = try await server.organizerSetUp()
            let token = try await server.signIn()
            let world = World(server: server, home: try CLI.temporaryDirectory() + "/device")
            let mentor = try await server.json(
                "POST", "/v1/users", token: token,
                body: #"{"email":"mia@acme.test","name":"Mia","role":"mentor","password":"mentor-password"}"#)
            let mentorId = try #require(mentor["id"] as? String)
            for (name, body) in [
                (
                    "Ingrid",
                    #"{"name":"Ingrid Solberg","area":"Båtsfjord","address":"\#(address)","phone":"\#(phone)","healthNotes":"\#(healthNotes)"}"#
                ),
                ("Per", #"{"name":"Per Hansen","area":"Vardø"}"#),
            ] {
                let contact = try await server.json("POST", "/v1/contacts", token: token, body: body)
                let id = try #require(contact["id"] as? String)
                world.contacts[name] = id
                let (_, status) = try await server.request(
                    "PUT", "/v1/contacts/\(id)/mentors/\(mentorId)", token: token)
                try #require(status == 204)
            }
            let signedIn = try await world.device([
                "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "mia@acme.test", "--password",
                "mentor-password",
            ])
            try #require(signedIn.screen == "activities-screen", "a mentor lands on her activities")
            return world
        }

        /// Runs `outpost device …` and returns its tree.
        @discardableResult
        func device(
            _ arguments: [String], refused: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Tree {
            try await DeviceHome(home)(arguments, refused: refused, sourceLocation: sourceLocation)
        }

        /// Biometric unlock on, airplane mode, the app killed: the next command is a cold launch.
        func airplaneRelaunch() async throws {
            try await device(["settings", "biometric", "on"])
            try await device(["settings", "close"])
            try await device(["sim", "network", "off"])
            try await device(["sim", "kill"])
        }

        func register(_ contact: String, notes: String) async throws -> Tree {
            try await device([
                "activity", "register", "--contact", contacts[contact]!, "--type", "visit", "--date", "2026-11-20",
                "--duration", "45", "--notes", notes,
            ])
        }

        /// The mentor's activities on the server.
        func serverActivities() async throws -> [[String: Any]] {
            let token = try #require(
                try await server.json(
                    "POST", "/v1/auth/signin",
                    body: #"{"email":"mia@acme.test","password":"mentor-password","deviceId":"check"}"#
                )["accessToken"] as? String)
            return try #require(
                try await server.json("GET", "/v1/activities", token: token)["activities"] as? [[String: Any]])
        }

        func stop() { server.stop() }
    }

    /// A printed UI tree.
    struct Tree {
        let json: [String: Any]
        init(_ json: [String: Any]) { self.json = json }

        var screen: String { json["screen"] as? String ?? "" }
        var elements: [[String: Any]] { json["elements"] as? [[String: Any]] ?? [] }
        func all(_ id: String) -> [[String: Any]] { elements.filter { $0["id"] as? String == id } }
        func text(_ id: String) -> String? { all(id).first?["text"] as? String }
        func attribute(_ id: String, _ name: String) -> String? {
            (all(id).first?["attributes"] as? [String: String])?[name]
        }
        var pending: Int { json["pending"] as? Int ?? -1 }
        /// Why the command's action was refused (the tree's `refusal`), nil when it was not.
        var refusal: String? { json["refusal"] as? String }

        /// Runs `outpost ARGUMENTS` (a device command with `--json`) and reads its tree. The
        /// CLI's contract: a refused action exits 3, with the tree's
        /// `refusal` and one `refused: …` line on standard error; any other action exits 0
        /// with `refusal` null.
        static func run(
            _ arguments: [String], refused: Bool, sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> Tree {
            let result = try await CLI.run(arguments)
            let tree = Tree(try CLI.tree(result))
            let said = "\(arguments.dropFirst()): exit \(result.status), \(result.stderr)"
            if refused {
                #expect(result.status == 3, "\(said)", sourceLocation: sourceLocation)
                #expect(tree.refusal?.isEmpty == false, "\(said)", sourceLocation: sourceLocation)
                #expect(
                    result.stderr.contains("refused: \(tree.refusal ?? "?")"), "\(said)", sourceLocation: sourceLocation
                )
            } else {
                #expect(result.status == 0, "\(said)", sourceLocation: sourceLocation)
                #expect(
                    tree.json.keys.contains("refusal") && tree.refusal == nil, "\(said): \(tree.refusal ?? "")",
                    sourceLocation: sourceLocation)
            }
            return tree
        }
    }

    @Test("pm-criterion-1-offline-register: offline, the registration flow works normally and the data is queued")
    func criterion1() async throws {
        let world = try await World.make()
        defer { world.stop() }
        try await world.device(["sim", "network", "off"])
        let tree = try await world.register("Ingrid", notes: "Coffee and cards")
        #expect(tree.screen == "activities-screen")
        #expect(tree.text("activities-saved-notice") == "Visit saved; it will sync when you're online")
        #expect(tree.attribute("activities-activity-row", "syncing") == "true")
        #expect(tree.pending == 1)
        #expect(try await world.serverActivities().isEmpty)
        // A killed app keeps it.
        try await world.device(["sim", "kill"])
        #expect(try await world.device(["activity", "list"]).pending == 1)
    }

    @Test(
        "pm-criterion-2-offline-relaunch: offline, a relaunched app unlocks with biometrics and works on cached data")
    func criterion2() async throws {
        let world = try await World.make()
        defer { world.stop() }
        try await world.airplaneRelaunch()
        #expect(try await world.device(["status"]).screen == "native-shell-lock-screen")
        let unlocked = try await world.device(["unlock", "--biometric"])
        #expect(unlocked.screen == "activities-screen")
        let contacts = try await world.device(["contact", "list"])
        #expect(contacts.all("contacts-contact-row").count == 2, "the cached contacts")
        #expect(try await world.register("Per", notes: "In airplane mode").pending == 1)
    }

    @Test(
        "pm-criterion-3-offline-indicator: offline, screens needing live data show a calm offline indicator and the cached data"
    )
    func criterion3() async throws {
        let world = try await World.make()
        defer { world.stop() }
        try await world.device(["sim", "network", "off"])
        for arguments in [["activity", "list"], ["contact", "list"], ["contact", "show", world.contacts["Per"]!]] {
            let tree = try await world.device(arguments)
            let banner = try #require(tree.text("native-shell-offline-banner"), "\(arguments)")
            #expect(banner.contains("last updated"))
            #expect(tree.attribute("native-shell-offline-banner", "tone") == "neutral")
        }
        let per = try await world.device(["contact", "show", world.contacts["Per"]!])
        #expect(per.text("contacts-cached-info")?.contains("Per Hansen · Vardø") == true)
    }

    @Test(
        "pm-criterion-4-sync-on-reconnect: back online, queued registrations sync automatically and one notice says so")
    func criterion4() async throws {
        let world = try await World.make()
        defer { world.stop() }
        try await world.device(["sim", "network", "off"])
        _ = try await world.register("Ingrid", notes: "First visit")
        _ = try await world.register("Per", notes: "Second visit")
        let back = try await world.device(["sim", "network", "on"])
        #expect(back.text("activities-sync-notice") == "2 activities synced")
        #expect(back.pending == 0)
        let notes = try await world.serverActivities().compactMap { $0["notes"] as? String }
        #expect(Set(notes) == ["First visit", "Second visit"])
    }

    @Test(
        "pm-criterion-5-background-validation: an offline biometric unlock is validated with the server when it comes back, without interrupting the user"
    )
    func criterion5() async throws {
        let world = try await World.make()
        defer { world.stop() }
        try await world.airplaneRelaunch()
        // A day later (the access token has long expired), unlocked offline, on a contact.
        try await world.device(["sim", "clock-skew", String(24 * 3600)])
        #expect(try await world.device(["unlock"]).screen == "activities-screen")
        try await world.device(["contact", "show", world.contacts["Per"]!])
        _ = try await world.register("Per", notes: "Offline, a day later")
        try await world.device(["contact", "show", world.contacts["Per"]!])
        let back = try await world.device(["sim", "network", "on"])
        #expect(back.screen == "contacts-contact-detail", "the user stays where they were")
        #expect(back.text("activities-sync-notice") == "1 activity synced", "the notice shows on any screen")
        #expect(back.pending == 0)
        #expect(try await world.serverActivities().count == 1)
        #expect(try await world.device(["status"]).screen == "contacts-contact-detail")
    }

    @Test(
        "pm-criterion-6-encrypted-offline: offline, encrypted contact details say they need a connection and the cached information is offered; online they show, and nothing revealed reaches the device's disk or the server's database in the clear"
    )
    func criterion6() async throws {
        let world = try await World.make()
        defer { world.stop() }
        let ingrid = world.contacts["Ingrid"]!
        try await world.device(["sim", "network", "off"])
        let offline = try await world.device(["contact", "show", ingrid, "--reveal"])
        #expect(
            offline.text("contacts-encrypted-offline")?.hasPrefix("Encrypted content requires a connection") == true)
        #expect(offline.text("contacts-cached-info")?.contains("Ingrid Solberg · Båtsfjord") == true)
        #expect(offline.all("contacts-sensitive-field").isEmpty)
        try await world.device(["sim", "network", "on"])
        let online = try await world.device(["contact", "show", ingrid, "--reveal"])
        let fields = online.all("contacts-sensitive-field").compactMap { $0["text"] as? String }
        #expect(fields == ["Address: \(Self.address)", "Phone: \(Self.phone)", "Health notes: \(Self.healthNotes)"])
        #expect(try await world.device(["status"]).all("contacts-sensitive-field").isEmpty, "the next launch has none")
        // Byte scans: the device home, and the server's database files (and its key file holds keys only).
        let secrets = [Self.address, Self.phone, Self.healthNotes, "Insulin"]
        for directory in [world.home, world.server.directory] {
            let enumerator = FileManager.default.enumerator(atPath: directory)
            var scanned = 0
            while let name = enumerator?.nextObject() as? String {
                guard let bytes = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
                scanned += 1
                for secret in secrets {
                    for encoded in [Data(secret.utf8), Data(secret.lowercased().utf8)] {
                        #expect(bytes.range(of: encoded) == nil, "\(directory)/\(name) holds \(secret)")
                    }
                }
            }
            #expect(scanned >= 3, "\(directory) was scanned")
        }
        #expect(FileManager.default.fileExists(atPath: world.server.directory + "/contact-keys"))
    }

    @Test("pm-cli-bad-input: a bad date, length or id is a usage error that says what is wrong, and nothing is queued")
    func badInput() async throws {
        let home = try CLI.temporaryDirectory() + "/device"
        let contact = UUID().uuidString.lowercased()
        for (arguments, says) in [
            (["--contact", contact, "--duration", "45", "--date", "2026-02-30"], "--date"),
            (["--contact", contact, "--duration", "0"], "--duration"),
            (["--contact", "not-an-id", "--duration", "45"], "contact"),
            (["--contact", contact, "--duration", "45", "--type", "party"], "type"),
        ] {
            let result = try await CLI.run(["device", "activity", "register", "--home", home] + arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
        // With no contacts on the device, a register is refused with a sentence, not queued.
        let refused = try await CLI.run(
            ["device", "activity", "register", "--home", home, "--json", "--contact", contact, "--duration", "45"])
        #expect(refused.status == 3, "a refusal exits 3")
        #expect(refused.stderr.hasPrefix("refused: "), "\(refused.stderr)")
        #expect(
            refused.stdout.contains("Choose one of your contacts") || refused.stdout.contains("native-shell-signin"))
        #expect(Tree(try CLI.tree(refused)).pending == 0)
    }

    @Test(
        "pm-kek-rotate-cli: admin rotate-kek adds a key in front; the restarted server reveals what the old key wrapped"
    )
    func rotateThroughTheCLI() async throws {
        let world = try await World.make()
        let keys = world.server.directory + "/contact-keys"
        world.stop()
        let rotated = try await CLI.run(["admin", "rotate-kek", "--kek-file", keys, "--id", "k2"])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "k2 k1")
        let server = try await RunningServer.start(reusing: world.server)
        defer { server.stop() }
        let token = try await server.signIn()
        let (body, status) = try await server.request(
            "POST", "/v1/contacts/\(world.contacts["Ingrid"]!)/reveal", token: token)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(Self.phone))
        let missing = try await CLI.run(["admin", "rotate-kek", "--kek-file", keys + ".missing"])
        #expect(missing.status != 0)
    }
}
