import Foundation
import OutpostCore

/// One of a booth's own qualification questions ("Budget this year?"), under a short key.
public struct BoothQuestion: Codable, Sendable, Hashable {
    public static let maxTextLength = 200

    public var key: String
    public var text: String

    public init(key: String, text: String) {
        self.key = key
        self.text = text
    }
}

/// An exhibitor's booth at an event: its name, its questions, and the exhibitor users on it.
public struct Booth: Codable, Sendable, Hashable {
    public static let maxNameLength = 80
    public static let maxQuestions = 10

    public var id: BoothID
    public var name: String
    public var questions: [BoothQuestion]
    public var exhibitors: [UserID]

    public init(id: BoothID, name: String, questions: [BoothQuestion] = [], exhibitors: [UserID] = []) {
        self.id = id
        self.name = name
        self.questions = questions
        self.exhibitors = exhibitors
    }
}

/// `GET` and `PUT /v1/events/{eventId}/booths` (organizer): the event's booths. A `PUT` replaces
/// them all (a booth with leads cannot be dropped).
public struct BoothList: Codable, Sendable, Hashable {
    public static let maxBooths = 500

    public var booths: [Booth]

    public init(booths: [Booth]) { self.booths = booths }
}

/// A booth the signed-in exhibitor is on, with its event and the event's ticket keys (an
/// exhibitor's device verifies a scanned ticket offline, as the door does, without the roster).
public struct MyBooth: Codable, Sendable, Hashable {
    public var booth: Booth
    public var event: EventInfo
    public var keys: [RosterKey]

    public init(booth: Booth, event: EventInfo, keys: [RosterKey]) {
        self.booth = booth
        self.event = event
        self.keys = keys
    }
}

/// `GET /v1/me/booths` (an exhibitor): the booths they are on.
public struct MyBooths: Codable, Sendable, Hashable {
    public var booths: [MyBooth]

    public init(booths: [MyBooth]) { self.booths = booths }
}

/// What an exhibitor's device captured: whose ticket (its guest id, read from the signed
/// ticket), when, on which device, a rating (0 none, 1 to 5), notes, and the answers to the
/// booth's questions by key.
public struct LeadContent: Codable, Sendable, Hashable {
    public static let maxNotesLength = 2_000
    public static let maxAnswerLength = 500

    public var guestId: GuestID
    public var capturedAt: Date
    public var deviceId: String
    public var rating: Int
    public var notes: String
    public var answers: [String: String]

    public init(
        guestId: GuestID, capturedAt: Date, deviceId: String, rating: Int = 0, notes: String = "",
        answers: [String: String] = [:]
    ) {
        self.guestId = guestId
        self.capturedAt = capturedAt
        self.deviceId = deviceId
        self.rating = rating
        self.notes = notes
        self.answers = answers
    }
}

/// `PUT /v1/booths/{boothId}/leads/{leadId}`: a lead's content over the version the device
/// last had (0: a new lead). A stale base is a conflict (409 with the current lead); the same
/// write sent again is answered as stored.
public struct LeadWrite: Codable, Sendable, Hashable {
    public var content: LeadContent
    public var baseVersion: Int

    public init(content: LeadContent, baseVersion: Int) {
        self.content = content
        self.baseVersion = baseVersion
    }
}

/// The contact details an attendee shares with exhibitors.
public struct SharedContact: Codable, Sendable, Hashable {
    public var name: String
    public var email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

/// A lead as the booth sees it: its content and version, who captured it, and the attendee's
/// contact details only while they share them (otherwise the lead carries the ticket's opaque
/// guest id alone, which the organizer can resolve if the attendee agrees later).
public struct Lead: Codable, Sendable, Hashable {
    public var id: LeadID
    public var boothId: BoothID
    public var version: Int
    public var content: LeadContent
    public var capturedBy: String
    public var updatedAt: Date
    public var contact: SharedContact?

    public init(
        id: LeadID, boothId: BoothID, version: Int, content: LeadContent, capturedBy: String, updatedAt: Date,
        contact: SharedContact?
    ) {
        self.id = id
        self.boothId = boothId
        self.version = version
        self.content = content
        self.capturedBy = capturedBy
        self.updatedAt = updatedAt
        self.contact = contact
    }
}

/// `GET /v1/booths/{boothId}/leads`: the booth's leads, newest capture first.
public struct LeadList: Codable, Sendable, Hashable {
    public var leads: [Lead]

    public init(leads: [Lead]) { self.leads = leads }
}

/// A 409 to a lead write: the lead as the server has it now.
public struct LeadConflict: Codable, Sendable, Hashable {
    public var error: String
    public var message: String
    public var current: Lead

    public init(message: String, current: Lead) {
        error = APIErrorCode.versionConflict.rawValue
        self.message = message
        self.current = current
    }
}

/// `PUT /v1/events/{eventId}/guests/{guestId}/contact-consent` (organizer): whether the guest
/// shares their contact details with the exhibitors whose booths scan them (set at
/// registration; changed when the attendee says so). Leads show the details while it holds.
public struct ContactConsent: Codable, Sendable, Hashable {
    public var sharesContact: Bool

    public init(sharesContact: Bool) { self.sharesContact = sharesContact }
}
