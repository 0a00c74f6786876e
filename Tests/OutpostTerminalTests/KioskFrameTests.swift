import Foundation
import OutpostDevice
import OutpostProtocol
import Testing

@testable import OutpostTerminal

@Suite("Kiosk frame")
struct KioskFrameTests {
    /// The welcome screen as the kiosk module builds it, with "ada@" half typed.
    static func welcome(_ orientation: KioskOrientation) -> ShownScreen {
        var kiosk = KioskState()
        kiosk.active = true
        kiosk.orientation = orientation
        let screen = KioskScreen(
            kiosk: kiosk, now: Date(timeIntervalSince1970: 1_795_075_200), lockRemaining: 0, draft: "ada@",
            cameraDenied: false, battery: 100)
        return ShownScreen(screen, in: ShellFrame(online: true, pending: 0))
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
            let portrait = Self.plain(KioskLoop.frame(Self.welcome(.portrait), size: size))
            let landscape = Self.plain(KioskLoop.frame(Self.welcome(.landscape), size: size))
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
