import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// What the venue mesh costs at a door that has no peers: scan and confirm on the event-day
/// modules (the mesh loaded, each confirm signing an entry into the door's log inside the
/// check-in's transaction) beside the same modules without the mesh, on one roster, in the same
/// run, the two doors taking turns ticket by ticket so that a drift of the machine falls on both.
extension Bench {
    static let meshCostGuests = 2_000

    @MainActor
    func measureMeshCost(server: ServerHandle, work: URL) async throws -> [BenchFigure] {
        let samples = quick || check ? 200 : 1000
        let guests = Self.meshCostGuests
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let seeded = try await server.seed(guests: guests)
        let withoutMesh = DeviceModules(DeviceModules.eventDay.types.filter { $0.name != "mesh" })
        var doors: [DeviceApp] = []
        for (name, modules) in [("meshed", DeviceModules.eventDay), ("plain", withoutMesh)] {
            let home = work.appendingPathComponent(name)
            let app = try DeviceApp.launch(home: home, ports: Self.ports(home), modules: modules).opened()
            await app.signIn(server: server.url, email: ServerHandle.email, password: ServerHandle.password)
            await app.openEvent(seeded.eventId)
            app.update { $0.online = false }
            doors.append(app)
        }
        let meshed = doors[0]
        guard meshed.meshDevice != nil, doors[1].meshDevice == nil else {
            throw CleanFailure("bench: the meshed door has no mesh credentials, or the plain one has")
        }
        let tickets = try await server.organizer.tickets(
            event: seeded.eventId, guests: Array(seeded.guestIds.prefix(2 * samples)))
        var scans = [Samples(), Samples()]
        var confirms = [Samples(), Samples()]
        for (index, ticket) in tickets.enumerated() {
            let door = index % 2
            let app = doors[door]
            scans[door].time { app.scan(ticket) }
            let start = ContinuousClock.now
            await app.confirm(replayAfter: false)
            confirms[door].seconds.append((ContinuousClock.now - start).seconds)
        }
        guard meshed.meshLog?.count == tickets.count / 2 + tickets.count % 2 else {
            throw CleanFailure("bench: the meshed door signed \(meshed.meshLog?.count ?? 0) entries")
        }
        let figures = [
            BenchFigure(
                name: "scan to decision with the venue mesh (no peers), \(guests) guests",
                median: scans[0].median * 1000, p99: scans[0].p99 * 1000, unit: "ms",
                floorName: "the same door without the mesh", floor: scans[1].median * 1000,
                ratio: scans[0].median / scans[1].median),
            BenchFigure(
                name: "confirm with the venue mesh (no peers), \(guests) guests", median: confirms[0].median * 1000,
                p99: confirms[0].p99 * 1000, unit: "ms", floorName: "the same door without the mesh",
                floor: confirms[1].median * 1000, ratio: confirms[0].median / confirms[1].median,
                note: "p99 without the mesh \(String(format: "%.2f", confirms[1].p99 * 1000)) ms"),
        ]
        for figure in figures {
            FileHandle.standardError.write(Data("  \(figure.name): \(Self.describe(figure))\n".utf8))
        }
        return figures
    }
}
