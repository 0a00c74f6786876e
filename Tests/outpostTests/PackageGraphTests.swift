import Foundation
import Testing

/// The device's shell and modules as Package.swift declares them, and as the sources import
/// them: the shell names no module, a module uses another only where Package.swift says so,
/// and no source imports a target of this package it does not declare.
@Suite("The package's target graph")
struct PackageGraphTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let shell = "OutpostShell"
    static let modules: Set<String> = ["OutpostCheckIn", "OutpostKiosk", "OutpostTracking", "OutpostActivities"]
    /// The only dependencies between modules: kiosk checks guests in through check-in.
    static let moduleDependencies: [String: Set<String>] = ["OutpostKiosk": ["OutpostCheckIn"]]
    /// The composition target, which names every module.
    static let composition = "OutpostDevice"

    struct Target {
        var name: String
        var isTest: Bool
        var dependencies: Set<String>
        var folder: URL
    }

    /// Every target with its declared dependencies on this package's targets, read from
    /// `swift package dump-package` (in a scratch folder of its own: the build's is locked
    /// while the tests run).
    static func targets() throws -> [String: Target] {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "outpost-graph-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--scratch-path", scratch.path, "dump-package"]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package dump-package failed")
        let package = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let all = try #require(package["targets"] as? [[String: Any]])
        let names = Set(all.compactMap { $0["name"] as? String })
        var targets: [String: Target] = [:]
        for target in all {
            guard let name = target["name"] as? String, let type = target["type"] as? String, type != "system" else {
                continue
            }
            var dependencies: Set<String> = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                for kind in ["byName", "target"] {
                    if let value = (dependency[kind] as? [Any])?.first as? String, names.contains(value) {
                        dependencies.insert(value)
                    }
                }
            }
            let isTest = type == "test"
            let folder = root.appendingPathComponent(
                (target["path"] as? String) ?? ((isTest ? "Tests/" : "Sources/") + name))
            targets[name] = Target(name: name, isTest: isTest, dependencies: dependencies, folder: folder)
        }
        return targets
    }

    /// The modules of this package each Swift file under `folder` imports (any kind of import).
    static func imports(in folder: URL, of names: Set<String>) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                continue
            }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") })
                else { continue }
                let module = words[index + 1]
                if names.contains(module) { found[file.lastPathComponent, default: []].insert(module) }
            }
        }
        return found
    }

    @Test(
        "package-graph: the shell depends on and imports no module; a module depends on and imports only the shell and the modules Package.swift declares"
    )
    func moduleBoundaries() throws {
        let targets = try Self.targets()
        let shell = try #require(targets[Self.shell])
        #expect(shell.dependencies.isDisjoint(with: Self.modules.union([Self.composition])), "\(shell.dependencies)")
        for (file, modules) in Self.imports(in: shell.folder, of: Self.modules.union([Self.composition])) {
            Issue.record("the shell's \(file) imports \(modules.sorted())")
        }
        for module in Self.modules {
            let target = try #require(targets[module], "no target \(module)")
            #expect(target.dependencies.contains(Self.shell), "\(module) does not depend on the shell")
            let others = target.dependencies.intersection(Self.modules.union([Self.composition]))
            #expect(
                others.isSubset(of: Self.moduleDependencies[module] ?? []),
                "\(module) depends on \(others.sorted()), beyond what the design allows")
        }
        // Every module is in the composition, and the probe module's tests see no module.
        let composition = try #require(targets[Self.composition])
        #expect(Self.modules.isSubset(of: composition.dependencies))
        let probe = try #require(targets["OutpostShellTests"])
        #expect(probe.dependencies.isDisjoint(with: Self.modules.union([Self.composition])), "\(probe.dependencies)")
    }

    @Test("package-graph: docs/targets.dot, the picture's source, is what Package.swift declares")
    func pictureIsCurrent() throws {
        let process = Process()
        process.executableURL = Self.root.appendingPathComponent("scripts/target-graph")
        process.arguments = ["--check"]
        process.currentDirectoryURL = Self.root
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run scripts/target-graph")
    }

    @Test("package-graph: no source comment cites an issue number (the code says what it means)")
    func noIssueNumbers() throws {
        var cited: [String] = []
        for folder in ["Sources", "Tests", "scripts"] {
            let files = FileManager.default.enumerator(
                at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard ["swift", "py", ""].contains(file.pathExtension), !file.path.contains("/Fixtures/"),
                    let text = try? String(contentsOf: file, encoding: .utf8)
                else { continue }
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.range(of: #"\bissues? #?\d+"#, options: [.regularExpression, .caseInsensitive]) != nil
                    && !line.contains("swift-corelibs-foundation") && !line.contains("range(of:")
                {
                    cited.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(cited.isEmpty, "\(cited)")
    }

    /// The files that describe routes: the API's table, the console's pages, and the console's
    /// templates (whose links `OpenAPITests` holds to the pages).
    static let routeDescription = [
        "Sources/OutpostProtocol/API/", "Sources/OutpostServer/Console/ConsolePages.swift",
        "Sources/OutpostServer/Console/ConsoleTemplates.swift",
    ]

    @Test("typed-api-literals: no source outside the route description writes a route's path")
    func noRouteLiterals() throws {
        var found: [String] = []
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            let relative = String(file.standardized.path.dropFirst(Self.root.standardized.path.count + 1))
            guard file.pathExtension == "swift", !Self.routeDescription.contains(where: relative.hasPrefix),
                let text = try? String(contentsOf: file, encoding: .utf8)
            else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                && line.contains(/"\/(?:v1\/|admin\b|health"|metrics")/)
            {
                found.append("\(relative):\(number + 1)")
            }
        }
        #expect(found.isEmpty, "route paths written outside the route description: \(found)")
    }

    @Test(
        "typed-ids-server: the server's records, callers and store functions hold typed ids; no declaration there is a raw UUID"
    )
    func serverIdsTyped() throws {
        var raw: [String] = []
        var scanned = 0
        let server = Self.root.appendingPathComponent("Sources/OutpostServer")
        let files = FileManager.default.enumerator(at: server, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            // SQLValue binds and reads UUIDs for the ids that have no kind (a check-in event's row).
            guard file.pathExtension == "swift", file.lastPathComponent != "SQLValue.swift",
                let text = try? String(contentsOf: file, encoding: .utf8)
            else { continue }
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(/:\s*\[?UUID\b/) {
                raw.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(scanned > 80, "the scan saw the server (\(scanned) files)")
        #expect(raw.isEmpty, "raw UUIDs declared in the server: \(raw)")
    }

    @Test(
        "module-store-own: a module reaches the store only through its own handle (ModuleStore of itself), never the device store or another module's tables' functions"
    )
    func moduleStoreOwn() throws {
        var crossing: [String] = []
        for target in Self.modules.sorted() {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            var texts: [(String, String)] = []
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                    continue
                }
                texts.append((file.lastPathComponent, text))
            }
            let owners = texts.compactMap { $0.1.firstMatch(of: /final class (\w+): DeviceModule/)?.output.1 }
            try #require(owners.count == 1, "\(target) declares one module: \(owners)")
            let own = String(owners[0])
            for (name, text) in texts {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.components(separatedBy: "//")[0]
                    let named = code.matches(of: /ModuleStore<(\w+)>|Owner == (\w+)/).map {
                        String($0.output.1 ?? $0.output.2 ?? "")
                    }
                    if code.contains(/\bDeviceStore\b(?!Error)/) || named.contains(where: { $0 != own }) {
                        crossing.append("\(target)/\(name):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(crossing.isEmpty, "a module reaching past its own store handle: \(crossing)")
    }

    /// The device targets whose every `try?` carries its reason; the module targets join as
    /// their audit lands (everything else there surfaces through ``StorageFaults`` or a refusal).
    static let reasonedTargets = [
        "OutpostShell", "OutpostCheckIn", "OutpostKiosk", "OutpostWalkIns", "OutpostNotes", "OutpostPrint",
        "OutpostZones", "OutpostPickup", "OutpostLeads", "OutpostTracking", "OutpostActivities",
    ]

    @Test("try-reasons: every try? in the audited device targets has a one-line reason beside it")
    func tryReasons() throws {
        var silent: [String] = []
        for target in Self.reasonedTargets {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                    continue
                }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                for (index, line) in lines.enumerated() {
                    let code = line.components(separatedBy: "//")[0]
                    guard code.contains(/\btry\?/) else { continue }
                    // A comment on the line, or in the four lines above (a statement's own comment).
                    let above = lines[max(0, index - 4)..<index]
                    if line.contains("//")
                        || above.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") })
                    {
                        continue
                    }
                    silent.append("\(target)/\(file.lastPathComponent):\(index + 1)")
                }
            }
        }
        #expect(silent.isEmpty, "a try? without its reason: \(silent)")
    }

    /// The front-ends: the terminals, the report and the CLI.
    static let frontEnds = ["OutpostTerminal", "OutpostReport", "outpost"]

    @Test(
        "typed-screens-front-ends: no front-end reads an element's attributes or splits its words; they read the typed screen models"
    )
    func frontEndsReadTypedModels() throws {
        var parsing: [String] = []
        var scanned = 0
        for target in Self.frontEnds {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else {
                    continue
                }
                scanned += 1
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.components(separatedBy: "//")[0]
                    // An attribute is the tree's copy of a typed value; " · " joins a screen's words.
                    if code.contains(/\.attributes\b/) || code.contains(/(separatedBy|split\(separator): " · "/) {
                        parsing.append("\(target)/\(file.lastPathComponent):\(index + 1): \(line)")
                    }
                }
            }
        }
        #expect(scanned > 30, "the scan saw the front-ends (\(scanned) files)")
        #expect(parsing.isEmpty, "a front-end reads display values: \(parsing)")
    }

    @Test("package-graph: no source imports a target of this package that its target does not declare")
    func importsAreDeclared() throws {
        let targets = try Self.targets()
        let names = Set(targets.keys)
        var checked = 0
        for target in targets.values {
            for (file, modules) in Self.imports(in: target.folder, of: names) {
                checked += 1
                let undeclared = modules.subtracting(target.dependencies).subtracting([target.name])
                #expect(undeclared.isEmpty, "\(target.name)'s \(file) imports \(undeclared.sorted()), not declared")
            }
        }
        #expect(checked > 100, "the scan saw the sources (\(checked) files)")
    }
}
