import Foundation

/// The label a badge printer holds, in points (1/72 in): the sizes door teams use.
public enum LabelSize: String, Codable, Sendable, CaseIterable {
    /// 4 × 3 in, the common thermal badge label (Zebra ZD-series, Dymo 4XL).
    case label4x3 = "4x3in"
    /// A Brother QL 62 mm roll cut at 100 mm (DK-22205).
    case label62x100 = "62x100mm"
    /// A6 card (105 × 148 mm) for badge holders, printed on any office printer.
    case a6

    public var width: Double {
        switch self {
        case .label4x3: 288
        case .label62x100: 175.75
        case .a6: 297.64
        }
    }

    public var height: Double {
        switch self {
        case .label4x3: 216
        case .label62x100: 283.46
        case .a6: 419.53
        }
    }

    /// The size as a CUPS `media` value (PWG 5101.1 custom sizes).
    public var cupsMedia: String {
        switch self {
        case .label4x3: "Custom.4x3in"
        case .label62x100: "Custom.62x100mm"
        case .a6: "Custom.105x148mm"
        }
    }

    /// As the console's form names it.
    public var title: String {
        switch self {
        case .label4x3: "4 × 3 in label"
        case .label62x100: "62 × 100 mm label"
        case .a6: "A6 card"
        }
    }
}

/// What the badge's second line says, under the name.
public enum BadgeSecondLine: String, Codable, Sendable, CaseIterable {
    case none
    case accessType = "access-type"
    /// The guest's organisation as their e-mail's domain says it ("acme.example").
    case company
    case email

    public var title: String {
        switch self {
        case .none: "Nothing"
        case .accessType: "Access type"
        case .company: "Company (the e-mail's domain)"
        case .email: "E-mail"
        }
    }
}

/// An event's badge: the label size and which fields it carries, and whether a check-in prints
/// one (set by the organizer in the console; devices pull it with the event).
/// `GET`/`PUT /v1/events/{eventId}/badge-layout`.
public struct BadgeLayout: Codable, Sendable, Hashable {
    public var label: LabelSize
    public var secondLine: BadgeSecondLine
    /// A band in the access type's colour across the top.
    public var band: Bool
    /// The ticket's QR code (a badge scanned at a session door checks in like the ticket).
    public var qr: Bool
    /// A check-in on a device with a paired printer prints the guest's badge.
    public var printOnCheckIn: Bool

    public init(
        label: LabelSize = .label4x3, secondLine: BadgeSecondLine = .accessType, band: Bool = true, qr: Bool = true,
        printOnCheckIn: Bool = false
    ) {
        self.label = label
        self.secondLine = secondLine
        self.band = band
        self.qr = qr
        self.printOnCheckIn = printOnCheckIn
    }

    /// An event's badge before the organizer set one.
    public static let standard = BadgeLayout()
}
