import Foundation
import OutpostCore
import OutpostProtocol

/// The user's data rights (GDPR; seed 003 "Data Privacy"): export everything of theirs, from
/// this device and from the server, as one JSON document (Art. 20); withdraw consent and delete
/// the account, on the server and on this device, then sign out (Art. 17).
extension DeviceApp {
    public func showPrivacy() {
        guard session != nil, refuseStaffActionIfHeld(), state.screen != .privacy else { return }
        perform {
            state.beforePrivacy = state.screen
            state.screen = .privacy
            state.privacyMessage = nil
            state.privacyDeleteWarning = false
        }
    }

    public func closePrivacy() {
        guard state.screen == .privacy else { return }
        perform {
            state.screen = state.beforePrivacy ?? (state.module == nil ? .eventPicker : .module)
            state.privacyMessage = nil
            state.privacyDeleteWarning = false
        }
    }

    /// Everything of the signed-in user as one JSON document: `device` (each module's records
    /// on this phone) and `server` (`GET /v1/me/export`; null with `serverNote` when offline).
    /// Accepts a new version of the terms (`PUT /v1/me/consent`): needs a connection, so the
    /// server, and every phone of the user after its next sync, knows it.
    public func acceptConsent(_ version: String) async {
        guard let user = session?.user, refuseStaffActionIfHeld() else { return }
        showPrivacy()
        let copy = PrivacyCopy(ports.language)
        let trimmed = version.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 64 else { return perform { refuse(copy.badVersion) } }
        guard ports.online else { return perform { refuse(copy.consentNeedsConnection) } }
        do {
            let response = try await authorized(
                TransportRequest(
                    API.setConsent.line(), headers: ["Content-Type": "application/json"],
                    body: try OutpostJSON.encode(ConsentRecord(version: trimmed))))
            let record = try APIClient.decode(ConsentRecord.self, response)
            storeConsent(record, for: user.id)
            perform { state.privacyMessage = copy.consentAccepted(trimmed) }
        } catch {
            handle(error)
            perform { refuse(copy.consentNotSaved) }
        }
    }

    public func exportMyData() async -> Data? {
        // Signed out, the export is of a removed account's kept entries (the server said it was
        // removed): this device's records only, the server having none to give.
        guard let user = session?.user ?? state.removedAccount, refuseStaffActionIfHeld() else { return nil }
        let removed = session == nil
        showPrivacy()
        var document: [String: Any] = [
            "exportedAt": OutpostJSON.format(ports.clock.now()),
            "user": [
                "id": user.id.wire, "email": user.email, "name": user.name, "role": user.role.rawValue,
            ],
            "consentVersion": consentVersion ?? NSNull(),
            "consentAcceptedAt": consent?.acceptedAt.map(OutpostJSON.format) ?? NSNull(),
            // What was never sent, in words (the records below hold it whole).
            "unsent": modules.flatMap { $0.unsent(owner: user.id) },
        ]
        var device: [String: Any] = [:]
        for module in modules {
            let name = type(of: module).name
            // A module whose records cannot be read says so in the file, and on the banner; one
            // with none (nil) is left out.
            guard let exported = surfacing("export \(name)'s records", { try module.exportRecords(of: user.id) }) else {
                device[name] = ["error": "These records could not be read on this device; export again later."]
                continue
            }
            guard let data = exported else { continue }
            device[name] =
                surfacing("export \(name)'s records") { try JSONSerialization.jsonObject(with: data) }
                ?? ["error": "These records could not be read on this device; export again later."]
        }
        document["device"] = device
        // Every entry this device still holds for the user, as it would be sent.
        document["outbox"] =
            surfacing("export the entries waiting") { try store.unsentEntriesForExport(owner: user.id) }
            ?? ["error": "The entries waiting could not be read on this device; export again later."]
        if removed {
            document["server"] = NSNull()
            document["serverNote"] =
                "Your account was removed by your organizer: the server no longer accepts these entries, and keeps no copy to export. This file is what this device kept."
            // Built of JSON values only (strings, numbers, parsed JSON, NSNull): it always serialises.
            let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            perform { state.privacyMessage = PrivacyCopy(ports.language).exportedRemoved }
            return data
        }
        do {
            guard ports.online else { throw APIClientError.transport(.offline) }
            let response = try await authorized(TransportRequest(API.exportMyData.line()))
            _ = try APIClient.decode(AccountExport.self, response)
            document["server"] = try JSONSerialization.jsonObject(with: response.body)
        } catch {
            handle(error)
            document["server"] = NSNull()
            document["serverNote"] = "The server's copy could not be fetched (offline?); export again when online."
        }
        // Built of JSON values only (strings, numbers, parsed JSON, NSNull): it always serialises.
        let data = try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        perform {
            state.privacyMessage =
                document["server"] is NSNull
                ? PrivacyCopy(ports.language).exportedDeviceOnly : PrivacyCopy(ports.language).exported
        }
        return data
    }

    /// Withdraws consent and deletes the account: on the server (`DELETE /v1/me`), then every
    /// record of the user on this device (the modules' data, their outbox entries, the work
    /// locations the phone watches), then signs out. With entries still waiting to be sent it
    /// first warns; `confirmed` goes on anyway. Needs a connection: offline nothing is deleted.
    public func deleteMyAccount(confirmed: Bool = false) async {
        guard let current = session, refuseStaffActionIfHeld() else { return }
        showPrivacy()
        if pendingCount > 0 && !confirmed {
            perform {
                state.privacyDeleteWarning = true
                let waiting = "\(pendingCount) \(pendingNoun.for(pendingCount))"
                refuse("Nothing was deleted: \(waiting) not synced yet; confirm to delete anyway.")
            }
            return
        }
        guard ports.online else {
            perform {
                state.privacyMessage = "You are offline. Deleting your account needs a connection; nothing was deleted."
                refuse(state.privacyMessage!)
            }
            return
        }
        do {
            let response = try await authorized(TransportRequest(API.deleteMe.line()))
            guard response.status == 204 else {
                throw APIClientError.http(status: response.status, code: APIClient.errorCode(response.body))
            }
        } catch {
            handle(error)
            let reason: String =
                switch error {
                case APIClientError.http(403, _): "This account belongs to your organization; ask your organizer."
                case APIClientError.transport: "The server could not be reached; nothing was deleted."
                default: "The account could not be deleted (\(error)); nothing was deleted."
                }
            perform {
                state.privacyMessage = reason
                refuse(reason)
            }
            return
        }
        for module in modules {
            surfacing("erase \(type(of: module).name)'s records") { try module.erase(user: current.user.id) }
        }
        forgetSession(discarding: current.user.id)
        // Gives the erased rows' pages back to the disk, so no copy lingers in free pages; a
        // failure leaves them sealed (the key is the store's), readable by nobody else.
        try? store.vacuum()
        state.signInNotice = "Your account and your data were deleted from the server and this device."
        commit()
    }
}
