import Foundation
import OutpostCore
import OutpostProtocol

extension DeviceApp {
    /// The UI tree of the current screen.
    public func tree() -> UITree {
        let pending = pendingCount
        var elements: [UIElement] = []
        let screen: String
        if let openError {
            screen = UIIdentifier.storageMigrationError
            elements.append(
                UIElement(
                    UIIdentifier.storageMigrationError,
                    "This device's saved data could not be upgraded. Nothing was deleted. Contact support.",
                    ["contact": "support", "reason": openError]))
            return UITree(screen: screen, elements: elements, online: ports.online, pending: 0, user: nil, event: nil)
        }
        if let policy, ports.platform.isBelow(minIOS: policy.minIOS, minAndroidAPI: policy.minAndroidAPI) {
            let store =
                ports.platform.os == .ios ? "itms-apps://apps.apple.com/app/outpost" : "market://details?id=app.outpost"
            let minimum = ports.platform.os == .ios ? "iOS \(policy.minIOS)" : "Android API \(policy.minAndroidAPI)"
            elements.append(
                UIElement(
                    UIIdentifier.forceUpgradeScreen,
                    "This device runs an OS older than \(minimum). Update the OS or use another device.",
                    ["storeLink": store]))
            return UITree(
                screen: UIIdentifier.forceUpgradeScreen, elements: elements, online: ports.online, pending: pending,
                user: session?.user.email, event: nil)
        }
        if kiosk.active, session != nil, state.eventId != nil { return kioskTree() }
        if state.showUpdateBanner, let report = openReport {
            elements.append(
                UIElement(
                    UIIdentifier.appUpdateBanner,
                    "Outpost was updated; \(report.pendingAfterOpen) pending check-ins carried over.",
                    ["pending": String(report.pendingAfterOpen)]))
        }
        if resuming { elements.append(UIElement(UIIdentifier.resumeSkeleton, "Resuming…")) }
        if let progress = rosterProgress {
            elements.append(
                UIElement(
                    UIIdentifier.rosterProgress, "Syncing roster \(progress.done)/\(progress.total)",
                    ["done": String(progress.done), "total": String(progress.total)]))
        }
        if session != nil {
            if !ports.online {
                elements.append(
                    UIElement(
                        UIIdentifier.offlineBanner, "Offline — \(pending) pending sync", ["pending": String(pending)]))
            }
            if pending > 0 {
                elements.append(
                    UIElement(
                        UIIdentifier.pendingSyncBanner, "\(pending) check-in\(pending == 1 ? "" : "s") waiting to sync",
                        ["pending": String(pending)]))
            }
            elements += syncProblemElements()
        }
        switch session == nil ? .signIn : state.screen {
        case .signIn:
            screen = UIIdentifier.signIn
            elements += [
                UIElement(UIIdentifier.signIn, "Sign in to Outpost"), UIElement(UIIdentifier.signInEmail, "E-mail"),
                UIElement(UIIdentifier.signInPassword, "Password"), UIElement(UIIdentifier.signInSubmit, "Sign in"),
            ]
            if let error = state.signInError { elements.append(UIElement(UIIdentifier.signInError, error)) }
        case .eventPicker:
            screen = UIIdentifier.eventPicker
            let events = (try? store?.events()) ?? []
            elements.append(
                UIElement(
                    UIIdentifier.eventPicker, "Your events", ["range": state.eventRange, "count": String(events.count)])
            )
            for event in events {
                elements.append(
                    UIElement(
                        UIIdentifier.eventRow, "\(event.name) · \(formatDay(event.startsAt, event.timeZone))",
                        ["eventId": event.id]))
            }
            elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        case .eventShell:
            screen = UIIdentifier.eventShell
            elements += eventShellElements()
        case .confirmation:
            screen = UIIdentifier.confirmationScreen
            elements += confirmationElements()
        case .signOutWarning:
            screen = UIIdentifier.signOutPendingWarning
            elements += [
                UIElement(
                    UIIdentifier.signOutPendingWarning,
                    "\(pending) check-in\(pending == 1 ? " hasn't" : "s haven't") synced. Sign out anyway?"
                        + (state.signOutMessage.map { " " + $0 } ?? ""),
                    ["pending": String(pending)]),
                UIElement(UIIdentifier.signOutWait, "Wait for sync", ["default": "true"]),
                UIElement(UIIdentifier.signOutDiscard, "Sign out and discard"),
                UIElement(UIIdentifier.signOutKeep, "Sign out keeping pending (sync on next sign-in)"),
            ]
        }
        return UITree(
            screen: screen, elements: elements, online: ports.online, pending: pending, user: session?.user.email,
            event: state.eventId)
    }

    private func eventShellElements() -> [UIElement] {
        guard let store, let eventId = state.eventId else { return [] }
        let event = currentEvent
        var elements = [UIElement(UIIdentifier.eventShell, event?.name ?? "Event", ["eventId": eventId])]
        elements.append(UIElement(UIIdentifier.tabCheckIn, "Check-In"))
        if (try? store.accessTypes(eventId: eventId))?.contains(where: \.walkInAllowed) == true {
            elements.append(UIElement(UIIdentifier.tabWalkIn, "Walk-Ins"))
        }
        if event?.modules.contains("efx") == true { elements.append(UIElement(UIIdentifier.tabEFx, "EFx")) }
        let count = (try? store.guestCount(eventId: eventId)) ?? 0
        elements.append(UIElement(UIIdentifier.rosterList, "\(count) guests on this device", ["count": String(count)]))
        // The camera permission is read on every entry to the check-in tab.
        if ports.camera() == .denied {
            elements.append(
                UIElement(
                    UIIdentifier.cameraPermissionPrompt,
                    "Camera access required for QR check-in. Open Settings > Outpost > Camera."))
            elements.append(UIElement(UIIdentifier.cameraSettingsLink, "Open Settings", ["url": settingsURL]))
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Manual entry"))
            elements += manualEntryElements()
        } else if state.manualEntry {
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Scan QR"))
            elements += manualEntryElements()
        } else {
            elements.append(UIElement(UIIdentifier.cameraViewfinder, "Point the camera at a ticket"))
            elements.append(UIElement(UIIdentifier.manualEntryToggle, "Manual entry"))
        }
        if let banner = state.banner { elements.append(bannerElement(banner)) }
        if let result = state.result {
            elements.append(
                UIElement(UIIdentifier.checkedInCard, "✓ \(result.guestName) checked in", ["dismissAfter": "1.5"]))
            if (try? store.isPending(idempotencyKey: result.idempotencyKey)) == true {
                elements.append(UIElement(UIIdentifier.syncingIndicator, "Syncing…"))
            }
        }
        if let info = state.info {
            elements.append(
                UIElement(
                    UIIdentifier.alreadyCheckedIn,
                    "\(info.guestName): checked in by \(info.byName) at \(formatTime(info.at, event?.timeZone))",
                    ["byName": info.byName, "at": OutpostJSON.format(info.at), "kind": "info"]))
        }
        elements += kioskSetUpElements()
        elements.append(UIElement(UIIdentifier.signOut, "Sign out"))
        return elements
    }

    /// What staff must know about the outbox: check-ins the server refused for good (with the
    /// guest, the reason and what to do, until dismissed), rows set aside as unreadable, and
    /// entries of other users waiting for them to sign in again.
    private func syncProblemElements() -> [UIElement] {
        var elements: [UIElement] = []
        let rejected = (try? store?.outbox(state: .rejected, owner: nil)) ?? []
        if !rejected.isEmpty {
            let names = rejected.map { entry in
                let name = (try? store?.guest(eventId: entry.eventId, id: entry.request.guestId))??.name ?? "a guest"
                return "\(name) (\(entry.lastError ?? "refused"))"
            }
            elements.append(
                UIElement(
                    UIIdentifier.syncRejectedBanner,
                    "\(rejected.count) check-in\(rejected.count == 1 ? " was" : "s were") refused by the server: "
                        + names.joined(separator: ", ")
                        + ". They are not checked in: check their tickets or ask the organizer, then dismiss.",
                    [
                        "count": String(rejected.count),
                        "guestIds": rejected.map(\.request.guestId).joined(separator: ","),
                        "reasons": rejected.compactMap(\.lastError).joined(separator: ","),
                    ]))
        }
        let quarantined = quarantinedCount
        if quarantined > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.syncQuarantinedBanner,
                    "\(quarantined) saved check-in\(quarantined == 1 ? "" : "s") could not be read and "
                        + "\(quarantined == 1 ? "was" : "were") set aside (kept on this device). Contact support.",
                    ["count": String(quarantined), "contact": "support"]))
        }
        let others = pendingForOtherUsers
        if others > 0 {
            elements.append(
                UIElement(
                    UIIdentifier.pendingOtherUsersBanner,
                    "\(others) check-in\(others == 1 ? "" : "s") of another user will sync when they sign in again.",
                    ["pending": String(others)]))
        }
        return elements
    }

    private var settingsURL: String {
        ports.platform.os == .ios ? "app-settings:" : "package:app.outpost"
    }

    private func manualEntryElements() -> [UIElement] {
        var elements = [
            UIElement(UIIdentifier.manualEntryInput, state.query ?? "", ["placeholder": "Name, e-mail or code"])
        ]
        if let query = state.query, let index {
            for guest in index.search(query) {
                elements.append(
                    UIElement(
                        UIIdentifier.manualEntrySuggestion, "\(guest.name) · \(guest.email) · \(guest.code)",
                        ["guestId": guest.id, "code": guest.code, "checkedIn": String(guest.checkIn != nil)]))
            }
        }
        return elements
    }

    /// Red banners share one structure (same attribute keys); wrong-event and forged tickets
    /// differ only in identifier and words (anti-probing: neither names another event).
    private func bannerElement(_ banner: Banner) -> UIElement {
        let (id, text): (String, String) =
            switch banner {
            case .crossEvent:
                (UIIdentifier.crossEventBanner, "This QR is for a different event. Ask the guest to confirm.")
            case .tampered: (UIIdentifier.tamperedBanner, "This QR is invalid.")
            case .notAdmissible:
                (
                    UIIdentifier.notAdmissibleBanner,
                    "This registration is cancelled or revoked. Please see the organizer."
                )
            case .notInRoster:
                (
                    UIIdentifier.notInRosterBanner,
                    "This guest is not on this device's roster yet. Sync, then scan again."
                )
            case .noSuchCode: (UIIdentifier.notInRosterBanner, "No guest has this code.")
            }
        return UIElement(id, text, ["severity": "error", "dismissAfter": "1.5"])
    }

    private func confirmationElements() -> [UIElement] {
        guard let store, let eventId = state.eventId, let confirmation = state.confirmation,
            let guest = try? store.guest(eventId: eventId, id: confirmation.guestId)
        else { return [] }
        let accessType = (try? store.accessTypes(eventId: eventId))?.first { $0.id == guest.accessTypeId }?.name ?? "—"
        var elements = [
            UIElement(
                UIIdentifier.confirmationScreen, guest.name,
                [
                    "guestId": guest.id, "accessType": accessType, "status": guest.status.rawValue,
                    "notes": guest.notes,
                    "method": confirmation.method.rawValue,
                ])
        ]
        if let checkIn = guest.checkIn {
            elements.append(
                UIElement(
                    UIIdentifier.alreadyCheckedIn,
                    "Already checked in at \(formatTime(checkIn.at, currentEvent?.timeZone)) by \(checkIn.byName)",
                    ["byName": checkIn.byName, "at": OutpostJSON.format(checkIn.at), "kind": "info"]))
            elements.append(UIElement(UIIdentifier.reconfirmButton, "Re-confirm"))
            elements.append(UIElement(UIIdentifier.cancelButton, "Dismiss"))
        } else {
            elements.append(UIElement(UIIdentifier.confirmButton, "Confirm check-in"))
            elements.append(UIElement(UIIdentifier.cancelButton, "Cancel"))
        }
        return elements
    }

    func formatTime(_ date: Date, _ timeZone: String?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    func formatDay(_ date: Date, _ timeZone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
