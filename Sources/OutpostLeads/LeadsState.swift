import Foundation
import OutpostCore
import OutpostProtocol

/// The lead station's state, sealed and kept across launches: the exhibitor's booths as pulled
/// (with their events' ticket keys), the booth chosen, and the last answer.
package struct LeadsState: Codable, Sendable, Equatable {
    /// The last scan's or edit's answer, as shown.
    package struct Result: Codable, Sendable, Hashable {
        package var captured: Bool
        package var sentence: String
        package var leadId: LeadID?
    }

    package var booths: [MyBooth] = []
    package var boothId: BoothID?
    package var last: Result?
    package var lastUpdated: Date?

    package init() {}

    package var booth: MyBooth? { booths.first { $0.booth.id == boothId } ?? booths.first }
}
