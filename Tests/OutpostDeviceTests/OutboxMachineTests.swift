import Foundation
import OutpostCore
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// The outbox state machine, without I/O: every event in every state, then 100,000 seeded random
/// event sequences checked against the outbox's invariants.
@Suite("Outbox state machine")
struct OutboxMachineTests {
    typealias Machine = OutboxMachine
    static let alex = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000000A")!)
    static let bea = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000000B")!)
    static let cleo = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000000C")!)
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func id(_ value: Int64) -> Machine.EntryID { Machine.EntryID(value) }

    /// The states of the table, each reached by events from a machine holding entries 1 (Alex),
    /// 2 (Bea) and 3 (Alex), signed in as Alex, online.
    enum State: String, CaseIterable {
        case idle, sending, storingAnswer, storingRefusal, backingOff, offline, signedOut, refused

        var prefix: [Machine.Event] {
            switch self {
            case .idle: []
            case .sending: [.replay(force: false)]
            case .storingAnswer: [.replay(force: false), .answered(id(1))]
            case .storingRefusal: [.replay(force: false), .refused(id(1), code: "not_found")]
            case .backingOff: [.replay(force: false), .transportFailed(id(1), reason: "timed out")]
            case .offline: [.connectivity(online: false)]
            case .signedOut: [.signedOut]
            case .refused:
                [
                    .replay(force: false), .refused(id(1), code: "not_found"), .stored(id(1)), .answered(id(3)),
                    .stored(id(3)),
                ]
            }
        }
    }

    static let events: [(String, Machine.Event)] = [
        ("added", .added(.init(id: id(4), owner: alex))),
        ("damaged", .damaged(id(1), owner: alex)),
        ("replay", .replay(force: false)),
        ("replay-forced", .replay(force: true)),
        ("timer", .timer),
        ("offline", .connectivity(online: false)),
        ("online", .connectivity(online: true)),
        ("signed-in-bea", .signedIn(bea)),
        ("signed-out", .signedOut),
        ("answered", .answered(id(1))),
        ("refused", .refused(id(1), code: "guest_not_admissible")),
        ("transport-failed", .transportFailed(id(1), reason: "HTTP 403 not from the server")),
        ("auth-failed", .authFailed(id(1))),
        ("stored", .stored(id(1))),
        ("dismissed", .dismissed(id(1))),
    ]

    /// (state, event) → the actions, as short words. Every event in every state.
    static let table: [State: [String: [String]]] = [
        .idle: [
            "added": [], "damaged": ["quarantine 1"], "replay": ["send 1"], "replay-forced": ["send 1"],
            "timer": ["send 1"], "offline": ["stop offline"], "online": ["send 1"], "signed-in-bea": [],
            "signed-out": [], "answered": [], "refused": [], "transport-failed": [], "auth-failed": [], "stored": [],
            "dismissed": [],
        ],
        .sending: [
            "added": [], "damaged": ["quarantine 1", "send 3"], "replay": [], "replay-forced": [], "timer": [],
            "offline": [], "online": [], "signed-in-bea": [], "signed-out": [], "answered": ["store-answer 1"],
            "refused": ["store-refusal 1 guest_not_admissible"], "transport-failed": ["back-off 1 #1", "wait"],
            "auth-failed": ["ask-for-sign-in"], "stored": [], "dismissed": [],
        ],
        .storingAnswer: [
            "added": [], "damaged": ["quarantine 1"], "replay": [], "replay-forced": [], "timer": [], "offline": [],
            "online": [], "signed-in-bea": [], "signed-out": [], "answered": [], "refused": [], "transport-failed": [],
            "auth-failed": [], "stored": ["send 3"], "dismissed": [],
        ],
        .storingRefusal: [
            "added": [], "damaged": ["quarantine 1"], "replay": [], "replay-forced": [], "timer": [], "offline": [],
            "online": [], "signed-in-bea": [], "signed-out": [], "answered": [], "refused": [], "transport-failed": [],
            "auth-failed": [], "stored": ["send 3"], "dismissed": [],
        ],
        .backingOff: [
            "added": [], "damaged": ["quarantine 1"], "replay": ["wait"], "replay-forced": ["send 1"],
            "timer": ["wait"], "offline": ["stop offline"], "online": ["wait"], "signed-in-bea": [], "signed-out": [],
            "answered": [], "refused": [], "transport-failed": [], "auth-failed": [], "stored": [], "dismissed": [],
        ],
        .offline: [
            "added": [], "damaged": ["quarantine 1"], "replay": ["stop offline"], "replay-forced": ["stop offline"],
            "timer": ["stop offline"], "offline": ["stop offline"], "online": ["send 1"], "signed-in-bea": [],
            "signed-out": [], "answered": [], "refused": [], "transport-failed": [], "auth-failed": [], "stored": [],
            "dismissed": [],
        ],
        .signedOut: [
            "added": [], "damaged": ["quarantine 1"], "replay": ["stop signedOut"],
            "replay-forced": ["stop signedOut"], "timer": ["stop signedOut"], "offline": ["stop offline"],
            "online": ["stop signedOut"], "signed-in-bea": [], "signed-out": [], "answered": [], "refused": [],
            "transport-failed": [], "auth-failed": [], "stored": [], "dismissed": [],
        ],
        .refused: [
            "added": [], "damaged": ["quarantine 1"], "replay": ["idle"], "replay-forced": ["idle"], "timer": ["idle"],
            "offline": ["stop offline"], "online": ["idle"], "signed-in-bea": [], "signed-out": [], "answered": [],
            "refused": [], "transport-failed": [], "auth-failed": [], "stored": [], "dismissed": ["forget 1"],
        ],
    ]

    static func machine(in state: State) -> Machine {
        var machine = Machine(user: alex, online: true, seed: 1)
        for (id, owner) in [(1, alex), (2, bea), (3, alex)] {
            _ = machine.handle(.added(.init(id: Self.id(Int64(id)), owner: owner)), now: t0)
        }
        for event in state.prefix { _ = machine.handle(event, now: t0) }
        return machine
    }

    static func words(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .send(let id): "send \(id)"
            case .storeAnswer(let id): "store-answer \(id)"
            case .storeRefusal(let id, let code): "store-refusal \(id) \(code)"
            case .backOff(let id, let attempts, _, _): "back-off \(id) #\(attempts)"
            case .quarantine(let id): "quarantine \(id)"
            case .forget(let id): "forget \(id)"
            case .wait: "wait"
            case .idle: "idle"
            case .stop(let reason): "stop \(reason.rawValue)"
            case .askForSignIn: "ask-for-sign-in"
            }
        }
    }

    @Test("outbox-machine-table: every event in every state gives the tabled actions", arguments: State.allCases)
    func table(state: State) {
        let expected = Self.table[state] ?? [:]
        #expect(Set(expected.keys) == Set(Self.events.map(\.0)), "the table covers every event in \(state)")
        for (name, event) in Self.events {
            var machine = Self.machine(in: state)
            let actions = Self.words(machine.handle(event, now: Self.t0))
            #expect(actions == expected[name], "\(state) + \(name)")
        }
    }

    /// A pass in which every entry sent is answered and its answer stored: the entries sent, in
    /// order, and the actions the pass ended with.
    static func passStoringEveryAnswer(_ machine: inout Machine) -> (sent: [Machine.EntryID], last: [Machine.Action]) {
        var sent: [Machine.EntryID] = []
        var actions = machine.handle(.replay(force: false), now: t0)
        while case .send(let id)? = actions.first {
            sent.append(id)
            _ = machine.handle(.answered(id), now: t0)
            actions = machine.handle(.stored(id), now: t0)
        }
        return (sent, actions)
    }

    @Test("a pass sends only the signed-in user's entries, oldest first, and continues after each stored answer")
    func passOrderAndOwners() {
        var machine = Self.machine(in: .idle)
        let (sent, actions) = Self.passStoringEveryAnswer(&machine)
        #expect(sent == [Self.id(1), Self.id(3)])
        #expect(Self.words(actions) == ["idle"])
        _ = machine.handle(.signedIn(Self.bea), now: Self.t0)
        #expect(Self.words(machine.handle(.replay(force: false), now: Self.t0)) == ["send 2"])
    }

    @Test("backoff grows with attempts, is capped, and a forced replay ignores it; an answer clears the entry")
    func backoff() {
        var machine = Machine(user: Self.alex, online: true, backoff: OutboxBackoff(base: 1, cap: 60), seed: 7)
        _ = machine.handle(.added(.init(id: Self.id(1), owner: Self.alex)), now: Self.t0)
        var now = Self.t0
        var delays: [TimeInterval] = []
        for _ in 0..<10 {
            #expect(Self.words(machine.handle(.replay(force: true), now: now)) == ["send 1"])
            let actions = machine.handle(.transportFailed(Self.id(1), reason: "offline"), now: now)
            guard case .backOff(_, _, let until, _) = actions.first else {
                Issue.record("no backoff: \(actions)")
                return
            }
            delays.append(until.timeIntervalSince(now))
            #expect(Self.words(machine.handle(.timer, now: now)) == ["wait"], "not due yet")
            now = until
        }
        #expect(delays.first! >= 0.5 && delays.first! <= 1)
        #expect(delays.allSatisfy { $0 <= 60 } && delays.last! >= 30)
        #expect(machine.entry(Self.id(1))?.attempts == 10)
        #expect(Self.words(machine.handle(.timer, now: now)) == ["send 1"], "due")
        _ = machine.handle(.answered(Self.id(1)), now: now)
        #expect(Self.words(machine.handle(.stored(Self.id(1)), now: now)) == ["idle"])
        #expect(machine.entries.isEmpty)
    }

    /// What the property test knows of each entry, apart from the machine.
    enum Shadow: Equatable {
        case queued, sending, storing, refusing, refused, quarantined, gone
    }

    @Test(
        "outbox-machine-property: 100,000 seeded random event sequences keep the invariants (leave only after the answer is stored, never another user's token, order per owner, refusals only from API errors)"
    )
    func property() {
        let users = [Self.alex, Self.bea, Self.cleo]
        var failures = 0
        for seed in 0..<UInt64(100_000) where failures < 5 {
            var random = SeededRandom(seed: seed &* 0x9E37_79B9 &+ 11)
            var machine = Machine(user: users[Int(random.next() % 3)], online: random.next() % 4 != 0, seed: seed)
            var signedIn: UserID? = machine.user
            var shadow: [Machine.EntryID: (owner: UserID, state: Shadow)] = [:]
            var nextId: Int64 = 1
            var now = Self.t0
            var pending: [Machine.Action] = []
            var trace: [(Machine.Event, [Machine.Action])] = []
            func fail(_ message: String) {
                failures += 1
                let steps = trace.suffix(12).map { "\($0.0) → \(Self.words($0.1))" }
                Issue.record("seed \(seed): \(message)\n\(steps.joined(separator: "\n"))")
            }
            for _ in 0..<(8 + Int(random.next() % 40)) {
                // The environment: answer what the machine asked for, or something else happens.
                let event: Machine.Event
                let roll = random.next() % 100
                if let action = pending.first, roll < 80 {
                    pending.removeFirst()
                    switch action {
                    case .send(let id):
                        switch random.next() % 10 {
                        case 0..<4: event = .answered(id)
                        case 4: event = .refused(id, code: "not_found")
                        case 5..<8: event = .transportFailed(id, reason: "HTTP 403 not from the server")
                        case 8: event = .authFailed(id)
                        default: event = .damaged(id, owner: shadow[id]!.owner)
                        }
                    case .storeAnswer(let id), .storeRefusal(let id, _):
                        event = .stored(id)
                    default:
                        continue
                    }
                } else {
                    let anyId = Self.id(Int64(1 + random.next() % UInt64(max(nextId, 2))))
                    switch random.next() % 13 {
                    case 0, 1:
                        event = .added(.init(id: Self.id(nextId), owner: users[Int(random.next() % 3)]))
                        nextId += 1
                    case 2: event = .replay(force: random.next() % 2 == 0)
                    case 3: event = .timer
                    case 4: event = .connectivity(online: random.next() % 3 != 0)
                    case 5: event = .signedIn(users[Int(random.next() % 3)])
                    case 6: event = .signedOut
                    case 7: event = .dismissed(anyId)
                    case 8: event = .answered(anyId)  // a stray or late answer
                    case 9: event = .stored(anyId)
                    case 10: event = .refused(anyId, code: "not_found")
                    case 11: event = .transportFailed(anyId, reason: "timeout")
                    default:
                        now += Double(random.next() % 120)
                        continue
                    }
                }
                let before = machine.entries.map(\.id)
                let actions = machine.handle(event, now: now)
                trace.append((event, actions))
                // The shadow follows the events the machine had to act on.
                switch event {
                case .added(let entry) where shadow[entry.id] == nil: shadow[entry.id] = (entry.owner, .queued)
                case .signedIn(let user): signedIn = user
                case .signedOut: signedIn = nil
                case .authFailed(let id) where shadow[id]?.state == .sending:
                    signedIn = nil
                    shadow[id]!.state = .queued
                case .transportFailed(let id, _) where shadow[id]?.state == .sending: shadow[id]!.state = .queued
                case .damaged(let id, _): shadow[id]?.state = .quarantined
                case .stored(let id) where shadow[id]?.state == .storing: shadow[id]!.state = .gone
                case .stored(let id) where shadow[id]?.state == .refusing: shadow[id]!.state = .refused
                case .dismissed(let id) where shadow[id]?.state == .refused: shadow[id]!.state = .gone
                default: break
                }
                for action in actions {
                    switch action {
                    case .send(let id):
                        guard let entry = shadow[id] else {
                            fail("sent unknown \(id)")
                            continue
                        }
                        if entry.owner != signedIn { fail("sent \(id) of another user") }
                        if entry.state != .queued { fail("sent \(id) in state \(entry.state)") }
                        if shadow.contains(where: {
                            $0.key < id && $0.value.owner == entry.owner
                                && [.queued, .sending].contains($0.value.state)
                        }) {
                            fail("sent \(id) before an older entry of the same owner")
                        }
                        if shadow.values.contains(where: { $0.state == .sending }) { fail("two entries in flight") }
                        shadow[id]!.state = .sending
                        pending.append(action)
                    case .storeAnswer(let id):
                        guard case .answered(id) = event, shadow[id]?.state == .sending else {
                            fail("store answer of \(id) without its answer")
                            continue
                        }
                        shadow[id]!.state = .storing
                        pending.append(action)
                    case .storeRefusal(let id, _):
                        guard case .refused(id, _) = event, shadow[id]?.state == .sending else {
                            fail("refusal of \(id) not from an API error")
                            continue
                        }
                        shadow[id]!.state = .refusing
                        pending.append(action)
                    default:
                        break
                    }
                }
                // Entries leave only after their answer is stored (or a refusal is dismissed).
                let after = Set(machine.entries.map(\.id))
                for id in before where !after.contains(id) {
                    if shadow[id]?.state != .gone {
                        fail("entry \(id) left in state \(String(describing: shadow[id]?.state))")
                    }
                }
                for (id, entry) in shadow where entry.state != .gone && !after.contains(id) {
                    fail("entry \(id) vanished in state \(entry.state)")
                }
            }
        }
        #expect(failures == 0)
    }

    @Test(
        "outbox-machine-order: entries added in any order are kept and sent oldest first, one added twice is held once, and each of 10,000 is found"
    )
    func keepsIdOrderAtSize() {
        let count: Int64 = 10_000
        var machine = Machine(user: Self.alex, online: true, seed: 1)
        // 7,919 is prime and does not divide 10,000: this visits every id once, out of order.
        for step in 0..<count {
            let id = Self.id((step * 7_919) % count + 1)
            _ = machine.handle(.added(.init(id: id, owner: Self.alex)), now: Self.t0)
            if step % 3 == 0 { _ = machine.handle(.added(.init(id: id, owner: Self.bea)), now: Self.t0) }
        }
        #expect(machine.entries.map(\.id) == (1...count).map(Self.id), "id order, each once")
        #expect(machine.entries.allSatisfy { $0.owner == Self.alex }, "a second add changes nothing")
        #expect((1...count).allSatisfy { machine.entry(Self.id($0))?.id == Self.id($0) })
        #expect(machine.entry(Self.id(0)) == nil && machine.entry(Self.id(count + 1)) == nil)
        let sent = Self.passStoringEveryAnswer(&machine).sent
        #expect(sent == (1...count).map(Self.id))
        #expect(machine.entries.isEmpty)
    }
}
