import Foundation

/// `POST /v1/events/{eventId}/mesh/entries`: a door gives the server the signed entries it holds
/// that the server lacks, its own and its peers' (custody: a door that admitted guests offline
/// and never came back still has its admissions reach the server through any door that heard
/// them). The server checks each entry's signature against the certificate it issued its author
/// and applies it as the author's check-in, under the author's own Idempotency-Key, so the
/// author's later request is answered as a retry of it. An empty list asks only for ``MeshUploadAnswer/vector``.
public struct MeshUpload: Codable, Sendable, Equatable {
    /// The most entries one request carries.
    public static let maximumEntries = 256
    /// The most peers one report names.
    public static let maximumPeers = 64

    /// The door handing them in (its device id, as its certificate names it).
    public var device: String
    /// ``MeshEntry/encoded``, base64, in the author's order.
    public var entries: [String]
    /// How many entries of the event this door holds (its own and its peers').
    public var held: Int
    /// The doors (device ids) this door has exchanged entries with at the event.
    public var peers: [String]

    public init(device: String, entries: [String], held: Int, peers: [String]) {
        self.device = device
        self.entries = entries
        self.held = held
        self.peers = peers
    }
}

/// The server's answer: what became of each entry, in the request's order, and what it now
/// holds of each author (the door then sends only what lies beyond).
public struct MeshUploadAnswer: Codable, Sendable, Equatable {
    public var results: [MeshUploadResult]
    /// Per author, the highest sequence number up to which the server has every entry.
    public var vector: [String: UInt64]

    public init(results: [MeshUploadResult], vector: [String: UInt64]) {
        self.results = results
        self.vector = vector
    }
}

/// What became of one uploaded entry.
public struct MeshUploadResult: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// New to the server: kept, and applied as the author's check-in (the guest checked in,
        /// or found already checked in and flagged as today).
        case applied
        /// The server had it already.
        case held
        /// Not kept: ``reason`` says why.
        case refused
    }

    /// Why an entry was refused.
    public enum Reason: String, Codable, Sendable {
        /// Not an entry (bad base64, bad encoding).
        case malformed
        /// An entry of another event.
        case otherEvent = "other_event"
        /// No certificate the server issued for the event names its author with a key that
        /// signed it (forged, or changed on the way).
        case unsigned
        /// Made after its author's certificate was revoked, or after it expired.
        case revoked
        /// Another entry under the same author and number (a restored backup, a rogue device).
        case fork
        /// The author's user may no longer work the event (removed from its staff).
        case authorNotAllowed = "author_not_allowed"
    }

    public var author: String?
    public var seq: UInt64?
    public var outcome: Outcome
    public var reason: Reason?

    public init(author: String?, seq: UInt64?, outcome: Outcome, reason: Reason? = nil) {
        self.author = author
        self.seq = seq
        self.outcome = outcome
        self.reason = reason
    }
}
