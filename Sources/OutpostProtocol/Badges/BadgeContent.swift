import Foundation
import OutpostCore

/// One guest's badge as the layout words it: what a printer port draws (cairo to PDF on Linux;
/// a label printer's own language on a phone). Pure.
public struct BadgeContent: Codable, Sendable, Hashable {
    public var layout: BadgeLayout
    public var name: String
    /// Empty when the layout has none (or the guest has nothing for it).
    public var secondLine: String
    public var accessType: String
    /// The band's colour, 0xRRGGBB: the access type's (``BadgeContent/colour(ofAccessType:)``).
    public var colour: UInt32
    /// The signed ticket the QR code carries (nil: no QR).
    public var ticket: String?

    public init(
        layout: BadgeLayout, name: String, secondLine: String, accessType: String, colour: UInt32, ticket: String?
    ) {
        self.layout = layout
        self.name = name
        self.secondLine = secondLine
        self.accessType = accessType
        self.colour = colour
        self.ticket = ticket
    }

    /// `guest`'s badge under `layout`: the second line the layout asks for, the access type's
    /// colour, the ticket's QR when the layout has one.
    public static func of(
        name: String, email: String, accessTypeId: AccessTypeID, accessType: String, ticket: String?,
        layout: BadgeLayout
    ) -> BadgeContent {
        let second: String =
            switch layout.secondLine {
            case .none: ""
            case .accessType: accessType
            case .email: email
            case .company: company(ofEmail: email)
            }
        return BadgeContent(
            layout: layout, name: name, secondLine: second, accessType: accessType,
            colour: colour(ofAccessType: accessTypeId), ticket: layout.qr ? ticket : nil)
    }

    /// The organisation an e-mail's domain names: "ana@mail.acme.example" is "acme.example";
    /// a free-mail domain says nothing of a company (empty).
    public static func company(ofEmail email: String) -> String {
        guard let at = email.lastIndex(of: "@") else { return "" }
        let domain = email[email.index(after: at)...].lowercased()
        let freeMail: Set<String> = [
            "gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "yahoo.com", "icloud.com",
            "me.com", "gmx.de", "gmx.net", "web.de", "proton.me", "protonmail.com", "aol.com",
        ]
        guard !freeMail.contains(domain) else { return "" }
        let labels = domain.split(separator: ".")
        return labels.suffix(2).joined(separator: ".")
    }

    /// Eight colours a door tells apart at a glance (and in grey on a thermal printer).
    public static let palette: [UInt32] = [
        0x0F766E, 0x1D4ED8, 0xB91C1C, 0x7C3AED, 0xC2410C, 0x15803D, 0xBE185D, 0x334155,
    ]

    /// The access type's colour: the same on every device and in the console's preview.
    public static func colour(ofAccessType id: AccessTypeID) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in id.wire.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return palette[Int(hash % UInt32(palette.count))]
    }
}
