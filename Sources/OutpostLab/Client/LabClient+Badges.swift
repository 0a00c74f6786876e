import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// The badge calls (seed 000's Print tab) the lab and the tests make.
extension LabClient {
    package func setBadgeLayout(event: EventID, _ layout: BadgeLayout) async throws -> BadgeLayout {
        try await call(API.setBadgeLayout, event, json: layout, what: "setting the badge layout")
    }

    package func badgePrints(event: EventID) async throws -> BadgePrintList {
        try await call(API.listBadgePrints, event, what: "the badge prints")
    }

    /// `PUT …/badge-prints/{printId}`; the raw answer.
    package func recordBadgePrint(event: EventID, _ record: BadgePrintRecord) async throws -> TransportResponse {
        try await request(API.recordBadgePrint.line(event, record.id), json: record)
    }
}
