import Foundation
import OutpostChaos
import OutpostCore
import OutpostDevice
import OutpostLab
import OutpostProtocol
import Testing

/// The soak's checks fail when they should: each defect the soak hunts for, planted in made-up
/// inputs, turns its row red.
@Suite("soak verdict")
struct SoakVerdictTests {
    static let guestA = GuestID(wire: "00000000-0000-4000-8000-00000000000a")!
    static let guestB = GuestID(wire: "00000000-0000-4000-8000-00000000000b")!
    static let user = UserID.random()
    static let user1 = UserID.random()
    static let user2 = UserID.random()

    static func key(_ device: String, _ guest: GuestID, _ millis: Int64) -> String {
        IdempotencyKey(deviceId: device, guestId: guest.uuid, scannedAtMillis: millis).description
    }

    static func row(_ kind: AuditKind, _ device: String, _ guest: GuestID, _ millis: Int64) -> AuditEntry {
        AuditEntry(
            id: UUID().uuidString, kind: kind, guestId: guest, deviceId: device, userId: user, at: Date(),
            clientAt: Date(millisecondsSince1970: millis), method: "qr")
    }

    static func answered(_ key: String, _ result: CheckInResult) -> CheckInLedgerEntry {
        CheckInLedgerEntry(
            idempotencyKey: key, state: .answered, status: result == .checkedIn ? 201 : 200, result: result.rawValue)
    }

    /// Two devices scan guest A at nearly the same time; device 1 then scans guest B.
    static func healthy() -> (devices: [SoakVerdict.Device], audit: [AuditEntry]) {
        let k1 = key("d1", guestA, 1000)
        let k2 = key("d2", guestA, 1001)
        let k3 = key("d1", guestB, 2000)
        let devices = [
            SoakVerdict.Device(
                deviceId: "d1", confirmed: [k1, k3],
                report: .init(
                    deviceId: "d1", signedIn: true, pending: 0,
                    ledger: [answered(k1, .checkedIn), answered(k3, .checkedIn)])),
            SoakVerdict.Device(
                deviceId: "d2", confirmed: [k2],
                report: .init(deviceId: "d2", signedIn: true, pending: 0, ledger: [answered(k2, .alreadyCheckedIn)])),
        ]
        let audit = [
            row(.checkedIn, "d1", guestA, 1000), row(.alreadyCheckedIn, "d2", guestA, 1001),
            row(.checkedIn, "d1", guestB, 2000),
        ]
        return (devices, audit)
    }

    static func verdict(
        devices: [SoakVerdict.Device], audit: [AuditEntry], roster: Set<GuestID> = [guestA, guestB],
        stats: ChaosStats = ChaosStats(), exits: [String] = []
    ) -> SoakVerdict {
        SoakVerdict(
            devices: devices, audit: audit, rosterCheckedIn: roster, proxy: stats, kills: 10, minimumKills: 5,
            serverKills: 2, minimumServerKills: 2, networkOffPeriods: 1, unexpectedExits: exits)
    }

    static func failed(_ verdict: SoakVerdict) -> [String] { verdict.rows.filter { !$0.ok }.map(\.check) }

    @Test("a clean run passes every check")
    func cleanRunPasses() {
        let (devices, audit) = Self.healthy()
        let verdict = Self.verdict(devices: devices, audit: audit)
        #expect(verdict.passed, "\(verdict.problems)")
        #expect(verdict.table.contains("| lost | 0 | 0 | yes |"))
    }

    @Test(
        "soak-walkins: a walk-in committed on a device but missing on the server, more admitted than the capacity, one flagged over it, or a pool below the admitted each fail the soak"
    )
    func walkIns() {
        let (devices, audit) = Self.healthy()
        let type = AccessTypeID.random()
        func record(_ device: String) -> WalkInRecord {
            WalkInRecord(
                guestId: .random(), accessTypeId: type, name: "W", email: "", code: "C", payment: nil,
                addedAt: Date(millisecondsSince1970: 5_000), at: Date(millisecondsSince1970: 6_000), byName: "B",
                deviceId: device, slot: nil, possibleDuplicateOf: nil, overCapacity: false)
        }
        let kept = [record("d1"), record("d2")]
        func capacity(admitted: Int, over: Int = 0, reserved: Int? = nil, of limit: Int = 2) -> WalkInCapacity {
            WalkInCapacity(
                accessTypeId: type, name: "Door", capacity: limit, reserved: reserved ?? admitted, admitted: admitted,
                overCapacity: over, openLeases: 0)
        }
        func verdict(_ walkIns: SoakVerdict.WalkIns) -> SoakVerdict {
            SoakVerdict(
                devices: devices, audit: audit, rosterCheckedIn: [Self.guestA, Self.guestB], proxy: ChaosStats(),
                kills: 10, minimumKills: 5, serverKills: 2, minimumServerKills: 2, networkOffPeriods: 1,
                unexpectedExits: [], walkIns: walkIns)
        }
        let reported = Set(kept.map(SoakVerdict.WalkIns.key(of:)))
        let clean = verdict(.init(reported: reported, onServer: kept, capacity: capacity(admitted: 2)))
        #expect(clean.passed, "\(clean.problems)")
        let lost = verdict(.init(reported: reported, onServer: [kept[0]], capacity: capacity(admitted: 1)))
        #expect(Self.failed(lost) == ["  lost (committed on a device, not on the server)"])
        let over = verdict(.init(reported: reported, onServer: kept, capacity: capacity(admitted: 2, of: 1)))
        #expect(Self.failed(over) == ["  admitted of the capacity, none over it"])
        let flagged = verdict(.init(reported: reported, onServer: kept, capacity: capacity(admitted: 2, over: 1)))
        #expect(Self.failed(flagged) == ["  admitted of the capacity, none over it"])
        let short = verdict(.init(reported: reported, onServer: kept, capacity: capacity(admitted: 2, reserved: 1)))
        #expect(Self.failed(short) == ["  places reserved (leased, sealed as used) cover the admitted"])
    }

    @Test(
        "soak-platform-crash: FoundationNetworking's trap on a lost connection (swift-corelibs-foundation #5285) is reported on its own line and fails the soak like any other crash"
    )
    func platformCrash() {
        let trapped = """
            FoundationNetworking/NativeProtocol.swift:240: Fatal error: Transfer completed, but there's no response.

            *** Signal 4: Backtracing from 0x7f8ce92f9361... done ***
            """
        #expect(SoakDevice.isPlatformCrash(log: trapped))
        #expect(!SoakDevice.isPlatformCrash(log: "Outpost/DeviceApp.swift:12: Fatal error: Unexpectedly found nil"))
        #expect(!SoakDevice.isPlatformCrash(log: "Fatal error: Transfer completed, but there's no response."))
        let (devices, audit) = Self.healthy()
        let known = SoakVerdict(
            devices: devices, audit: audit, rosterCheckedIn: [Self.guestA, Self.guestB], proxy: ChaosStats(), kills: 10,
            minimumKills: 5, serverKills: 2, minimumServerKills: 2, networkOffPeriods: 1, unexpectedExits: [],
            platformCrashes: ["device 2: exited with status 4"])
        #expect(!known.passed)
        #expect(
            Self.failed(known).contains(
                "  crashes in FoundationNetworking on a lost connection (swift-corelibs-foundation #5285)"),
            "\(Self.failed(known))")
        #expect(
            known.table.contains(
                "crashes in FoundationNetworking on a lost connection (swift-corelibs-foundation #5285) | 1 | 0 | **NO** |"
            ),
            "\(known.table)")
        let ours = Self.verdict(devices: devices, audit: audit, exits: ["device 2: exited with status 4"])
        #expect(Self.failed(ours).contains("device crashes (exits not caused by a kill)"))
    }

    @Test(
        "soak-queue-report: the queue is the confirmed keys the server's audit has not decided, read page by page across samples; a failed read skips the sample; the line shows at most 12 samples and the last"
    )
    func queueMeter() async {
        let (_, audit) = Self.healthy()
        let keys = audit.compactMap(SoakVerdict.key(of:))
        var meter = SoakQueueMeter()
        // First sample: the server has decided the first two entries.
        await meter.sample(at: 0, confirmed: Set(keys)) { since in
            #expect(since == nil)
            return AuditPage(entries: Array(audit.prefix(2)), cursor: "c2", hasMore: false)
        }
        // A read that fails (a server being restarted) is no sample.
        await meter.sample(at: 5, confirmed: Set(keys)) { _ in throw CleanFailure("down") }
        // Then the rest, in two pages after the cursor.
        await meter.sample(at: 10, confirmed: Set(keys).union(["d9:extra:1"])) { since in
            if since == "c2" { return AuditPage(entries: [audit[2]], cursor: "c3", hasMore: true) }
            #expect(since == "c3")
            return AuditPage(entries: Array(audit.dropFirst(3)), cursor: "c4", hasMore: false)
        }
        #expect(meter.samples == [.init(seconds: 0, waiting: Set(keys).count - 2), .init(seconds: 10, waiting: 1)])
        let many = (0..<30).map { SoakQueueMeter.Sample(seconds: $0 * 5, waiting: $0) }
        let line = SoakQueueMeter.line(many)
        #expect(line.hasPrefix("0 s: 0 · 15 s: 3") && line.hasSuffix("145 s: 29"))
        #expect(line.components(separatedBy: " · ").count <= 13)
    }

    @Test("a commit the device reported but no longer holds is lost")
    func lostLocally() {
        var (devices, audit) = Self.healthy()
        devices[0].report.ledger.removeLast()
        let verdict = Self.verdict(devices: devices, audit: audit)
        #expect(Self.failed(verdict).contains("lost"))
        #expect(Self.failed(verdict).contains("  of which not in the device store"))
    }

    @Test("a checked_in answer with no row on the server is not durable, and the guest is lost")
    func answerNotDurable() {
        var (devices, audit) = Self.healthy()
        audit.removeLast()
        let verdict = Self.verdict(devices: devices, audit: audit, roster: [Self.guestA])
        #expect(Self.failed(verdict).contains("  of which answered but not durable"))
        #expect(Self.failed(verdict).contains("lost"))
    }

    @Test("two check-in rows for one guest are a duplicate")
    func duplicate() {
        var (devices, audit) = Self.healthy()
        audit[1] = Self.row(.checkedIn, "d2", Self.guestA, 1001)
        devices[1].report.ledger = [Self.answered(Self.key("d2", Self.guestA, 1001), .checkedIn)]
        #expect(Self.failed(Self.verdict(devices: devices, audit: audit)) == ["duplicated"])
    }

    @Test("a device's later scan reaching the server first breaks the order")
    func outOfOrder() {
        var (devices, audit) = Self.healthy()
        audit.swapAt(0, 2)
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit))
                == ["order preserved per device and user in the audit log"])
    }

    @Test("soak-shared-device: two users on one device may interleave, each user's own order may not break")
    func sharedDeviceOrder() {
        var (devices, audit) = Self.healthy()
        // Device 1's later scan came from another user, whose kept entry was sent first.
        audit[0].userId = Self.user1
        audit[2].userId = Self.user2
        audit.swapAt(0, 2)
        #expect(Self.verdict(devices: devices, audit: audit).passed)
        audit[0].userId = Self.user1
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit)).contains(
                "order preserved per device and user in the audit log"))
        // A shared device forgets its answers at sign-out: a key it no longer holds is fine only
        // when the server decided it.
        (devices, audit) = Self.healthy()
        devices[0].report.ledger.removeFirst()
        devices[0].shared = true
        #expect(Self.verdict(devices: devices, audit: audit).passed)
        audit.removeFirst()
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit, roster: [Self.guestA, Self.guestB]))
                .contains("  of which not in the device store"))
    }

    @Test("soak-damaged-row: a damaged row must be quarantined and shown; an undamaged one quarantined fails")
    func damagedRows() {
        var (devices, audit) = Self.healthy()
        let damaged = Self.key("d1", Self.guestB, 3000)
        devices[0].confirmed.insert(damaged)
        devices[0].damaged = [damaged]
        devices[0].report.ledger.append(CheckInLedgerEntry(idempotencyKey: damaged, state: .quarantined))
        let verdict = Self.verdict(devices: devices, audit: audit)
        #expect(verdict.passed, "\(verdict.problems)")
        #expect(verdict.table.contains("| damaged outbox rows quarantined and shown | 1 of 1 |"))
        // Not quarantined (e.g. dropped, or still pending): lost.
        devices[0].report.ledger.removeLast()
        #expect(Self.failed(Self.verdict(devices: devices, audit: audit)).contains("lost"))
        // Quarantined without being damaged: a row the device lost on its own.
        (devices, audit) = Self.healthy()
        devices[1].report.ledger[0].state = .quarantined
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit)).contains(
                "damaged outbox rows quarantined and shown"))
    }

    @Test("an entry left in the outbox, a refusal, a lost session, a crash and a server 5xx each fail")
    func otherFailures() {
        var (devices, audit) = Self.healthy()
        devices[1].report.ledger[0].state = .pending
        #expect(Self.failed(Self.verdict(devices: devices, audit: audit)) == ["outboxes empty"])
        devices[1].report.ledger[0].state = .rejected
        #expect(Self.failed(Self.verdict(devices: devices, audit: audit)).contains("  of which refused"))
        (devices, audit) = Self.healthy()
        devices[0].report.signedIn = false
        #expect(Self.failed(Self.verdict(devices: devices, audit: audit)) == ["devices still signed in"])
        (devices, audit) = Self.healthy()
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit, exits: ["device 0: exited with status 1"]))
                == ["device crashes (exits not caused by a kill)"])
        var stats = ChaosStats()
        stats.serverErrors = 1
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit, stats: stats))
                == ["server 5xx not caused by injected faults"])
        #expect(
            Self.failed(Self.verdict(devices: devices, audit: audit, roster: [Self.guestA]))
                == ["roster agrees with the audit log"])
    }
}
