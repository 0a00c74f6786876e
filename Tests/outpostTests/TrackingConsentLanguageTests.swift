import Foundation
import Testing

/// The consent comes from the server (a second phone shows what the first
/// accepted, and a new version accepted on one reaches the other), and in German the privacy
/// screen, the server's refusal of a day, the default absence name and the CSV's day names are
/// German too. Real processes and a real server.
@Suite("Time tracking: consent from the server, and German")
struct TrackingConsentLanguageTests {
    @Test(
        "track-consent-and-language: a second phone shows the consent the first accepted, with its date; a new version accepted on one reaches the other; in German the privacy screen, a refused day, the absence name and the CSV's day are German"
    )
    func consentAndLanguage() async throws {
        let server = try await RunningServer.start()
        defer { server.stop() }
        let (first, location) = try await DeviceHome.worker(on: server)
        let none = try await first(["privacy", "show"])
        #expect(none.text("native-shell-privacy-consent") == "No consent recorded")
        let accepted = try await first(["privacy", "consent", "--accept", "2026-01"])
        #expect(
            accepted.text("native-shell-privacy-consent")?.hasPrefix(
                "Terms of Service and Privacy Policy accepted (version 2026-01, on ") == true, "\(accepted.elements)")
        // A second phone of the same worker: the consent and its date come from the server.
        let second = DeviceHome(try CLI.temporaryDirectory() + "/second")
        try await second([
            "signin", "--server", "http://127.0.0.1:\(server.port)", "--email", "wanda@acme.test", "--password",
            "worker-password",
        ])
        let shown = try await second(["privacy", "show"])
        #expect(shown.text("native-shell-privacy-consent") == accepted.text("native-shell-privacy-consent"))
        #expect(shown.attribute("native-shell-privacy-consent", "acceptedAt") != nil)
        // A new version, accepted on the second phone, reaches the first at its next sync.
        let newer = try await second(["privacy", "consent", "--accept", "2026-07"])
        #expect(newer.text("native-shell-privacy-message")?.hasPrefix("Version 2026-07 of the terms accepted") == true)
        try await first(["sync"])
        #expect(try await first(["privacy", "show"]).attribute("native-shell-privacy-consent", "version") == "2026-07")
        // Offline, accepting is refused and changes nothing.
        try await second(["sim", "network", "off"])
        let offline = try await second(["privacy", "consent", "--accept", "2027-01"], refused: true)
        #expect(offline.refusal?.hasPrefix("Accepting the terms needs a connection") == true)
        #expect(offline.attribute("native-shell-privacy-consent", "version") == "2026-07")
        try await second(["sim", "network", "on"])
        // The second phone submits 2 November first.
        let place = try await #require(
            try second([
                "track", "location", "add", "--name", "Haus Linde", "--latitude", "52.53", "--longitude", "13.41",
            ]).attribute("track-location-row", "locationId"))
        try await second([
            "track", "session", "add", "--location", place, "--from", "2026-11-02T08:00:00Z", "--to",
            "2026-11-02T12:00:00Z",
        ])
        try await second(["track", "confirm", "2026-11-02"])
        try await second(["track", "confirm", "--continue"])
        // The first phone speaks German.
        try await first(["sim", "locale", "de"])
        let privacy = try await first(["privacy", "show"])
        #expect(
            privacy.text("native-shell-privacy-consent")?.hasPrefix(
                "Nutzungsbedingungen und Datenschutzerklärung akzeptiert (Version 2026-07, am ") == true,
            "\(privacy.elements)")
        #expect(privacy.text("native-shell-privacy-export") == "Meine Daten exportieren")
        // Its own 2 November is refused by the server: in German.
        try await first([
            "track", "session", "add", "--location", location, "--from", "2026-11-02T13:00:00Z", "--to",
            "2026-11-02T17:00:00Z",
        ])
        try await first(["track", "confirm", "2026-11-02"])
        let refused = try await first(["track", "confirm", "--continue"])
        let answer = try #require(refused.text("track-day-answer"), "\(refused.elements)")
        #expect(answer.hasPrefix("Dieser Tag wurde schon eingereicht"), "\(answer)")
        // The CSV's day names, and an absence's default name.
        let csv = try await CLI.run(["device", "track", "export", "--home", first.path])
        #expect(csv.status == 0 && csv.stdout.contains("2026-11-02,Montag,"), "\(csv.stdout)")
        let week = try await first(["track", "absence", "add", "2026-11-04", "--kind", "vacation"])
        let absence = try #require(week.text("calendar-absence"), "\(week.elements)")
        #expect(absence.hasPrefix("Urlaub · Urlaub"), "\(absence)")
    }
}
