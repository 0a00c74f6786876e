import Foundation
import OutpostProtocol
import OutpostShell

/// Check-in requests unsealed and decoded to be sent, kept until their answers are stored, so a
/// drained entry's request is unsealed and decoded once, not again for its answer. Each is
/// checked against the row's sealed bytes, so a row id used again for another entry never gets
/// another request; what is not here is simply decoded again.
@MainActor
package final class DecodedCheckInRequests {
    private var requests: [OutboxMachine.EntryID: (sealed: Data, request: CheckInRequest)] = [:]
    /// A pass that ends early leaves its requests here; past this many the next batch starts over
    /// (two batches of 500: the one being answered and the one out while its answers are written).
    static let limit = 1_000

    package init() {}

    /// Keeps the requests of `rows`, in order.
    func keep(_ rows: [OutboxRow], _ decoded: [CheckInRequest]) {
        if requests.count + rows.count > Self.limit { requests.removeAll(keepingCapacity: true) }
        for (row, request) in zip(rows, decoded) { requests[row.id] = (row.sealedRequest, request) }
    }

    /// The request kept for `row`, removed from here; nil when it was not kept (or the row's
    /// bytes are not the ones it was decoded from).
    func take(_ row: OutboxRow) -> CheckInRequest? {
        guard let kept = requests.removeValue(forKey: row.id), kept.sealed == row.sealedRequest else { return nil }
        return kept.request
    }

    /// How many are kept (tests).
    var count: Int { requests.count }
}
