import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The lead station's actions, as the front-ends and tests call them.
extension DeviceApp {
    package var leadsModule: LeadsModule? { module(LeadsModule.self) }

    /// Chooses the booth this device captures for.
    public func chooseBooth(_ id: BoothID) {
        perform { leadsModule?.choose(id) }
    }

    /// A badge or ticket scanned at the booth: a lead captured (offline as online).
    public func leadScan(_ text: String) {
        perform { leadsModule?.scan(text) }
    }

    /// Rates, notes or answers a lead (nil: unchanged).
    public func leadEdit(_ id: LeadID, rating: Int? = nil, notes: String? = nil, answers: [String: String]? = nil) {
        perform { leadsModule?.edit(id, rating: rating, notes: notes, answers: answers) }
    }

    /// Ends a conflict: keep this device's edit (written over theirs) or take theirs.
    public func leadResolve(_ id: LeadID, keepMine: Bool) {
        perform { leadsModule?.resolve(id, keepMine: keepMine) }
    }

    /// The chosen booth's leads as formula-safe CSV.
    public var leadsCSV: String? { leadsModule?.csv() }

    /// The exhibitor's booths as last pulled.
    public var myBooths: [MyBooth] { leadsModule?.state.booths ?? [] }
}
