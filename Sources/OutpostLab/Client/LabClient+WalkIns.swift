import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol

/// The walk-in calls (seed 000's Walk-Ins tab) the lab, the soak and the tests make.
extension LabClient {
    /// `POST …/walkins` with the Idempotency-Key of its body; the raw answer.
    package func addWalkIn(event: EventID, _ walkIn: WalkInRequest) async throws -> TransportResponse {
        try await request(
            API.addWalkIn.line(event), json: walkIn, headers: ["Idempotency-Key": walkIn.idempotencyKey.description])
    }

    /// `POST …/walkin-leases`; the raw answer (a 409 when no places are left is an answer).
    package func leaseWalkIns(event: EventID, _ request: WalkInLeaseRequest) async throws -> TransportResponse {
        try await self.request(API.leaseWalkIns.line(event), json: request)
    }

    /// `POST …/walkin-leases/{id}/seal`; the raw answer.
    package func sealWalkInLease(event: EventID, lease: WalkInLeaseID, used: Int) async throws -> TransportResponse {
        try await request(API.sealWalkInLease.line(event, lease), json: WalkInSealRequest(used: used))
    }

    package func walkIns(event: EventID) async throws -> [WalkInRecord] {
        try await call(API.listWalkIns, event, what: "listing the walk-ins").walkIns
    }

    package func walkInSummary(event: EventID) async throws -> WalkInSummary {
        try await call(API.walkInSummary, event, what: "the walk-in summary")
    }
}
