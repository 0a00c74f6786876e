import Crypto
import Foundation
import GRDB
import NIOConcurrencyHelpers
import OutpostCore
import OutpostProtocol
import OutpostShell
import X509

/// The venue mesh on a door: at each sync the server certifies this device's key for the open
/// event; every check-in the door commits becomes a signed entry; peers exchange entries (a
/// hello with the version vector, then only what the other lacks), and a guest a peer admitted
/// shows on check-in's card as already checked in (``PeerAdmissionSource``). Peers' entries never
/// enter this door's outbox: each door sends its own check-ins, and the server dedupes.
@MainActor
package final class MeshModule: DeviceModule, CheckInJournal, CheckInListener, PeerAdmissionSource {
    package static let name = "mesh"
    package static let migrations = ModuleStore<MeshModule>.meshMigrations
    /// The mesh belongs to the signed-in session: its credentials go at sign-out, and its
    /// entries too, but for the peers' ones the server is not known to have (``sessionEnded()``):
    /// custody outlives the session that took it.
    package static let sessionTables = ["mesh_credentials"]

    package let context: ModuleContext
    package let store: ModuleStore<MeshModule>
    /// The open event's mesh, loaded from the store when the event opens. Changed in place
    /// (`mesh!.replica…`): a changed copy of it would copy every entry of the log, at each
    /// check-in.
    private var mesh: EventMesh? {
        didSet {
            handshakeTrust.withLockedValue { $0 = mesh?.trust }
            let anchor = mesh?.credentials.timeAnchor
            timeAnchor.withLockedValue { $0 = anchor }
        }
    }
    /// The server's time at the last certificate and the monotonic clock then (``trustedTime``).
    package let timeAnchor = NIOLockedValueBox<(Date, MonotonicInstant)?>(nil)

    /// The time certificates are checked at: the wall clock, or the server's time at the last
    /// certificate plus the monotonic time since (same boot), whichever is later. A door whose
    /// clock is behind (a kiosk without a real-time clock boots in the past) still accepts its
    /// peers, and setting the clock back cannot make an expired certificate valid again
    /// (research: trusted time). A reboot loses the anchor until the next sync.
    package nonisolated static func trustedTime(
        wall: Date, anchor: (Date, MonotonicInstant)?, monotonic: MonotonicInstant
    ) -> Date {
        guard let (server, then) = anchor, then.boot == monotonic.boot, monotonic.seconds >= then.seconds else {
            return wall
        }
        return max(wall, server.addingTimeInterval(monotonic.seconds - then.seconds))
    }

    /// This door's trusted time now (``trustedTime(wall:anchor:monotonic:)``).
    package func trustedNow() -> Date {
        Self.trustedTime(
            wall: context.ports.clock.now(), anchor: timeAnchor.withLockedValue { $0 },
            monotonic: context.ports.monotonic.now())
    }
    /// The event ``mesh`` was last loaded for (loaded once, found or not; a sync loads it again).
    private var loadedFor: EventID?
    /// The entry kept with the check-in being committed, until the commit is announced.
    private var signed: MeshEntry?
    /// The open event's trust, for the network's handshakes (off the main actor): follows
    /// ``mesh``.
    package let handshakeTrust = NIOLockedValueBox<MeshTrust?>(nil)
    /// Told when this door has new entries (its own check-in, a peer's batch): the network
    /// pushes them to every peer.
    package var changed: (@MainActor () -> Void)?

    /// One event's mesh as this door holds it.
    struct EventMesh {
        var eventId: EventID
        var replica: MeshReplica
        var credentials: MeshCredentialRecord

        var log: MeshLog { replica.log }
        var trust: MeshTrust { replica.trust }
    }

    package init(context: ModuleContext, store: ModuleStore<MeshModule>) {
        self.context = context
        self.store = store
    }

    package var outboxHandlers: [any OutboxEntryHandler] { [] }

    /// The door's P-256 key, kept in the key store (outside the app's restorable files) with
    /// the highest number it has signed, so a restored store never signs a number twice. Both
    /// are read once and kept in memory: a confirm reads neither.
    private func key() throws -> P256.Signing.PrivateKey {
        if let signingKey { return signingKey }
        let keyStore = context.ports.keyStore
        let key: P256.Signing.PrivateKey
        if let raw = try keyStore.record(named: "mesh-key") {
            key = try P256.Signing.PrivateKey(rawRepresentation: raw)
        } else {
            key = P256.Signing.PrivateKey()
            try keyStore.setRecord(named: "mesh-key", key.rawRepresentation)
        }
        signingKey = key
        return key
    }
    private var signingKey: P256.Signing.PrivateKey?

    private func signedUpTo(_ eventId: EventID) throws -> UInt64 {
        if let signed = signedNumbers[eventId] { return signed }
        let data = try context.ports.keyStore.record(named: Self.numberRecord(eventId))
        let signed = data.flatMap { UInt64(String(decoding: $0, as: UTF8.self)) } ?? 0
        signedNumbers[eventId] = signed
        return signed
    }
    /// The key store's record of the highest number this door signed for an event.
    private nonisolated static func numberRecord(_ eventId: EventID) -> String { "mesh-seq-\(eventId.wire)" }
    /// The highest number this door signed, per event, as the key store has it.
    private var signedNumbers: [EventID: UInt64] = [:]
    /// Writes the key store's record of the numbers signed, in order, off the confirm's path (a
    /// record written took about 0.6 ms at each confirm, 2.5× a confirm without the mesh): a
    /// crash before the write loses nothing, since the entry is in the store and the next
    /// number is the higher of the two; the record is for a store restored from a backup, which
    /// comes long after.
    private let numberWriter = DispatchQueue(label: "outpost.mesh.numbers")

    private func recordNumber(_ seq: UInt64, eventId: EventID) {
        let keyStore = context.ports.keyStore
        numberWriter.async {
            do {
                try keyStore.setRecord(named: Self.numberRecord(eventId), Data("\(seq)".utf8))
            } catch {
                Task { @MainActor [weak self] in
                    self?.context.surfacing("record the venue mesh's numbers") { throw error }
                }
            }
        }
    }

    /// Waits until the numbers signed so far are in the key store (tests).
    package func numbersRecorded() { numberWriter.sync {} }

    /// Asks the server for this door's certificate and the event's revocations at every sync
    /// (the server answers the same certificate while more than an hour of it is left).
    package func pull(event: EventInfo) async throws {
        let key = try key()
        let held = try store.credentials(eventId: event.id)
        let request = MeshCertificateRequest(
            device: context.deviceId, publicKey: key.publicKey.derRepresentation.base64EncodedString())
        // An event over, or a role that does not scan: no mesh, and nothing else fails.
        guard
            let answer = try await post(request, to: API.meshCertificate.line(event.id), as: MeshCredentials.self)
        else { return }
        guard let certificate = Data(base64Encoded: answer.certificate),
            let authority = Data(base64Encoded: answer.authority)
        else { throw APIClientError.http(status: 200, code: nil) }
        var record = MeshCredentialRecord(
            certificate: certificate, authority: authority, notAfter: answer.notAfter,
            revocations: answer.revocations, peers: held?.peers ?? [], serverTime: answer.serverTime,
            serverMonotonic: answer.serverTime == nil ? nil : context.ports.monotonic.now())
        if held?.authority != authority { record.peers = [] }
        try store.setCredentials(record, eventId: event.id)
        if event.id == context.eventId { load(event.id) }
        try await handIn()
    }

    // MARK: - Custody

    /// Gives the server the entries this door holds that it lacks: its own (the server's record
    /// of who admitted whom in the mesh) and its peers' (custody: a door that admitted guests
    /// offline and never came back still has its admissions reach the server through this
    /// one). It first asks what the server holds (an empty request), then sends only the rest,
    /// 256 a request. Each event with entries is reported (what this door holds, the doors it
    /// met) for the dashboard's "meshed while offline".
    package func handIn() async throws {
        var events = Set(try store.heldForServer(except: context.deviceId).keys)
        if let mesh, mesh.log.count > 0 { events.insert(mesh.eventId) }
        for eventId in events.sorted(by: { $0.wire < $1.wire }) {
            guard let first = try await send([], eventId: eventId) else { continue }
            try store.markAtServer(eventId: eventId, vector: first.vector, answered: [])
            var pending = try store.entriesForServer(eventId: eventId)
            while !pending.isEmpty {
                let chunk = Array(pending.prefix(MeshUpload.maximumEntries))
                guard let answer = try await send(chunk, eventId: eventId) else { break }
                try store.markAtServer(
                    eventId: eventId, vector: answer.vector,
                    answered: zip(chunk, answer.results).map { ($0.author, $0.seq, $1.outcome != .refused) })
                pending = try store.entriesForServer(eventId: eventId)
                // The server answered but kept nothing of these (it should not happen): stop.
                if pending.first == chunk.first { break }
            }
        }
    }

    /// One request of ``handIn()``; nil when the server will not take the event's entries (an
    /// event over, a role that does not scan).
    private func send(_ entries: [MeshEntry], eventId: EventID) async throws -> MeshUploadAnswer? {
        let log = mesh?.eventId == eventId ? mesh?.log : nil
        let met = Set(log?.vector.counts.keys.map { $0 } ?? []).union(heard.keys).subtracting([context.deviceId])
        let upload = MeshUpload(
            device: context.deviceId, entries: entries.map { Data($0.encoded).base64EncodedString() },
            held: log?.count ?? entries.count, peers: Array(met.sorted().prefix(MeshUpload.maximumPeers)))
        guard let answer = try await post(upload, to: API.meshEntries.line(eventId), as: MeshUploadAnswer.self)
        else { return nil }
        guard answer.results.count == entries.count else { throw APIClientError.http(status: 200, code: nil) }
        return answer
    }

    /// One of the mesh's requests to the server: its answer; nil when the server will not do it
    /// for this event (403, 404, 409: an event over, a role that does not scan); anything else
    /// that is not the answer throws.
    private func post<Answer: Decodable>(
        _ body: some Encodable, to line: RequestLine, as answer: Answer.Type
    ) async throws -> Answer? {
        let response = try await context.authorized(
            TransportRequest(line, headers: ["Content-Type": "application/json"], body: try OutpostJSON.encode(body)))
        if let answer = try? OutpostJSON.decode(Answer.self, from: response.body), response.status == 200 {
            return answer
        }
        if [403, 404, 409].contains(response.status) { return nil }
        throw APIClientError.http(status: response.status, code: nil)
    }

    /// Peers' entries the server is not known to have are not this user's unsent work (their
    /// authors send their own; the pending count stays the door's own check-ins): they outlive
    /// the session, whatever the sign-out chose, and the next sync hands them in.
    package func sendHeld() async {
        try? await handIn()
    }

    /// Loads the open event's mesh from the store. Never inside a transaction (GRDB's reads are
    /// not reentrant): from ``reload()`` and ``pull(event:)`` only.
    private func load(_ eventId: EventID) {
        loadedFor = eventId
        mesh =
            context.surfacing("read the venue mesh") { () throws -> EventMesh? in
                guard let credentials = try store.credentials(eventId: eventId),
                    let tenant = context.session?.user.tenantId
                else { return nil }
                let authority = try Certificate(derEncoded: Array(credentials.authority))
                var trust = MeshTrust(authority: authority, tenant: tenant, event: eventId)
                for revocation in credentials.revocations { try? trust.learn(revocation) }
                let now = Self.trustedTime(
                    wall: context.ports.clock.now(),
                    anchor: credentials.timeAnchor,
                    monotonic: context.ports.monotonic.now())
                for peer in [credentials.certificate] + credentials.peers {
                    if let certificate = try? Certificate(derEncoded: Array(peer)) {
                        _ = try? trust.accept(certificate, at: now)
                    }
                }
                var log = MeshLog()
                for entry in try store.entries(eventId: eventId) { _ = try? log.insert(entry) }
                return EventMesh(
                    eventId: eventId, replica: MeshReplica(log: log, trust: trust), credentials: credentials)
            } ?? nil
    }

    package func reload() {
        guard let eventId = context.eventId else {
            mesh = nil
            loadedFor = nil
            return
        }
        if loadedFor != eventId { load(eventId) }
    }

    package var tabs: [UIElement] { [] }
    package func takeover(now: Date) -> (any ScreenModel)? { nil }
    package var frontScreen: (any ScreenModel)? { nil }
    package var eventShellParts: [any ScreenPart] { [] }
    /// The venue mesh at a glance: the doors this one has a live session with and how fresh
    /// each is ("Bea's door · 3 s ago"), or that there are none (Wi-Fi that isolates its clients
    /// blocks every peer: the person at the door must see it), and where to join.
    package var statusElements: [UIElement] {
        guard meshing, let mesh, mesh.eventId == context.eventId else { return [] }
        let now = ContinuousClock.now
        let peers = peers(at: now)
        var text =
            peers.isEmpty
            ? "Venue mesh: no other door connected"
            : "Venue mesh: "
                + peers.map { "\(doorName($0.device)) · \(Int($0.heard.components.seconds)) s ago" }.joined(
                    separator: ", ")
        if let joinCode { text += " · join \(joinCode.host):\(joinCode.port)" }
        return [
            UIElement(
                UIIdentifier.meshPeers, text,
                ["peers": String(peers.count), "join": joinCode?.text ?? "", "entries": String(mesh.log.count)])
        ]
    }

    /// Whether a network node runs for this door (the screens show the mesh only then).
    package var meshing = false
    /// The join code of this door's node, when it listens.
    package var joinCode: MeshJoinCode?
    /// The live peers as the node last reported them, with when each was last heard.
    private var heard: [String: ContinuousClock.Instant] = [:]

    package func peersHeard(_ peers: [MeshNode.Peer], at now: ContinuousClock.Instant) {
        heard = Dictionary(uniqueKeysWithValues: peers.map { ($0.device, now - $0.heard) })
    }

    /// The live peers, by device id, with how long ago each was heard.
    package func peers(at now: ContinuousClock.Instant) -> [(device: String, heard: Duration)] {
        heard.map { ($0.key, now - $0.value) }.sorted { $0.device < $1.device }
    }

    /// The start of a device id past its `dev-` prefix: enough to tell a venue's doors apart.
    package nonisolated static func shortDoor(_ device: String) -> String {
        String((device.hasPrefix("dev-") ? device.dropFirst(4) : device[...]).prefix(4))
    }

    /// A peer door as staff know it: whose it is (the staff of its latest entry) and the start
    /// of its device id.
    private func doorName(_ device: String) -> String {
        let short = Self.shortDoor(device)
        guard let staff = mesh?.log.last(of: device)?.staff else { return "door \(short)" }
        return "\(staff)'s door \(short)"
    }
    package func eventChanged() {
        mesh = nil
        loadedFor = nil
    }
    package func clearTransient() {}
    package func sessionEnded() {
        mesh = nil
        loadedFor = nil
        heard = [:]
        context.surfacing("forget the venue mesh's entries") {
            try store.forgetEntries(keepingHeldExcept: context.deviceId)
        }
    }
    package func saveState() throws -> Data { Data() }
    package func restoreState(_ data: Data) throws {}

    // MARK: - Check-in

    /// A check-in this door is committing: signed as the next entry of this door's log and kept
    /// in the check-in's own transaction. A re-confirm admits nobody new and makes no entry; a
    /// door without the event's credentials makes none either.
    package func journal(_ db: Database, eventId: EventID, guestId: GuestID, scannedAt: Date, reconfirm: Bool) throws {
        signed = nil
        // Only the mesh already loaded: this runs inside the check-in's transaction.
        guard !reconfirm, let mesh, mesh.eventId == eventId, let user = context.session?.user else { return }
        let author = context.deviceId
        var entry = MeshEntry(
            event: eventId, guest: guestId, author: author,
            seq: max(mesh.log.vector[author], try signedUpTo(eventId)) + 1,
            previous: mesh.log.last(of: author)?.id ?? MeshEntry.noPrevious, scannedAt: scannedAt.millisecondsSince1970,
            door: author, staff: user.name)
        try entry.sign(with: try key())
        try store.keep(db, entry, eventId: eventId)
        signed = entry
    }

    /// The check-in committed: its entry joins the log, and the key store records its number
    /// (only now: a rolled-back check-in leaves no gap in this door's numbering).
    package func checkedIn(eventId: EventID, guestId: GuestID, ticket: String?, reconfirm: Bool) {
        guard let entry = signed, entry.event == eventId, entry.guest == guestId, mesh?.eventId == eventId
        else { return }
        signed = nil
        signedNumbers[eventId] = entry.seq
        recordNumber(entry.seq, eventId: eventId)
        context.surfacing("record the venue mesh's entry") { try mesh!.replica.log.insert(entry) }
        changed?()
    }

    /// The guest's first admission at another door this door knows of.
    package func peerAdmission(eventId: EventID, guestId: GuestID) -> PeerAdmission? {
        guard let mesh, mesh.eventId == eventId else { return nil }
        return mesh.log.admissions(of: guestId).first { $0.author != context.deviceId }.map {
            PeerAdmission(
                at: Date(millisecondsSince1970: $0.scannedAt), staff: $0.staff, door: $0.door, deviceId: $0.author)
        }
    }

    // MARK: - Exchange

    /// What this door says to a peer; nil without credentials for the open event.
    package func hello() -> MeshHello? {
        guard let mesh else { return nil }
        return MeshHello(certificate: Array(mesh.credentials.certificate), vector: mesh.log.vector)
    }

    /// A peer said hello: its certificate is checked (a refusal ends the exchange) and it is
    /// sent what its vector lacks (``MeshReplica/batch(for:revocations:at:)``).
    package func batch(for hello: MeshHello) throws(MeshRefusal) -> MeshBatch {
        guard let revocations = mesh?.credentials.revocations else { throw .unknownAuthor }
        return try mesh!.replica.batch(for: hello, revocations: revocations, at: trustedNow())
    }

    /// A peer's batch, checked and taken (``MeshReplica/take(_:at:)``); the entries, the
    /// revocations and the peers' certificates it brought are stored.
    package func receive(_ batch: MeshBatch) -> MeshReceipt {
        guard let eventId = mesh?.eventId else {
            var receipt = MeshReceipt()
            receipt.refuse(.unknownAuthor)
            return receipt
        }
        let intake = mesh!.replica.take(batch, at: trustedNow())
        mesh!.credentials.revocations += intake.revocations
        for der in intake.certificates where !mesh!.credentials.peers.contains(Data(der)) {
            mesh!.credentials.peers.append(Data(der))
        }
        let credentials = mesh!.credentials
        context.surfacing("keep the venue mesh's entries") {
            try store.keep(intake.entries, eventId: eventId)
            try store.setCredentials(credentials, eventId: eventId)
        }
        return intake.receipt
    }

    /// What this door holds of the open event's mesh.
    package var log: MeshLog? { mesh?.log }

    /// The open event's authority certificate (DER), when this door holds the event's mesh
    /// credentials: read from the loaded mesh, not the key store (the station asks each second).
    package var authority: [UInt8]? { mesh.map { Array($0.credentials.authority) } }

    /// The door's key and certificates for the network's TLS; nil without the open event's.
    package func nodeCredentials() -> MeshNodeCredentials? {
        guard let mesh, let key = try? key() else { return nil }
        return MeshNodeCredentials(
            key: key, certificate: Array(mesh.credentials.certificate), authority: Array(mesh.credentials.authority))
    }
}
