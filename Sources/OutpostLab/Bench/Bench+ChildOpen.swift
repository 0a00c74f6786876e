import Foundation
import OutpostDevice

/// The device opened cold in a process of its own: its peak resident memory read from that
/// process's `/proc/self/status`, with nothing of the bench's (the seeded roster, the device the
/// bench keeps open) in it. A phone's memory limit is per app, so this is the figure it meets.
extension Bench {
    struct ChildOpen: Codable {
        /// The process before the device opened (the runtime and the binary).
        var residentBeforeMiB: Double
        /// The process's peak (`VmHWM`) after the launch, a search and the first tree. It counts
        /// the pages of the store SQLite maps (`DeviceStore.mmapBytes`) as they are read.
        var peakMiB: Double
        /// The process's own memory (``ResidentMemory/anonymousMiB()``) before the launch and
        /// after it, the index open: the index is the one thing the open keeps, and the parts of
        /// its snapshot are opened one at a time, so this is the open's own peak within a part.
        var anonymousBeforeMiB: Double
        var anonymousAfterMiB: Double
        var guests: Int

        /// The open's own memory per guest, in bytes.
        var anonymousBytesPerGuest: Int {
            Int((anonymousAfterMiB - anonymousBeforeMiB) * 1_048_576 / Double(max(guests, 1)))
        }
    }

    /// `outpost bench --open-device HOME`: opens the device at `home` as a launch does (the
    /// migrations, the search index from its snapshot, a first search, the first tree) and
    /// returns what it measured as one line of JSON.
    /// A snapshot the open had to build is written before the process ends, so the next open
    /// reads it.
    @MainActor
    package static func openDeviceHere(home: URL) async throws -> String {
        let before = ResidentMemory.currentMiB()
        let anonymousBefore = ResidentMemory.anonymousMiB()
        let app = try DeviceApp.launch(home: home, ports: ports(home, online: false), modules: .eventDay).opened()
        app.lookup("a")
        // A locked device (its unlock window passed) refuses the search, and a store that does
        // not read shows its fault: either way the figure would be a launch without the index,
        // which is not what it names.
        if let refusal = app.refusal {
            throw CleanFailure("The device at \(home.path) refused the search, so its index was not opened: \(refusal)")
        }
        if let fault = app.tree().element(UIIdentifier.storageFaultBanner) {
            throw CleanFailure(
                "The device at \(home.path) could not read its store (\(fault.attributes["error"] ?? fault.text)).")
        }
        let guests = Int(app.tree().element(UIIdentifier.rosterList)?.attributes["count"] ?? "") ?? 0
        let report = ChildOpen(
            residentBeforeMiB: before, peakMiB: ResidentMemory.peakMiB(), anonymousBeforeMiB: anonymousBefore,
            anonymousAfterMiB: ResidentMemory.anonymousMiB(), guests: guests)
        await app.indexSnapshotWritten()
        return String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
    }

    /// Runs ``openDeviceHere(home:)`` in a child `outpost` and reads its line.
    static func childOpen(home: URL) throws -> ChildOpen {
        let (stdout, status) = try LabProcess.run(["bench", "--open-device", home.path])
        guard status == 0, let line = stdout.split(separator: "\n").last,
            let report = try? JSONDecoder().decode(ChildOpen.self, from: Data(line.utf8))
        else {
            throw CleanFailure("The device did not open in a child process (exit status \(status)).")
        }
        return report
    }
}
