import Foundation
import OutpostCore

/// The outbox's decisions, apart from its I/O: events in, actions out, no clock, no socket, no
/// database. ``OutboxReplayer`` feeds it what the network and the store said and carries out
/// what it answers.
///
/// What a caller may rely on:
/// - An entry leaves only after its answer is stored: ``Action/storeAnswer(_:)`` comes first,
///   and the entry is gone only once ``Event/stored(_:)`` reports that it was.
/// - An entry is sent only while its owner is the signed-in user; entries of other users wait
///   and never block the signed-in user's.
/// - Per owner, entries are sent oldest first, one at a time: a newer entry is never sent while
///   an older one of the same owner is still queued.
/// - Only ``Event/refused(_:code:)`` (an API error body with a final code, decided by
///   ``ServerAnswer``) makes an entry refused; a refused entry stays until staff dismiss it.
/// - A failure ends the pass, so a forced pass cannot spin: the next pass starts with the next
///   ``Event/replay(force:)``, ``Event/timer`` or ``Event/connectivity(online:)``.
public struct OutboxMachine: Sendable {
    /// The row id of an entry in the store; newer entries have larger ids.
    public struct EntryID: Hashable, Comparable, Sendable, CustomStringConvertible {
        public var rawValue: Int64
        public init(_ rawValue: Int64) { self.rawValue = rawValue }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
        public var description: String { String(rawValue) }
    }

    /// Where an entry is in its life.
    public enum Phase: Sendable, Hashable {
        /// Waiting to be sent (perhaps not before ``Entry/notBefore``).
        case queued
        /// Sent; no answer yet.
        case sending
        /// Answered; the answer is being stored.
        case storingAnswer
        /// Refused for good; the refusal is being stored.
        case storingRefusal(code: String)
        /// Refused for good and stored: shown to staff until dismissed, never sent again.
        case refused(code: String)
        /// Cannot be read (damaged on disk): kept and counted, never sent.
        case quarantined
    }

    public struct Entry: Sendable, Hashable {
        public var id: EntryID
        public var owner: UserID
        public var attempts: Int
        public var notBefore: Date
        public var phase: Phase

        public init(
            id: EntryID, owner: UserID, attempts: Int = 0, notBefore: Date = .distantPast, phase: Phase = .queued
        ) {
            self.id = id
            self.owner = owner
            self.attempts = attempts
            self.notBefore = notBefore
            self.phase = phase
        }
    }

    public enum Event: Sendable, Hashable {
        /// An entry was written (a confirm) or loaded from the store.
        case added(Entry)
        /// The row of an entry cannot be read.
        case damaged(EntryID, owner: UserID)
        /// Replay now: `force` (the user asked) ignores backoff, otherwise due entries only.
        case replay(force: Bool)
        /// A wait the machine asked for has ended.
        case timer
        case connectivity(online: Bool)
        case signedIn(UserID)
        case signedOut
        /// The server accepted the entry (its answer is in hand).
        case answered(EntryID)
        /// The server refused the entry for good: an API error body with a final code.
        case refused(EntryID, code: String)
        /// No usable answer: no network, a timeout, a 5xx, a captive portal, a proxy, HTML.
        case transportFailed(EntryID, reason: String)
        /// The session ended under the request (the server refused the refresh token).
        case authFailed(EntryID)
        /// The answer or refusal the machine asked to store is stored.
        case stored(EntryID)
        /// Staff dismissed a refused entry.
        case dismissed(EntryID)
    }

    public enum StopReason: String, Sendable, Hashable {
        case offline
        case signedOut
    }

    public enum Action: Sendable, Hashable {
        /// Send the entry with the signed-in user's token.
        case send(EntryID)
        /// Store the answer in hand and apply it, in one transaction; then report ``Event/stored(_:)``.
        case storeAnswer(EntryID)
        /// Store the refusal (the entry stays, refused); then report ``Event/stored(_:)``.
        case storeRefusal(EntryID, code: String)
        /// Record a failed attempt and when the entry may be tried again.
        case backOff(EntryID, attempts: Int, until: Date, reason: String)
        /// Mark the entry's row as quarantined (it stays on disk).
        case quarantine(EntryID)
        /// Delete a dismissed refusal.
        case forget(EntryID)
        /// The pass is over; the first due entry is due at this time.
        case wait(until: Date)
        /// The pass is over; nothing of the signed-in user's is left to send.
        case idle
        /// The pass is over (or cannot start).
        case stop(StopReason)
        /// The pass is over: the session ended; the user must sign in again (entries stay).
        case askForSignIn
    }

    /// Every entry the store holds, oldest first.
    public private(set) var entries: [Entry] = []
    public private(set) var user: UserID?
    public private(set) var online: Bool
    /// A pass is running (an entry is in flight or being stored).
    public private(set) var passing = false
    private var passForced = false
    private var random: SeededRandom
    private let backoff: OutboxBackoff

    public init(user: UserID?, online: Bool, backoff: OutboxBackoff = OutboxBackoff(), seed: UInt64) {
        self.user = user
        self.online = online
        self.backoff = backoff
        random = SeededRandom(seed: seed)
    }

    /// The entry with `id`, if the machine holds it.
    public func entry(_ id: EntryID) -> Entry? {
        index(of: id).map { entries[$0] }
    }

    /// Feeds one event; returns what to do, in order.
    public mutating func handle(_ event: Event, now: Date) -> [Action] {
        switch event {
        case .added(let entry):
            let position = position(of: entry.id)
            guard position == entries.endIndex || entries[position].id != entry.id else { return [] }
            entries.insert(entry, at: position)
            return []
        case .damaged(let id, let owner):
            if let index = index(of: id) {
                let wasSending = entries[index].phase == .sending
                entries[index].phase = .quarantined
                return [.quarantine(id)] + (wasSending ? next(now) : [])
            }
            _ = handle(.added(Entry(id: id, owner: owner, phase: .quarantined)), now: now)
            return [.quarantine(id)]
        case .replay(let force):
            return startPass(force: force, now: now)
        case .timer:
            return startPass(force: false, now: now)
        case .connectivity(let online):
            self.online = online
            if online { return startPass(force: false, now: now) }
            return passing ? [] : [.stop(.offline)]
        case .signedIn(let user):
            self.user = user
            return []
        case .signedOut:
            user = nil
            return []
        case .answered(let id):
            guard let index = index(of: id), entries[index].phase == .sending else { return [] }
            entries[index].phase = .storingAnswer
            return [.storeAnswer(id)]
        case .refused(let id, let code):
            guard let index = index(of: id), entries[index].phase == .sending else { return [] }
            entries[index].phase = .storingRefusal(code: code)
            return [.storeRefusal(id, code: code)]
        case .transportFailed(let id, let reason):
            guard let index = index(of: id), entries[index].phase == .sending else { return [] }
            entries[index].attempts += 1
            let jitter = Double(random.next() >> 11) / Double(UInt64(1) << 53)
            let until =
                now
                + backoff.delay(afterAttempts: entries[index].attempts) { range in
                    range.lowerBound + jitter * (range.upperBound - range.lowerBound)
                }
            entries[index].notBefore = until
            entries[index].phase = .queued
            passing = false
            return [.backOff(id, attempts: entries[index].attempts, until: until, reason: reason), .wait(until: until)]
        case .authFailed(let id):
            guard let index = index(of: id), entries[index].phase == .sending else { return [] }
            entries[index].phase = .queued
            user = nil
            passing = false
            return [.askForSignIn]
        case .stored(let id):
            guard let index = index(of: id) else { return [] }
            switch entries[index].phase {
            case .storingAnswer:
                entries.remove(at: index)
            case .storingRefusal(let code):
                entries[index].attempts += 1
                entries[index].phase = .refused(code: code)
            default:
                return []
            }
            return next(now)
        case .dismissed(let id):
            guard let index = index(of: id), case .refused = entries[index].phase else { return [] }
            entries.remove(at: index)
            return [.forget(id)]
        }
    }

    private func index(of id: EntryID) -> Int? {
        let position = position(of: id)
        return position < entries.endIndex && entries[position].id == id ? position : nil
    }

    /// Where `id` is or would go in `entries`, which are kept in id order: a binary search (a
    /// linear one, three times per entry, made a drain of 10,000 quadratic).
    private func position(of id: EntryID) -> Int {
        var low = entries.startIndex
        var high = entries.endIndex
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private mutating func startPass(force: Bool, now: Date) -> [Action] {
        guard !passing else {
            passForced = passForced || force
            return []
        }
        passing = true
        passForced = force
        return next(now)
    }

    /// The next step of a running pass: send the signed-in user's oldest queued entry, or end.
    private mutating func next(_ now: Date) -> [Action] {
        guard online else {
            passing = false
            return [.stop(.offline)]
        }
        guard let user else {
            passing = false
            return [.stop(.signedOut)]
        }
        guard let index = entries.firstIndex(where: { $0.owner == user && $0.phase == .queued }) else {
            passing = false
            return [.idle]
        }
        if !passForced, entries[index].notBefore > now {
            passing = false
            return [.wait(until: entries[index].notBefore)]
        }
        entries[index].phase = .sending
        return [.send(entries[index].id)]
    }
}
