import Foundation
import Testing

/// The README's first command works on a fresh machine: it installs every Debian package the
/// build links against before building (`swift run outpost demo` failed with
/// `'turbojpeg.h' file not found` because only the test command installed them).
@Suite("first command on a fresh machine")
struct FirstCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Runs `script` under bash in the repository root with `path` first on PATH; its output.
    static func bash(_ script: String, path: String) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = root
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test(
        "first-command-installs-build-packages: the README's first command installs every package Package.swift links")
    func packagesCovered() throws {
        let manifest = try Self.text("Package.swift")
        let providers = Set(
            manifest.matches(of: /\.apt\(\[([^\]]*)\]\)/).flatMap { match in
                match.1.split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            })
        #expect(providers.count >= 5, "the manifest's system libraries: \(providers.sorted())")
        let listed = try Self.bash(
            "source scripts/lib/packages.sh; printf '%s\\n' \"${build_packages[@]}\"", path: "/usr/bin")
        let buildPackages = Set(listed.output.split(separator: "\n").map(String.init))
        #expect(
            providers.isSubset(of: buildPackages),
            "missing from build_packages: \(providers.subtracting(buildPackages))")
        // The README's first command is the script that installs them, and it installs them first.
        let readme = try Self.text("README.md")
        let commands = try #require(readme.firstMatch(of: /```sh\n([^\n]*)\n/)?.1)
        #expect(commands.hasPrefix("scripts/demo "))
        let demo = try Self.text("scripts/demo")
        let install = try #require(demo.range(of: "ensure_packages \"${build_packages[@]}\""))
        let build = try #require(demo.range(of: #"swift run "${build_flags[@]}" outpost demo"#))
        #expect(install.lowerBound < build.lowerBound)
        // The demo runs on the one build the test command makes (scripts/lib/build.sh), so the
        // fresh-machine check reuses it instead of building the project a second time.
        #expect(try Self.text("scripts/lib/build.sh").firstMatch(of: /\n\s*build_flags=\(/) != nil)
        for script in ["scripts/demo", "scripts/test", "scripts/soak", "scripts/tmux-e2e", "scripts/console-e2e"] {
            #expect(try Self.text(script).contains("source scripts/lib/build.sh"), "\(script) builds elsewhere")
        }
        for script in ["scripts/test", "scripts/soak", "scripts/bench"] {
            #expect(try Self.text(script).contains("ensure_packages \"${build_packages[@]}\""), "\(script)")
        }
    }

    @Test("ensure_packages installs exactly the missing packages through apt-get, and nothing when none is missing")
    func installsMissing() throws {
        let fake = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-apt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: fake, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: fake) }
        let log = fake.appendingPathComponent("apt.log").path
        // dpkg knows every package except those named in $MISSING; apt-get and sudo record what they are asked.
        let scripts = [
            "dpkg": "#!/bin/bash\nfor m in $MISSING; do [ \"$m\" = \"$2\" ] && exit 1; done\nexit 0\n",
            "apt-get": "#!/bin/bash\necho \"apt-get $*\" >> \(log)\n",
            "sudo": "#!/bin/bash\n\"$@\"\n",
        ]
        for (name, body) in scripts {
            let url = fake.appendingPathComponent(name)
            try body.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        let missing = try Self.bash(
            "MISSING='libturbojpeg0-dev libpng-dev' source scripts/lib/packages.sh && "
                + "MISSING='libturbojpeg0-dev libpng-dev' ensure_packages \"${build_packages[@]}\"", path: fake.path)
        #expect(missing.status == 0, "\(missing.output)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(calls.first == "apt-get update -qq")
        #expect(calls.last == "apt-get install -y -qq libpng-dev libturbojpeg0-dev")
        try FileManager.default.removeItem(atPath: log)
        let none = try Self.bash(
            "source scripts/lib/packages.sh && MISSING='' ensure_packages \"${build_packages[@]}\"", path: fake.path)
        #expect(none.status == 0)
        #expect(!FileManager.default.fileExists(atPath: log), "nothing to install: apt-get is not called")
    }
}
