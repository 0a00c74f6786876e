import Foundation
import OutpostLab

/// The browser of the single sign-on tests: curl, one request at a time, never following a
/// redirect (each hop is looked at), with a cookie jar of its own (the console's cookies).
package final class Browser: @unchecked Sendable {
    /// One answer: the status, where it redirects (if it does) and the body.
    package struct Answer: Sendable {
        package var status: Int
        package var location: String?
        package var body: String

        /// The query items of the redirect.
        package var locationQuery: [String: String] {
            guard let location, let components = URLComponents(string: location) else { return [:] }
            var items: [String: String] = [:]
            for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
            return items
        }
    }

    private let jar: URL

    package init() {
        jar = FileManager.default.temporaryDirectory.appendingPathComponent("outpost-browser-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: jar) }

    package func get(_ url: String) async throws -> Answer {
        try await Self.send("GET", url, jar: jar)
    }

    package func post(_ url: String, form: [(String, String)]) async throws -> Answer {
        let body: String = form.map { (name: String, value: String) -> String in
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            return "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
        return try await Self.send(
            "POST", url, body: Data(body.utf8), contentType: "application/x-www-form-urlencoded", jar: jar,
            origin: URLComponents(string: url).map { "\($0.scheme ?? "http")://\($0.host ?? ""):\($0.port ?? 80)" })
    }

    /// Signs in at the provider's authorization page as `subject` (the provider's login form
    /// takes the subject alone): the redirect back to the server's callback.
    package func signInAtProvider(_ authorization: String, subject: String) async throws -> Answer {
        try await post(authorization, form: [("sub", subject)])
    }

    package static func get(_ url: String) async throws -> Answer { try await send("GET", url) }

    /// One request with curl (off Swift concurrency's threads: ``Blocking``); `location` is the
    /// absolute redirect.
    package static func send(
        _ method: String, _ url: String, body: Data? = nil, contentType: String? = nil, jar: URL? = nil,
        origin: String? = nil
    ) async throws -> Answer {
        try await Blocking.run {
            try curl(method, url, body: body, contentType: contentType, jar: jar, origin: origin)
        }
    }

    private static func curl(
        _ method: String, _ url: String, body: Data?, contentType: String?, jar: URL?, origin: String?
    ) throws -> Answer {
        let marker = "\n--outpost-browser--"
        var arguments = ["-s", "-X", method, "-w", marker + "%{http_code} %{redirect_url}", "--max-time", "20"]
        if let jar { arguments += ["-b", jar.path, "-c", jar.path] }
        if let contentType { arguments += ["-H", "Content-Type: \(contentType)"] }
        if let origin { arguments += ["-H", "Origin: \(origin)"] }
        if body != nil { arguments += ["--data-binary", "@-"] }
        arguments.append(url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = arguments
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        if let body { input.fileHandleForWriting.write(body) }
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let range = text.range(of: marker, options: .backwards) else {
            throw CleanFailure("curl \(method) \(url) failed (exit \(process.terminationStatus))")
        }
        let tail = text[range.upperBound...].split(separator: " ", maxSplits: 1).map(String.init)
        return Answer(
            status: Int(tail.first ?? "") ?? 0, location: tail.count > 1 && !tail[1].isEmpty ? tail[1] : nil,
            body: String(text[..<range.lowerBound]))
    }
}
