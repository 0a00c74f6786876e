import Foundation
import OutpostCore
import OutpostProtocol

/// Turns an entitlement CSV (`email` or `guest_id`, `item`, and `quantity`, 1 when absent) into
/// guests' own entitlements and per-line errors. A row sets the guest's quantity of the item (0
/// removes it; a later row for the same guest and item wins), so importing a file again changes
/// nothing. An empty file or a header without the columns is refused whole (422, as the guest
/// import does). Pure: the event's items and guests come in.
struct PickupEntitlementImport {
    struct Plan: Sendable, Equatable {
        var entitlements: [PickupGuestEntitlement]
        var errors: [ImportRowError]
        var errorsOmitted: Int
    }

    static let maxQuantity = 1_000
    static let maxRows = 100_000

    let items: [PickupItem]
    let guestsByEmail: [String: [GuestID]]
    let guestIds: Set<GuestID>

    func plan(_ records: [CSVRecord]) throws -> Plan {
        var errors: [ImportRowError] = []
        var omitted = 0
        func fail(_ line: Int, _ error: String) {
            if errors.count < GuestImport.maxListedErrors {
                errors.append(ImportRowError(line: line, error: error))
            } else {
                omitted += 1
            }
        }
        guard let header = records.first else {
            throw APIError.invalidRequest(
                "The CSV is empty; it needs the header row email,item,quantity.", status: .unprocessableContent)
        }
        guard case .success(let names) = header.fields else {
            throw APIError.invalidRequest("The CSV header row could not be read.", status: .unprocessableContent)
        }
        let columns = names.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let email = columns.firstIndex(of: "email")
        let guestId = columns.firstIndex(of: "guest_id")
        guard let item = columns.firstIndex(of: "item"), email != nil || guestId != nil else {
            throw APIError.invalidRequest(
                "The CSV header needs an item column and an email or guest_id column (email,item,quantity).",
                status: .unprocessableContent)
        }
        let quantity = columns.firstIndex(of: "quantity")
        var byName: [String: PickupItemID] = [:]
        for listed in items { byName[listed.name.lowercased()] = listed.id }
        var planned: [String: PickupGuestEntitlement] = [:]
        var order: [String] = []
        for record in records.dropFirst().prefix(Self.maxRows) {
            let fields: [String]
            switch record.fields {
            case .success(let read): fields = read
            case .failure(let error):
                fail(record.line, "The row cannot be read: \(error).")
                continue
            }
            func field(_ index: Int?) -> String {
                guard let index, index < fields.count else { return "" }
                return fields[index].trimmingCharacters(in: .whitespaces)
            }
            let guest: GuestID
            if let id = UUID(uuidString: field(guestId)).map(GuestID.init), guestIds.contains(id) {
                guest = id
            } else if !field(guestId).isEmpty {
                fail(record.line, "No guest of this event has the id \(field(guestId)).")
                continue
            } else {
                let matches = guestsByEmail[field(email).lowercased()] ?? []
                guard matches.count == 1 else {
                    fail(
                        record.line,
                        matches.isEmpty
                            ? "No guest of this event has the e-mail \(field(email))."
                            : "\(matches.count) guests have the e-mail \(field(email)): name one by guest_id.")
                    continue
                }
                guest = matches[0]
            }
            guard let itemId = byName[field(item).lowercased()] else {
                fail(record.line, "There is no item named \(field(item)) in this event.")
                continue
            }
            let text = field(quantity)
            guard let count = text.isEmpty ? 1 : Int(text), (0...Self.maxQuantity).contains(count) else {
                fail(record.line, "The quantity is a whole number from 0 to \(Self.maxQuantity).")
                continue
            }
            let key = guest.wire + "/" + itemId.wire
            if planned[key] == nil { order.append(key) }
            planned[key] = PickupGuestEntitlement(guestId: guest, itemId: itemId, quantity: count)
        }
        if records.count - 1 > Self.maxRows {
            fail(records[Self.maxRows + 1].line, "Only the first \(Self.maxRows) rows are read; split the file.")
        }
        return Plan(entitlements: order.compactMap { planned[$0] }, errors: errors, errorsOmitted: omitted)
    }
}
