import Foundation
import OutpostCore

/// How a walk-in paid at the door: recorded only, never charged through a provider.
public enum PaymentMethod: String, Codable, Sendable, CaseIterable {
    case cash
    case card
}

/// What a walk-in paid: an amount in the currency's minor unit (cents) and how.
public struct WalkInPayment: Codable, Sendable, Hashable {
    public var amountMinor: Int
    /// ISO 4217: three upper-case letters.
    public var currency: String
    public var method: PaymentMethod

    public init(amountMinor: Int, currency: String, method: PaymentMethod) {
        self.amountMinor = amountMinor
        self.currency = currency
        self.method = method
    }

    /// True when the amount is not negative and the currency is three upper-case ASCII letters.
    public var isWellFormed: Bool {
        amountMinor >= 0 && amountMinor <= 100_000_000 && currency.utf8.count == 3
            && currency.utf8.allSatisfy { (65...90).contains($0) }
    }
}

/// The place of a lease a walk-in took: the lease and its slot number (1 ... granted).
public struct WalkInSlot: Codable, Sendable, Hashable {
    public var leaseId: WalkInLeaseID
    public var slot: Int

    public init(leaseId: WalkInLeaseID, slot: Int) {
        self.leaseId = leaseId
        self.slot = slot
    }
}

/// `POST /v1/events/{eventId}/walkins`: a guest added at the door and checked in in one step.
/// The device makes the guest's id; the Idempotency-Key is `deviceId:guestId:addedAtMillis`.
public struct WalkInRequest: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var deviceId: String
    public var accessTypeId: AccessTypeID
    public var name: String
    public var email: String?
    public var payment: WalkInPayment?
    /// The device clock when staff added the guest.
    public var addedAt: Date
    /// The leased place this walk-in took; nil for an access type without a walk-in capacity.
    public var slot: WalkInSlot?

    public init(
        guestId: GuestID, deviceId: String, accessTypeId: AccessTypeID, name: String, email: String?,
        payment: WalkInPayment?, addedAt: Date, slot: WalkInSlot?
    ) {
        self.guestId = guestId
        self.deviceId = deviceId
        self.accessTypeId = accessTypeId
        self.name = name
        self.email = email
        self.payment = payment
        self.addedAt = addedAt
        self.slot = slot
    }

    /// The Idempotency-Key this request is sent with (fixed when the device queues it).
    public var idempotencyKey: IdempotencyKey {
        IdempotencyKey(deviceId: deviceId, guestId: guestId.uuid, scannedAtMillis: addedAt.millisecondsSince1970)
    }

    /// The longest name and e-mail a walk-in may have (as a guest created by an organizer).
    public static let maxTextLength = 200
}

/// A walk-in as the server keeps it: who was added, by whom, on which device, what they paid,
/// and what the organizer should look at.
public struct WalkInRecord: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var accessTypeId: AccessTypeID
    public var name: String
    public var email: String
    /// The new guest's confirmation code (their ticket can be sent later like anyone's).
    public var code: String
    public var payment: WalkInPayment?
    /// The device's time of adding.
    public var addedAt: Date
    /// The server's time of receiving.
    public var at: Date
    public var byName: String
    public var deviceId: String
    public var slot: WalkInSlot?
    /// Another guest of the event this one may be (the same e-mail, or the same name added
    /// within minutes): both are kept, never merged; the organizer decides.
    public var possibleDuplicateOf: GuestID?
    /// Admitted beyond the access type's capacity (no valid leased place): kept and flagged.
    public var overCapacity: Bool

    public init(
        guestId: GuestID, accessTypeId: AccessTypeID, name: String, email: String, code: String,
        payment: WalkInPayment?, addedAt: Date, at: Date, byName: String, deviceId: String, slot: WalkInSlot?,
        possibleDuplicateOf: GuestID?, overCapacity: Bool
    ) {
        self.guestId = guestId
        self.accessTypeId = accessTypeId
        self.name = name
        self.email = email
        self.code = code
        self.payment = payment
        self.addedAt = addedAt
        self.at = at
        self.byName = byName
        self.deviceId = deviceId
        self.slot = slot
        self.possibleDuplicateOf = possibleDuplicateOf
        self.overCapacity = overCapacity
    }
}

/// The 201 answer of a walk-in (200 when it was sent again): the walk-in and its check-in.
public struct WalkInResponse: Codable, Sendable, Hashable {
    public var walkIn: WalkInRecord
    public var checkIn: CheckInRecord

    public init(walkIn: WalkInRecord, checkIn: CheckInRecord) {
        self.walkIn = walkIn
        self.checkIn = checkIn
    }
}

/// `GET /v1/events/{eventId}/walkins`: the event's walk-ins, newest first.
public struct WalkInList: Codable, Sendable, Hashable {
    public var walkIns: [WalkInRecord]

    public init(walkIns: [WalkInRecord]) { self.walkIns = walkIns }
}

/// `POST /v1/events/{eventId}/walkin-leases`: a device asks for places of one access type.
public struct WalkInLeaseRequest: Codable, Sendable, Hashable {
    public var deviceId: String
    public var accessTypeId: AccessTypeID

    public init(deviceId: String, accessTypeId: AccessTypeID) {
        self.deviceId = deviceId
        self.accessTypeId = accessTypeId
    }
}

/// A block of walk-in places leased to one device: it admits offline only through these.
public struct WalkInLease: Codable, Sendable, Hashable {
    public var id: WalkInLeaseID
    public var accessTypeId: AccessTypeID
    public var deviceId: String
    /// Places 1 ... granted.
    public var granted: Int
    /// After this the device takes no place of the lease and seals it.
    public var expiresAt: Date
    /// Server time of the grant (the device measures its clock's offset with it).
    public var grantedAt: Date
    /// How many places the device used, once it sealed the lease; nil while open.
    public var used: Int?

    public init(
        id: WalkInLeaseID, accessTypeId: AccessTypeID, deviceId: String, granted: Int, expiresAt: Date,
        grantedAt: Date, used: Int?
    ) {
        self.id = id
        self.accessTypeId = accessTypeId
        self.deviceId = deviceId
        self.granted = granted
        self.expiresAt = expiresAt
        self.grantedAt = grantedAt
        self.used = used
    }
}

/// `POST /v1/events/{eventId}/walkin-leases/{leaseId}/seal`: the device took `used` places of
/// the lease and takes no more; the server frees the rest.
public struct WalkInSealRequest: Codable, Sendable, Hashable {
    public var used: Int

    public init(used: Int) { self.used = used }
}

/// An access type's walk-in places as the server counts them.
public struct WalkInCapacity: Codable, Sendable, Hashable {
    public var accessTypeId: AccessTypeID
    public var name: String
    /// Nil: no limit.
    public var capacity: Int?
    /// Places leased to devices (open leases whole, sealed ones as used).
    public var reserved: Int
    /// Walk-ins the server has received.
    public var admitted: Int
    /// Of those, admitted without a valid leased place.
    public var overCapacity: Int
    /// Open leases (devices that may still admit offline).
    public var openLeases: Int

    public init(
        accessTypeId: AccessTypeID, name: String, capacity: Int?, reserved: Int, admitted: Int, overCapacity: Int,
        openLeases: Int
    ) {
        self.accessTypeId = accessTypeId
        self.name = name
        self.capacity = capacity
        self.reserved = reserved
        self.admitted = admitted
        self.overCapacity = overCapacity
        self.openLeases = openLeases
    }
}

/// One device's walk-ins for its end-of-shift summary: how many, and the amounts by method.
public struct WalkInShift: Codable, Sendable, Hashable {
    public var deviceId: String
    public var walkIns: Int
    public var totals: [WalkInTotal]

    public init(deviceId: String, walkIns: Int, totals: [WalkInTotal]) {
        self.deviceId = deviceId
        self.walkIns = walkIns
        self.totals = totals
    }
}

/// The walk-ins of one payment method and currency ("not paid" has no method).
public struct WalkInTotal: Codable, Sendable, Hashable {
    public var method: PaymentMethod?
    public var currency: String?
    public var count: Int
    public var amountMinor: Int

    public init(method: PaymentMethod?, currency: String?, count: Int, amountMinor: Int) {
        self.method = method
        self.currency = currency
        self.count = count
        self.amountMinor = amountMinor
    }
}

/// `GET /v1/events/{eventId}/walkins/summary`: per device, and the capacity per access type.
public struct WalkInSummary: Codable, Sendable, Hashable {
    public var devices: [WalkInShift]
    public var capacities: [WalkInCapacity]

    public init(devices: [WalkInShift], capacities: [WalkInCapacity]) {
        self.devices = devices
        self.capacities = capacities
    }
}

extension WalkInShift {
    /// The shifts of `walkIns`, one per device (sorted by device id), totals by method and
    /// currency ("not paid" first): the one summing rule of the device's screen, its CSV and
    /// the server's.
    public static func of(_ walkIns: [(deviceId: String, payment: WalkInPayment?)]) -> [WalkInShift] {
        Dictionary(grouping: walkIns, by: \.deviceId).sorted { $0.key < $1.key }.map { device, rows in
            WalkInShift(deviceId: device, walkIns: rows.count, totals: WalkInTotal.of(rows.map(\.payment)))
        }
    }
}

extension WalkInTotal {
    /// Totals of `payments` by method and currency, "not paid" first, then cash, then card.
    public static func of(_ payments: [WalkInPayment?]) -> [WalkInTotal] {
        struct Key: Hashable {
            var method: PaymentMethod?
            var currency: String?
        }
        var totals: [Key: WalkInTotal] = [:]
        for payment in payments {
            let key = Key(method: payment?.method, currency: payment?.currency)
            var total = totals[key] ?? WalkInTotal(method: key.method, currency: key.currency, count: 0, amountMinor: 0)
            total.count += 1
            total.amountMinor += payment?.amountMinor ?? 0
            totals[key] = total
        }
        let order: [PaymentMethod?] = [nil, .cash, .card]
        return totals.values.sorted {
            let left = order.firstIndex(of: $0.method) ?? 0
            let right = order.firstIndex(of: $1.method) ?? 0
            return left != right ? left < right : ($0.currency ?? "") < ($1.currency ?? "")
        }
    }
}

extension WalkInSummary {
    /// The end-of-shift summary as CSV, one row per device, method and currency: the same file
    /// on the device and in the console.
    public static func csv(_ shifts: [WalkInShift]) -> String {
        CSVWriter.document(
            header: ["device", "walk_ins", "method", "currency", "count", "amount"],
            rows: shifts.flatMap { shift in
                shift.totals.map { total in
                    [
                        shift.deviceId, String(shift.walkIns), total.method?.rawValue ?? "not paid",
                        total.currency ?? "", String(total.count),
                        total.currency == nil ? "" : WalkInPayment.decimal(total.amountMinor),
                    ]
                }
            })
    }
}

extension WalkInPayment {
    /// An amount in minor units as a decimal with two places ("12.50").
    public static func decimal(_ minor: Int) -> String {
        "\(minor / 100).\(String(format: "%02d", minor % 100))"
    }

    /// A typed amount ("12", "12.5", "12,50") in minor units; nil when it is not one.
    public static func minor(parsing text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), whole >= 0, whole <= 1_000_000,
            parts[0].allSatisfy(\.isASCII)
        else { return nil }
        guard parts.count == 2 else { return whole * 100 }
        let fraction = parts[1]
        guard (1...2).contains(fraction.count), fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
            let cents = Int(fraction)
        else { return nil }
        return whole * 100 + (fraction.count == 1 ? cents * 10 : cents)
    }
}
