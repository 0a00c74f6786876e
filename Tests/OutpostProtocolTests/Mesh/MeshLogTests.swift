import Foundation
import OutpostCore
import OutpostProtocol
import Testing

@Suite("Mesh log")
struct MeshLogTests {
    /// Entries from four doors over twelve guests, some guests admitted at several doors, and
    /// one fork (door 4 signs two different entries under its number 3, as a restored backup
    /// would).
    static func history(seed: UInt64) throws -> [MeshEntry] {
        var random = SeededRandom(seed: seed)
        var fixture = try MeshFixture(doors: 4)
        let guests = (0..<12).map { _ in GuestID.random() }
        var entries: [MeshEntry] = []
        for step in 0..<60 {
            let door = Int.random(in: 0..<4, using: &random)
            let guest = guests.randomElement(using: &random)!
            entries.append(try fixture.doors[door].admit(guest, at: 1_795_000_000_000 + Int64(step) * 250))
        }
        var fork = fixture.doors[3]
        fork.made = Array(fork.made.prefix(2))
        entries.append(try fork.admit(guests[0], at: 1_795_000_099_000))
        return entries
    }

    static func log(_ entries: some Sequence<MeshEntry>) -> MeshLog {
        var log = MeshLog()
        for entry in entries { _ = try? log.insert(entry) }
        return log
    }

    /// Everything a device shows from its log: the entries, the vector, every guest's
    /// admissions in order, the forks.
    static func view(_ log: MeshLog, guests: Set<GuestID>) -> [String] {
        var lines = log.entries.keys.map { $0.base64EncodedString() }.sorted()
        lines.append("\(log.vector.counts.sorted { $0.key < $1.key })")
        for guest in guests.sorted() {
            lines.append(
                "\(guest): " + log.admissions(of: guest).map { "\($0.author)#\($0.seq)" }.joined(separator: ","))
        }
        lines.append("\(log.forks)")
        return lines
    }

    @Test(
        "mesh-merge-laws: merging logs is commutative, associative and idempotent, and any order of deltas (cut anywhere, repeated) ends in the same entries, vector, admission order and forks",
        arguments: 0..<25)
    func mergeLaws(seed: UInt64) throws {
        var random = SeededRandom(seed: 1000 + seed)
        let entries = try Self.history(seed: seed)
        let guests = Set(entries.map(\.guest))
        let whole = Self.log(entries)
        #expect(whole.count == entries.count)
        // Three devices each hold a random part.
        let parts = (0..<3).map { _ in Self.log(entries.filter { _ in Bool.random(using: &random) }) }
        let (a, b, c) = (parts[0], parts[1], parts[2])
        func merged(_ x: MeshLog, _ y: MeshLog) -> MeshLog {
            var out = x
            out.merge(y)
            return out
        }
        #expect(Self.view(merged(a, b), guests: guests) == Self.view(merged(b, a), guests: guests))
        #expect(
            Self.view(merged(merged(a, b), c), guests: guests) == Self.view(merged(a, merged(b, c)), guests: guests))
        #expect(Self.view(merged(a, a), guests: guests) == Self.view(a, guests: guests))
        #expect(merged(merged(a, b), c) == merged(c, merged(b, a)))
        // Deltas in a random order, some sent twice: the same state as the whole.
        var shuffled = entries + entries.filter { _ in Int.random(in: 0..<5, using: &random) == 0 }
        shuffled.shuffle(using: &random)
        var delivered = MeshLog()
        var chunk: [MeshEntry] = []
        for entry in shuffled {
            chunk.append(entry)
            if Int.random(in: 0..<4, using: &random) == 0 {
                delivered.merge(Self.log(chunk))
                chunk = []
            }
        }
        delivered.merge(Self.log(chunk))
        #expect(Self.view(delivered, guests: guests) == Self.view(whole, guests: guests))
        #expect(delivered.forks == [MeshFork(author: "door-4", seq: 3)])
    }

    @Test(
        "mesh-delta-turns: a delta takes the authors in turns, so one door's backlog of 200 cannot fill a batch of 150 and hold the others' entries back; it stops at a gap in an author's numbers (what lies past it would not move the peer's count)"
    )
    func deltaTurns() throws {
        var fixture = try MeshFixture(doors: 3)
        var log = MeshLog()
        for index in 0..<200 {
            try log.insert(try fixture.doors[0].admit(GuestID.random(), at: 1_795_000_000_000 + Int64(index)))
        }
        var others: [MeshEntry] = []
        for index in 0..<5 {
            let entry = try fixture.doors[1].admit(GuestID.random(), at: 1_795_000_001_000 + Int64(index))
            others.append(entry)
            try log.insert(entry)
        }
        let batch = log.delta(since: VersionVector(), limit: 150)
        #expect(batch.count == 150)
        #expect(Set(others.map(\.id)).isSubset(of: Set(batch.map(\.id))), "door 2's five are in the first batch")
        // Each author's entries still in number order.
        let first = batch.filter { $0.author == others[0].author }.map(\.seq)
        #expect(first == first.sorted())
        // A gap: door 3's 1, 2 and 4 held, 3 not.
        var gapped = MeshLog()
        let third = try (0..<4).map { try fixture.doors[2].admit(GuestID.random(), at: 1_795_000_002_000 + Int64($0)) }
        for entry in [third[0], third[1], third[3]] { try gapped.insert(entry) }
        #expect(gapped.delta(since: VersionVector()).map(\.seq) == [1, 2])
    }

    @Test(
        "mesh-delta-only: a device sends exactly what the other's vector lacks; after a partition heals, the delta is the entries made during it, and a second exchange sends nothing"
    )
    func deltaOnly() throws {
        var fixture = try MeshFixture(doors: 2)
        let guests = (0..<40).map { _ in GuestID.random() }
        var one = MeshLog()
        var two = MeshLog()
        for (index, guest) in guests.prefix(20).enumerated() {
            let entry = try fixture.doors[index % 2].admit(guest, at: 1_795_000_000_000 + Int64(index))
            try one.insert(entry)
            try two.insert(entry)
        }
        #expect(one.delta(since: two.vector).isEmpty)
        // Partitioned: each door goes on alone.
        var during: [MeshEntry] = []
        for (index, guest) in guests.suffix(20).enumerated() {
            let door = index % 2
            let entry = try fixture.doors[door].admit(guest, at: 1_795_000_100_000 + Int64(index))
            during.append(entry)
            if door == 0 { try one.insert(entry) } else { try two.insert(entry) }
        }
        let toTwo = one.delta(since: two.vector)
        let toOne = two.delta(since: one.vector)
        #expect(toTwo.count == 10 && toOne.count == 10)
        #expect(Set((toTwo + toOne).map(\.id)) == Set(during.map(\.id)))
        for entry in toTwo { #expect(try two.insert(entry) == .added) }
        for entry in toOne { #expect(try one.insert(entry) == .added) }
        #expect(one == two)
        #expect(one.delta(since: two.vector).isEmpty && two.delta(since: one.vector).isEmpty)
        // A batch limit cuts the delta; the rest follows on the next exchange.
        var three = MeshLog()
        var rounds = 0
        while !one.delta(since: three.vector).isEmpty {
            for entry in one.delta(since: three.vector, limit: 7) { try three.insert(entry) }
            rounds += 1
        }
        #expect(three == one && rounds == 6)
    }

    @Test(
        "mesh-double-admission-kept: two doors admitting one guest inside the bound are both kept, on every device in the same order (scan time, then door), listed as duplicates"
    )
    func doubleAdmissionKept() throws {
        var fixture = try MeshFixture(doors: 2)
        let guest = GuestID.random()
        let second = try fixture.doors[1].admit(guest, at: 1_795_000_000_120)
        let first = try fixture.doors[0].admit(guest, at: 1_795_000_000_100)
        let here = Self.log([first, second])
        let there = Self.log([second, first])
        #expect(here.admissions(of: guest).map(\.author) == ["door-1", "door-2"])
        #expect(there.admissions(of: guest) == here.admissions(of: guest))
        #expect(here.duplicateAdmissions[guest]?.count == 2)
    }

    @Test(
        "mesh-fork-kept: a door's two different entries under one number are both kept and reported as a fork, as is an entry that does not link to the one before; an implausible number is refused"
    )
    func forkKept() throws {
        var fixture = try MeshFixture(doors: 1)
        let a = try fixture.doors[0].admit(.random(), at: 1)
        let b = try fixture.doors[0].admit(.random(), at: 2)
        var restored = fixture.doors[0]
        restored.made = [a]
        let b2 = try restored.admit(.random(), at: 3)
        var log = Self.log([a, b])
        #expect(log.forks.isEmpty)
        #expect(try log.insert(b2) == .fork)
        #expect(log.count == 3 && log.vector["door-1"] == 2)
        #expect(log.forks == [MeshFork(author: "door-1", seq: 2)])
        // Linked to nothing held: number 3 pointing elsewhere.
        var unlinked = MeshEntry(
            event: fixture.event, guest: .random(), author: "door-1", seq: 3, previous: Array(repeating: 7, count: 32),
            scannedAt: 4, door: "d", staff: "s")
        try unlinked.sign(with: fixture.doors[0].key)
        var other = Self.log([a, b])
        try other.insert(unlinked)
        #expect(other.forks == [MeshFork(author: "door-1", seq: 3)])
        var far = unlinked
        far.seq = other.vector["door-1"] + MeshLog.plausibleGap + 1
        #expect(throws: MeshRefusal.implausible) { try other.insert(far) }
        #expect(other.count == 3)
    }
}
