import Foundation
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// `openapi.yaml` describes every route the server serves, and nothing it does not.
@Suite("OpenAPI description")
struct OpenAPITests {
    static var specURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../openapi.yaml")
            .standardized
    }

    /// `METHOD /path/{param}` for every operation in the spec (a line-level read of its `paths`).
    static func documentedOperations() throws -> Set<String> {
        let lines = try String(contentsOf: specURL, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var operations: Set<String> = []
        var inPaths = false
        var currentPath: String?
        for line in lines {
            if line == "paths:" { inPaths = true; continue }
            if inPaths, !line.hasPrefix(" "), !line.isEmpty { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     ") {
                let key = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "post", "put", "patch", "delete"].contains(String(key)) {
                    operations.insert("\(key.uppercased()) \(path)")
                }
            }
        }
        return operations
    }

    @Test("every served route is documented and every documented route is served")
    func routesMatch() throws {
        let dependencies = ServerDependencies(
            configuration: ServerConfiguration(store: .sqliteInMemory), store: Store(database: try SQLiteDatabase()),
            logger: TestStores.logger)
        let router = OutpostServer.buildRouter(dependencies)
        let served = Set(
            router.routes.map { route -> String in
                let path = "\(route.path)"
                    .split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                    .joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
        let documented = try Self.documentedOperations()
        #expect(served.count >= 17)
        #expect(
            served.subtracting(documented).isEmpty,
            "served but not documented: \(served.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(served).isEmpty,
            "documented but not served: \(documented.subtracting(served).sorted())")
    }
}
