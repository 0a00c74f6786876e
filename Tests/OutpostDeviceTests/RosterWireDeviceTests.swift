import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import Testing

@Suite("The roster's compact wire form on the device")
struct RosterWireDeviceTests {
    /// Passes requests on and, for roster requests, records what came back; `mode` changes them.
    final class RosterWireTransport: Transport, @unchecked Sendable {
        enum Mode {
            /// As it is.
            case pass
            /// The request's Accept header removed: a server (or proxy) that only speaks JSON.
            case jsonOnly
            /// The answer's last bytes cut off while it still says protobuf.
            case truncate
        }

        let inner: any Transport
        let mode: Mode
        private let lock = NSLock()
        private var seen: [(accept: String?, contentType: String?)] = []

        init(_ inner: any Transport, mode: Mode) {
            self.inner = inner
            self.mode = mode
        }

        var rosterAnswers: [(accept: String?, contentType: String?)] { lock.withLock { seen } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            guard request.path.contains("/roster") else { return try await inner.send(request) }
            var request = request
            if mode == .jsonOnly { request.headers["Accept"] = nil }
            var response = try await inner.send(request)
            if mode == .truncate, response.status == 200 { response.body = response.body.dropLast(5) }
            lock.withLock { seen.append((request.headers["Accept"], response.contentType)) }
            return response
        }
    }

    /// Device `name`, its transport wrapped in `mode`, signed in as staff with the world's event
    /// open, asking for pages of 12; the box holds the wrapper with the roster answers it saw.
    @MainActor
    static func openDevice(
        _ lab: DeviceLab, _ name: String, mode: RosterWireTransport.Mode
    ) async throws -> (DeviceApp, LockedBox<RosterWireTransport?>) {
        let (app, box) = try lab.launch(name, wrapping: { RosterWireTransport($0, mode: mode) })
        app.rosterPageSize = 12
        await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
        await app.openEvent(lab.world.event.id)
        return (app, box)
    }

    @Test("roster-device-syncs-protobuf: the device asks for the compact form and stores every guest from it")
    func syncsProtobuf() async throws {
        try await DeviceLab.run(guests: 30) { lab in
            let (app, box) = try await Self.openDevice(lab, "wire", mode: .pass)
            #expect(app.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "30")
            let answers = try #require(box.value).rosterAnswers
            #expect(answers.count == 3, "three pages of 12")
            #expect(answers.allSatisfy { $0.accept == RosterWire.deviceAccept })
            #expect(answers.allSatisfy { $0.contentType == RosterWire.protobufMediaType })
            let guest = lab.world.guests[7]
            // What came through the compact form is the guest as the server has them.
            app.lookup(guest.email)
            #expect(
                app.tree().elements(UIIdentifier.manualEntrySuggestion).contains {
                    $0.attributes["guestId"] == guest.id.wire && $0.attributes["code"] == guest.code
                        && $0.text.hasPrefix(guest.name)
                })
        }
    }

    @Test("roster-device-reads-json: from a server that answers JSON the device syncs as before")
    func readsJSON() async throws {
        try await DeviceLab.run(guests: 30) { lab in
            let (app, box) = try await Self.openDevice(lab, "json", mode: .jsonOnly)
            #expect(app.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "30")
            let answers = try #require(box.value).rosterAnswers
            #expect(!answers.isEmpty && answers.allSatisfy { $0.contentType == "application/json" })
        }
    }

    @Test("roster-device-refuses-cut-protobuf: a cut compact page stores nothing and the next sync gets all")
    func refusesCutProtobuf() async throws {
        try await DeviceLab.run(guests: 30) { lab in
            let (app, box) = try await Self.openDevice(lab, "cut", mode: .truncate)
            let answers = try #require(box.value).rosterAnswers
            #expect(answers.count == 1, "the first page failed; no second was asked")
            #expect(app.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "0")
            let again = try lab.launch("cut", transport: { RosterWireTransport($0, mode: .pass) })
            again.rosterPageSize = 12
            await again.openEvent(lab.world.event.id)
            #expect(again.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "30")
        }
    }
}
