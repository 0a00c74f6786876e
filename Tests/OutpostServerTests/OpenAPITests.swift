import Foundation
import OutpostProtocol
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

    /// `METHOD /path/{param}` for every route the server registers.
    static func servedOperations() throws -> Set<String> {
        let dependencies = ServerDependencies(
            configuration: ServerConfiguration(store: .sqliteInMemory), store: Store(database: try SQLiteDatabase()),
            logger: TestStores.logger)
        let router = OutpostServer.buildRouter(dependencies)
        return Set(
            router.routes.map { route -> String in
                let path = "\(route.path)"
                    .split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                    .joined(separator: "/")
                return "\(route.method.rawValue) /\(path)"
            })
    }

    @Test("every served route is documented and every documented route is served")
    func routesMatch() throws {
        let served = try Self.servedOperations()
        let documented = try Self.documentedOperations()
        #expect(served.count >= 17)
        #expect(
            served.subtracting(documented).isEmpty,
            "served but not documented: \(served.subtracting(documented).sorted())")
        #expect(
            documented.subtracting(served).isEmpty,
            "documented but not served: \(documented.subtracting(served).sorted())")
    }

    @Test("typed-api-description: the route description is what the server serves and openapi.yaml documents")
    func descriptionMatches() throws {
        let described = (API.all + ConsolePages.all).map(\.description)
        #expect(Set(described).count == described.count, "a route is described twice")
        let served = try Self.servedOperations()
        let documented = try Self.documentedOperations()
        #expect(
            Set(described) == served,
            "described but not served: \(Set(described).subtracting(served).sorted()); served but not described: \(served.subtracting(described).sorted())"
        )
        #expect(
            Set(described) == documented,
            "described but not documented: \(Set(described).subtracting(documented).sorted()); documented but not described: \(documented.subtracting(described).sorted())"
        )
        for route in API.all + ConsolePages.all {
            #expect(
                route.parameterNames.count == route.parameterTypes.count,
                "\(route) names \(route.parameterNames) but takes \(route.parameterTypes)")
        }
    }

    /// Every link, form action and script the console's templates name is a page of the
    /// description (`{{event.id}}` standing for a path parameter).
    @Test("typed-api-description: the console templates link only to described pages")
    func templateLinks() throws {
        let pages = ConsolePages.all.map { $0.template.replacing(/\{[A-Za-z]+\}/, with: "{}") }
        var links: [String] = []
        for template in ConsoleTemplates.all.values {
            for match in template.matches(of: /(?:href|action|src|data-action|data-stream)="(\/admin[^"?]*)/) {
                links.append(String(match.1).replacing(/\{\{[A-Za-z.]+\}\}/, with: "{}"))
            }
        }
        #expect(links.count >= 30, "found \(links.count) links")
        for link in links {
            #expect(pages.contains(link), "the templates link to \(link), which no console page is")
        }
    }

    /// The generator and the validators read a flow mapping's unquoted comma as the end of its
    /// value: `description: First day, inclusive., schema: …` made a key `inclusive.`, which
    /// swift-openapi-generator refused while schemathesis took it silently.
    @Test("typed-api-description: openapi.yaml's one-line parameters hold only parameter keys")
    func flowMappings() throws {
        let allowed: Set<String> = ["name", "in", "required", "description", "schema", "example"]
        let text = try String(contentsOf: Self.specURL, encoding: .utf8)
        var checked = 0
        for line in text.split(separator: "\n") where line.contains("- { name:") {
            checked += 1
            guard let open = line.firstIndex(of: "{"), let close = line.lastIndex(of: "}") else { continue }
            let inner = line[line.index(after: open)..<close]
            var depth = 0
            var quoted = false
            var piece = ""
            var keys: [String] = []
            for character in inner {
                if character == "\"" { quoted.toggle() }
                if !quoted, character == "{" || character == "[" { depth += 1 }
                if !quoted, character == "}" || character == "]" { depth -= 1 }
                if !quoted, depth == 0, character == "," {
                    keys.append(piece)
                    piece = ""
                } else {
                    piece.append(character)
                }
            }
            keys.append(piece)
            for key in keys.map({ $0.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
            ) {
                #expect(
                    allowed.contains(key),
                    "openapi.yaml: \(line.trimmingCharacters(in: .whitespaces)) has the key '\(key)'")
            }
        }
        #expect(checked >= 10)
    }
}
