import Foundation
import OutpostLab
import Testing

extension SMTPSink {
    /// A sink for a test; outside `scripts/test` (no aiosmtpd) the test is cancelled, saying why.
    package static func startForTest(port: Int? = nil) async throws -> SMTPSink {
        guard let python else {
            print(skipMessage)
            try Test.cancel(Comment(rawValue: skipMessage))
        }
        return try await start(python: python, port: port)
    }
}
