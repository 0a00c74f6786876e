import Foundation
import OutpostCore

/// `POST /v1/events/{eventId}/checkins`.
public struct CheckInRequest: Codable, Sendable, Hashable {
    public var guestId: GuestID
    public var deviceId: String
    /// The device clock when the guest was scanned (kept as `clientAt`).
    public var scannedAt: Date
    public var method: CheckInMethod
    public var ticket: String?
    public var reconfirm: Bool?
    public var note: String?

    public init(
        guestId: GuestID, deviceId: String, scannedAt: Date, method: CheckInMethod, ticket: String? = nil,
        reconfirm: Bool? = nil, note: String? = nil
    ) {
        self.guestId = guestId
        self.deviceId = deviceId
        self.scannedAt = scannedAt
        self.method = method
        self.ticket = ticket
        self.reconfirm = reconfirm
        self.note = note
    }
}

extension CheckInRequest {
    /// The Idempotency-Key this request is sent with: its device, guest and scan time. The device
    /// fixes it when it queues the request; the server accepts only this key for this body.
    public var idempotencyKey: IdempotencyKey {
        IdempotencyKey(deviceId: deviceId, guestId: guestId.uuid, scannedAtMillis: scannedAt.millisecondsSince1970)
    }
}

/// A check-in row.
public struct CheckInRecord: Codable, Sendable, Hashable {
    public var id: CheckInID
    public var guestId: GuestID
    /// Server time when the check-in was first accepted; what the UI shows.
    public var at: Date
    /// The device's `scannedAt`.
    public var clientAt: Date
    public var byName: String
    public var deviceId: String

    public init(id: CheckInID, guestId: GuestID, at: Date, clientAt: Date, byName: String, deviceId: String) {
        self.id = id
        self.guestId = guestId
        self.at = at
        self.clientAt = clientAt
        self.byName = byName
        self.deviceId = deviceId
    }
}

/// The `result` of an accepted check-in request.
public enum CheckInResult: String, Codable, Sendable, CaseIterable {
    case checkedIn = "checked_in"
    case alreadyCheckedIn = "already_checked_in"
    case reconfirmed
}

/// The 200/201 answer of a check-in.
public struct CheckInResponse: Codable, Sendable, Hashable {
    public var result: CheckInResult
    public var checkIn: CheckInRecord

    public init(result: CheckInResult, checkIn: CheckInRecord) {
        self.result = result
        self.checkIn = checkIn
    }
}
