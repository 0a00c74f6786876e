import Foundation
import OutpostCore
import OutpostProtocol

/// The walk-in module's UI state, sealed and kept across launches: the form staff are filling
/// (a relaunch keeps what they typed), the last walk-in's card and the summary.
package struct WalkInState: Codable, Sendable, Equatable {
    /// The Walk-Ins form while it is open.
    package var form: WalkInDraft?
    /// The walk-in just added (the green card on the event shell).
    package var result: WalkInResult?
    /// The end-of-shift summary is open.
    package var summaryShown = false
    /// Why the last add did not happen, in one sentence (shown on the form).
    package var error: String?

    package init() {}
}

/// What staff typed into the Walk-Ins form.
package struct WalkInDraft: Codable, Sendable, Equatable {
    package var name = ""
    package var email = ""
    package var accessTypeId: AccessTypeID?
    /// The amount as typed ("12.50"); empty: nothing paid.
    package var amount = ""
    package var currency = "EUR"
    package var method: PaymentMethod = .cash

    package init(
        name: String = "", email: String = "", accessTypeId: AccessTypeID? = nil, amount: String = "",
        currency: String = "EUR", method: PaymentMethod = .cash
    ) {
        self.name = name
        self.email = email
        self.accessTypeId = accessTypeId
        self.amount = amount
        self.currency = currency
        self.method = method
    }
}

/// The walk-in just added: who, and the places of their access type left on this device.
package struct WalkInResult: Codable, Sendable, Equatable {
    package var guestName: String
    package var accessTypeName: String
    /// Nil: the access type has no capacity.
    package var placesLeft: Int?
    package var idempotencyKey: String
}
