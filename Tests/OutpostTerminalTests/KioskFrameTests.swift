import OutpostDevice
import Testing

@testable import OutpostTerminal

@Suite("Kiosk frame")
struct KioskFrameTests {
    static func welcome(_ orientation: String) -> UITree {
        UITree(
            screen: UIIdentifier.kioskWelcomeScreen,
            elements: [
                UIElement(
                    UIIdentifier.kioskWelcomeScreen, "Welcome — please scan your QR or enter your email",
                    ["orientation": orientation]),
                UIElement(UIIdentifier.kioskCamera, "Hold your ticket up to the camera"),
                UIElement(UIIdentifier.kioskEmailInput, "ada@", ["placeholder": "Your e-mail"]),
            ],
            online: true, pending: 0, user: nil, event: nil)
    }

    /// The frame without ANSI styling.
    static func plain(_ lines: [String]) -> [String] {
        lines.map { line in
            var text = ""
            var escape = false
            for character in line {
                if character == "\u{1B}" {
                    escape = true
                } else if escape {
                    if character.isLetter { escape = false }
                } else {
                    text.append(character)
                }
            }
            return text
        }
    }

    @Test(
        "orientation-locked: the kiosk keeps the orientation set-up chose: portrait is a centred 44-column band, landscape uses the whole width, on a 100x30 and a 60x40 terminal"
    )
    func orientationLocked() {
        for size in [(rows: 30, columns: 100), (rows: 40, columns: 60)] {
            let portrait = Self.plain(KioskLoop.frame(Self.welcome("portrait"), size: size))
            let landscape = Self.plain(KioskLoop.frame(Self.welcome("landscape"), size: size))
            #expect(portrait.count == size.rows && landscape.count == size.rows)
            let band = min(size.columns, 44)
            let margin = (size.columns - band) / 2
            for line in portrait where !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let indent = line.prefix { $0 == " " }.count
                #expect(indent >= margin && line.count <= margin + band, "portrait line outside the band: '\(line)'")
            }
            let sentence = "Welcome — please scan your QR or enter your email"
            #expect(!portrait.contains { $0.contains(sentence) }, "portrait wraps the welcome")
            #expect(landscape.contains { $0.contains(sentence) } == (size.columns - 4 >= sentence.count))
            #expect(portrait.contains { $0.contains("E-mail or ticket: ada@█") })
            #expect(
                !portrait.contains { $0.trimmingCharacters(in: .whitespaces) == "ada@" }, "the field is the input line")
        }
    }
}
