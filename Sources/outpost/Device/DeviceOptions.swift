import ArgumentParser
import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTerminal

/// `--home` and `--json`, shared by every device command.
struct DeviceOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The device's state directory (default: $OUTPOST_DEVICE_HOME, else ~/.outpost/device).", valueName: "dir"))
    var home: String =
        ProcessInfo.processInfo.environment["OUTPOST_DEVICE_HOME"]
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".outpost/device").path

    @Flag(help: "Print the UI tree after the command as one JSON object on the last line.")
    var json = false

    var homeURL: URL { URL(fileURLWithPath: home) }

    /// Launches the app with the simulator's switches from `sim.json`.
    @MainActor
    func launch() throws -> DeviceApp {
        let settings = try SimulatorSettings.load(home: homeURL)
        let skew = settings.clockSkew
        let frozen = settings.frozenAt
        let camera = settings.camera
        let battery = settings.battery
        let gps = settings.gps
        let permission = settings.locationPermission
        let keyStore = FileKeyStore(url: homeURL.appendingPathComponent("device.key"))
        let home = homeURL
        let biometrics = SimulatedBiometrics(
            state: settings.biometric, keyStore: keyStore,
            saved: { state in SimulatorSettings.update(home: home) { $0.biometric = state } })
        let printer = SimulatedBluetoothPrinter(
            state: settings.printer,
            reload: {
                // A sim.json being rewritten this instant reads as the last switches (kept in memory).
                try? SimulatorSettings.load(home: home).printer
            },
            saved: { state in SimulatorSettings.update(home: home) { $0.printer = state } })
        let queues = settings.printerQueues.compactMap { URL(string: $0).flatMap { CUPSBadgePrinter(queue: $0) } }
        let ports = DevicePorts(
            keyStore: keyStore, transport: OfflineTransport(), camera: { camera }, platform: settings.platform,
            clock: WallClock { (frozen ?? Date()).addingTimeInterval(skew) }, online: settings.network,
            battery: { battery },
            biometrics: biometrics, memory: FileProcessMemory(url: SimulatorSettings.memoryURL(homeURL)),
            gps: { gps }, locationPermission: { permission }, language: settings.language,
            printers: LinuxBadgePrinters(bluetooth: printer, queues: queues))
        let launched = DeviceApp.launch(
            home: homeURL, ports: ports, modules: .all, simulateMigrationFailure: settings.migrationFailure,
            makeTransport: { LiveTransport.make(baseURL: $0, timeout: 10) })
        switch launched {
        case .ready(let app):
            return app
        case .storageError(let failure):
            // The storage-error screen is all there is: shown, and the command stops there.
            try output(failure.tree())
            throw Self.refused(failure.description)
        }
    }

    /// One app launch of a command: launch, carry out `action`, print the tree after it; a
    /// refused action then exits with ``refusedStatus``.
    @MainActor
    func perform(_ action: @MainActor (DeviceApp) async throws -> Void) async throws {
        let app = try launch()
        try await action(app)
        try await conclude(app)
    }

    /// The exit status of a command whose action the app refused (an unknown id, an overlap, a
    /// sign-out with entries waiting): the tree is printed as always, with its `refusal`, and the
    /// refusal's sentence goes to standard error. Usage errors exit 64, failures 1.
    static let refusedStatus: Int32 = 3

    /// The end of a command: the tree, the background writes waited for, and the exit status.
    @MainActor
    func conclude(_ app: DeviceApp) async throws {
        try output(app)
        await finish(app)
        if let refusal = app.refusal { throw Self.refused(refusal) }
    }

    /// Says why on standard error; the error to throw exits with ``refusedStatus``.
    static func refused(_ sentence: String) -> ExitCode {
        FileHandle.standardError.write(Data("refused: \(sentence)\n".utf8))
        return ExitCode(refusedStatus)
    }

    /// The end of a launch is the app leaving: what it writes in the background (the search
    /// index's snapshot) is waited for, or every command would rebuild the index again.
    @MainActor
    func finish(_ app: DeviceApp) async {
        await app.indexSnapshotWritten()
    }

    /// Prints the UI tree: JSON on the last line with `--json`, else the terminal rendering.
    @MainActor
    func output(_ app: DeviceApp) throws {
        try output(app.tree())
    }

    /// Prints `tree`: JSON on the last line with `--json`, else the terminal rendering.
    func output(_ tree: UITree) throws {
        if json {
            print(String(decoding: try OutpostJSON.encode(tree), as: UTF8.self))
        } else {
            for line in TreeRenderer(width: 80).render(tree) { print(line) }
        }
    }
}

/// The simulator's switches (Detox's device API), kept in `sim.json` under the device home.
struct SimulatorSettings: Codable {
    var network = true
    var camera = CameraPermission.granted
    var battery = 100
    var platform = PlatformInfo(os: .ios, version: "17.5")
    var clockSkew: Double = 0
    /// `sim time freeze`: the clock stands here (plus `clockSkew`, which `time advance` adds).
    var frozenAt: Date?
    var migrationFailure = false
    /// The biometric sensor, the OS prompt and the device passcode.
    var biometric = SimulatedBiometrics.State()
    /// Where an active GPS fetch finds the phone (nil: the fetch fails).
    var gps: GeoFix?
    var locationPermission = LocationPermission.always
    var language = AppLanguage.en
    /// The simulated Bluetooth label printer.
    var printer = SimulatedBluetoothPrinter.State()
    /// CUPS queues in reach (`outpost device printer add-queue`), as IPP addresses.
    var printerQueues: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = SimulatorSettings()
        network = try container.decodeIfPresent(Bool.self, forKey: .network) ?? defaults.network
        camera = try container.decodeIfPresent(CameraPermission.self, forKey: .camera) ?? defaults.camera
        battery = try container.decodeIfPresent(Int.self, forKey: .battery) ?? defaults.battery
        platform = try container.decodeIfPresent(PlatformInfo.self, forKey: .platform) ?? defaults.platform
        clockSkew = try container.decodeIfPresent(Double.self, forKey: .clockSkew) ?? defaults.clockSkew
        frozenAt = try container.decodeIfPresent(Date.self, forKey: .frozenAt)
        migrationFailure = try container.decodeIfPresent(Bool.self, forKey: .migrationFailure) ?? false
        biometric =
            try container.decodeIfPresent(SimulatedBiometrics.State.self, forKey: .biometric) ?? defaults.biometric
        gps = try container.decodeIfPresent(GeoFix.self, forKey: .gps)
        locationPermission =
            try container.decodeIfPresent(LocationPermission.self, forKey: .locationPermission)
            ?? defaults.locationPermission
        language = try container.decodeIfPresent(AppLanguage.self, forKey: .language) ?? defaults.language
        printer =
            try container.decodeIfPresent(SimulatedBluetoothPrinter.State.self, forKey: .printer) ?? defaults.printer
        printerQueues = try container.decodeIfPresent([String].self, forKey: .printerQueues) ?? []
    }

    static func url(_ home: URL) -> URL { home.appendingPathComponent("sim.json") }
    /// The app process's memory while it "runs" between commands (`sim kill` deletes it).
    static func memoryURL(_ home: URL) -> URL { home.appendingPathComponent("sim-memory") }

    static func load(home: URL) throws -> SimulatorSettings {
        guard let data = FileManager.default.contents(atPath: url(home).path) else { return SimulatorSettings() }
        do {
            return try JSONDecoder().decode(SimulatorSettings.self, from: data)
        } catch {
            throw ValidationError("\(url(home).path) is not valid simulator settings; delete it to reset the switches.")
        }
    }

    /// Changes the switches a simulated device part keeps (the biometric sensor, the printer)
    /// in `sim.json`: read, changed, written. A file that cannot be read or written keeps what
    /// it had; the part goes on with its switches in memory.
    static func update(home: URL, _ change: (inout SimulatorSettings) -> Void) {
        guard var current = try? load(home: home) else { return }
        change(&current)
        try? current.save(home: home)
    }

    func save(home: URL) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: Self.url(home), options: .atomic)
    }
}
