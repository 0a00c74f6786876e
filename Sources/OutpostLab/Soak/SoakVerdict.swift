import Foundation
import OutpostChaos
import OutpostCore
import OutpostProtocol

/// What the soak saw, and the checks it makes of it. Pure: the inputs are what the devices
/// reported, what they hold at the end, and the server's audit log and roster.
package struct SoakVerdict: Codable {
    package struct Device: Codable {
        package var deviceId: String
        /// Keys the workers printed after a local commit.
        package var confirmed: Set<String>
        /// What the device's store holds at the end, after draining.
        package var report: SoakWorker.Report
        /// Keys of the entries the soak damaged on disk (they must be quarantined, not sent).
        package var damaged: Set<String> = []
        /// Two users took turns on it: a sign-out forgets the answers (not the entries), so a
        /// key it no longer holds must be one the server decided.
        package var shared = false

        package init(
            deviceId: String, confirmed: Set<String>, report: SoakWorker.Report, damaged: Set<String> = [],
            shared: Bool = false
        ) {
            self.deviceId = deviceId
            self.confirmed = confirmed
            self.report = report
            self.damaged = damaged
            self.shared = shared
        }
    }

    /// What the clients did that the proxy cannot see.
    package struct ClientFigures: Codable {
        package var suffixedScans = 0
        package var userSwitches = 0
        package var accessTTL = 0

        package init(suffixedScans: Int = 0, userSwitches: Int = 0, accessTTL: Int = 0) {
            self.suffixedScans = suffixedScans
            self.userSwitches = userSwitches
            self.accessTTL = accessTTL
        }
    }

    /// The walk-ins: what the devices reported committed, what the server holds, and the
    /// capped access type's places as the server counts them.
    package struct WalkIns: Codable {
        package var reported: Set<String>
        package var onServer: [WalkInRecord]
        package var capacity: WalkInCapacity?

        package init(reported: Set<String>, onServer: [WalkInRecord], capacity: WalkInCapacity?) {
            self.reported = reported
            self.onServer = onServer
            self.capacity = capacity
        }

        /// A server walk-in's Idempotency-Key (device, guest, time of adding).
        package static func key(of record: WalkInRecord) -> String {
            IdempotencyKey(
                deviceId: record.deviceId, guestId: record.guestId.uuid,
                scannedAtMillis: record.addedAt.millisecondsSince1970
            ).description
        }
    }

    package struct Row: Codable {
        package var check: String
        package var value: String
        package var required: String
        package var ok: Bool
    }

    package var rows: [Row] = []
    /// Details of every failed check, for the log.
    package var problems: [String] = []

    package var passed: Bool { rows.allSatisfy(\.ok) }

    /// The kinds of audit row a check-in request that reached a decision appends.
    package static let decisionKinds = Set(AuditKind.allCases)

    package init(
        devices: [Device], audit: [AuditEntry], rosterCheckedIn: Set<GuestID>, proxy: ChaosStats,
        requestsWhileFaulty: Int? = nil, kills: Int,
        minimumKills: Int, serverKills: Int, minimumServerKills: Int, networkOffPeriods: Int,
        unexpectedExits: [String], platformCrashes: [String] = [], queue: [SoakQueueMeter.Sample] = [],
        client: ClientFigures = ClientFigures(), walkIns: WalkIns? = nil
    ) {
        let checkIns = audit.filter { $0.kind == .checkedIn }
        var rowsPerGuest: [GuestID: Int] = [:]
        for entry in checkIns {
            guard let guest = entry.guestId else { continue }
            rowsPerGuest[guest, default: 0] += 1
        }
        let durableAnswers = Set(checkIns.compactMap(Self.key(of:)))
        let decided = Set(audit.filter { Self.decisionKinds.contains($0.kind) }.compactMap(Self.key(of:)))

        var confirmedCount = 0
        var lostLocally = 0
        var lostOnServer = 0
        var notDurable = 0
        var notAnswered = 0
        var rejected = 0
        var quarantined = 0
        var damagedCount = 0
        var clearedAtSignOut = 0
        for device in devices {
            let ledger = Dictionary(
                device.report.ledger.map { ($0.idempotencyKey, $0) }, uniquingKeysWith: { first, _ in first })
            confirmedCount += device.confirmed.count
            damagedCount += device.damaged.count
            for key in device.confirmed.sorted() where ledger[key] == nil {
                if device.shared, decided.contains(key) {
                    clearedAtSignOut += 1
                    continue
                }
                lostLocally += 1
                problems.append("device \(device.deviceId) reported \(key) committed, but its store does not hold it")
            }
            for key in device.damaged.sorted() where ledger[key]?.state != .quarantined {
                lostLocally += 1
                problems.append("device \(device.deviceId): the damaged entry \(key) is not shown as quarantined")
            }
            for entry in device.report.ledger {
                guard let key = IdempotencyKey(parsing: entry.idempotencyKey) else {
                    problems.append("device \(device.deviceId) holds a malformed key \(entry.idempotencyKey)")
                    lostOnServer += 1
                    continue
                }
                let guest = GuestID(key.guestId)
                switch entry.state {
                case .pending:
                    notAnswered += 1
                    problems.append("\(entry.idempotencyKey) is still in the outbox (\(entry.error ?? ""))")
                case .rejected:
                    rejected += 1
                    problems.append("\(entry.idempotencyKey) was refused: \(entry.status ?? 0) \(entry.error ?? "")")
                case .quarantined:
                    quarantined += 1
                    if !device.damaged.contains(entry.idempotencyKey) {
                        problems.append("\(entry.idempotencyKey) was quarantined but the soak did not damage it")
                    }
                    // Set aside on purpose: the server may never have heard of it.
                    continue
                case .answered:
                    if entry.result == CheckInResult.checkedIn.rawValue,
                        !durableAnswers.contains(entry.idempotencyKey)
                    {
                        notDurable += 1
                        problems.append(
                            "the server answered checked_in to \(entry.idempotencyKey) but holds no such row")
                    }
                }
                if rowsPerGuest[guest, default: 0] == 0 {
                    lostOnServer += 1
                    problems.append(
                        "guest \(guest) was confirmed by \(device.deviceId) but has no check-in on the server")
                }
            }
        }
        let duplicated = rowsPerGuest.values.reduce(0) { $0 + max(0, $1 - 1) }
        for (guest, count) in rowsPerGuest where count > 1 {
            problems.append("guest \(guest) has \(count) check-in rows")
        }
        let auditGuests = Set(rowsPerGuest.keys)
        let rosterAgrees = auditGuests == rosterCheckedIn
        if !rosterAgrees {
            problems.append(
                "roster and audit disagree on \(auditGuests.symmetricDifference(rosterCheckedIn).count) guests")
        }

        // Each owner's requests reach the server in the order they were committed on the
        // device: per device and user (entries of a user who signed out wait for them, so two
        // users on one device interleave), the decision rows have non-decreasing scan times.
        var outOfOrder: [String] = []
        for device in devices {
            var last: [String: Int64] = [:]
            for entry in audit where entry.deviceId == device.deviceId && Self.decisionKinds.contains(entry.kind) {
                let millis = entry.clientAt?.millisecondsSince1970 ?? .min
                let user = entry.userId?.wire ?? ""
                if millis < last[user, default: .min] {
                    outOfOrder.append(device.deviceId)
                    problems.append(
                        "device \(device.deviceId), user \(user): a scan at \(millis) reached the server after one at "
                            + "\(last[user, default: .min])")
                    break
                }
                last[user] = millis
            }
        }
        let signedOut = devices.filter { !$0.report.signedIn }.map(\.deviceId)
        for device in signedOut { problems.append("device \(device) lost its session") }
        problems += unexpectedExits

        let unexpectedQuarantine = quarantined - damagedCount
        let lost = lostLocally + lostOnServer + notDurable + rejected + max(0, unexpectedQuarantine)
        rows = [
            Row(check: "scans confirmed locally", value: "\(confirmedCount)", required: "> 0", ok: confirmedCount > 0),
            Row(check: "server check-in rows", value: "\(checkIns.count)", required: "", ok: true),
            Row(check: "lost", value: "\(lost)", required: "0", ok: lost == 0),
            Row(
                check: "  of which not in the device store", value: "\(lostLocally)", required: "0",
                ok: lostLocally == 0),
            Row(
                check: "  of which answered but not durable", value: "\(notDurable)", required: "0", ok: notDurable == 0
            ),
            Row(check: "  of which refused", value: "\(rejected)", required: "0", ok: rejected == 0),
            Row(check: "duplicated", value: "\(duplicated)", required: "0", ok: duplicated == 0),
            Row(
                check: "damaged outbox rows quarantined and shown", value: "\(quarantined) of \(damagedCount)",
                required: "all, no others", ok: quarantined == damagedCount),
            Row(
                check: "answers forgotten at a shared device's sign-out, decided on the server",
                value: "\(clearedAtSignOut)", required: "", ok: true),
            Row(
                check: "roster agrees with the audit log", value: rosterAgrees ? "yes" : "no", required: "yes",
                ok: rosterAgrees),
            Row(
                check: "order preserved per device and user in the audit log", value: outOfOrder.isEmpty ? "yes" : "no",
                required: "yes", ok: outOfOrder.isEmpty),
            Row(
                check: "outboxes empty", value: notAnswered == 0 ? "yes" : "no (\(notAnswered) pending)",
                required: "yes", ok: notAnswered == 0),
            Row(
                check: "devices still signed in", value: "\(devices.count - signedOut.count)/\(devices.count)",
                required: "all", ok: signedOut.isEmpty),
            Row(
                check: "device kills (SIGKILL)", value: "\(kills)", required: "≥ \(minimumKills)",
                ok: kills >= minimumKills),
            Row(
                check: "server kills (SIGKILL)", value: "\(serverKills)", required: "≥ \(minimumServerKills)",
                ok: serverKills >= minimumServerKills),
            Row(
                check: "device crashes (exits not caused by a kill)", value: "\(unexpectedExits.count)",
                required: "0", ok: unexpectedExits.isEmpty),
            Row(
                check: "  crashes in FoundationNetworking on a lost connection (swift-corelibs-foundation #5285)",
                value: "\(platformCrashes.count)", required: "0", ok: platformCrashes.isEmpty),
            Row(check: "network switched off", value: "\(networkOffPeriods) times", required: "", ok: true),
            Row(
                check: "token refreshes (access tokens last \(client.accessTTL) s)", value: "\(proxy.refreshRequests)",
                required: "", ok: true),
            Row(
                check: "  of which the answer was lost", value: "\(proxy.refreshAnswersLost)", required: "", ok: true),
            Row(
                check: "scans with a scanner prefix or suffix", value: "\(client.suffixedScans)", required: "", ok: true
            ),
            Row(
                check: "shared device: sign-outs with --keep, then the other user",
                value: "\(client.userSwitches)", required: "", ok: true),
            Row(
                check: "check-ins waiting in the outboxes while the faults ran (every 5 s)",
                value: SoakQueueMeter.line(queue), required: "", ok: true),
            Row(
                check: "  at most at once", value: "\(queue.map(\.waiting).max() ?? 0)", required: "", ok: true),
            Row(
                check: "outbox entries left when the faults stopped",
                value: "\(devices.map(\.report.pendingAtStart).reduce(0, +)) (drained in "
                    + String(format: "%.0f s)", devices.map(\.report.drainSeconds).reduce(0, +)), required: "",
                ok: true),
            Row(
                check: "requests through the proxy",
                value: "\(proxy.requests)" + (requestsWhileFaulty.map { " (\($0) while faults were on)" } ?? ""),
                required: "", ok: true),
        ]
        if let walkIns { rows += walkInRows(walkIns) }
        for (kind, count) in proxy.faultsByKind {
            rows.append(Row(check: "  fault: \(kind)", value: "\(count)", required: "", ok: true))
        }
        rows.append(
            Row(
                check: "server 5xx not caused by injected faults", value: "\(proxy.serverErrors)", required: "0",
                ok: proxy.serverErrors == 0))
    }

    /// Every walk-in a device committed is on the server once, and the doors together never
    /// admitted more than the capacity: none flagged over it, the pool never below the admitted.
    mutating func walkInRows(_ walkIns: WalkIns) -> [Row] {
        let onServer = Set(walkIns.onServer.map(WalkIns.key(of:)))
        let lost = walkIns.reported.subtracting(onServer)
        for key in lost.sorted() {
            problems.append("walk-in \(key) was committed on its device but is not on the server")
        }
        let capacity = walkIns.capacity
        let admitted = capacity?.admitted ?? 0
        let limit = capacity?.capacity ?? 0
        let within = capacity != nil && admitted <= limit && capacity?.overCapacity == 0
        if !within {
            problems.append("walk-ins: \(admitted) admitted of \(limit), \(capacity?.overCapacity ?? -1) over capacity")
        }
        let counted = (capacity?.reserved ?? -1) >= admitted
        return [
            Row(check: "walk-ins added on the devices", value: "\(walkIns.reported.count)", required: "", ok: true),
            Row(
                check: "  lost (committed on a device, not on the server)", value: "\(lost.count)", required: "0",
                ok: lost.isEmpty),
            Row(
                check: "  admitted of the capacity, none over it",
                value: "\(admitted) of \(limit), \(capacity?.overCapacity ?? 0) over", required: "≤ capacity, 0 over",
                ok: within),
            Row(
                check: "  places reserved (leased, sealed as used) cover the admitted",
                value: "\(capacity?.reserved ?? 0) ≥ \(admitted)", required: "yes", ok: counted),
        ]
    }

    /// The Idempotency-Key of the request an audit row decided (device, guest, scan time).
    package static func key(of entry: AuditEntry) -> String? {
        guard let device = entry.deviceId, let guest = entry.guestId, let scanned = entry.clientAt else { return nil }
        return IdempotencyKey(deviceId: device, guestId: guest.uuid, scannedAtMillis: scanned.millisecondsSince1970)
            .description
    }

    /// The checks as a Markdown table.
    package var table: String {
        var lines = ["| check | value | required | ok |", "|---|---|---|---|"]
        for row in rows {
            lines.append(
                "| \(row.check) | \(row.value) | \(row.required) | \(row.required.isEmpty ? "" : (row.ok ? "yes" : "**NO**")) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
