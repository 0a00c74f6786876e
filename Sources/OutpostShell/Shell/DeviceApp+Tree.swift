import Foundation
import OutpostCore
import OutpostProtocol

extension DeviceApp {
    /// The UI tree of the current screen: the frame (status banners, connectivity, the pending
    /// count) around one screen model, with the last action's ``refusal``. Reads no store: the
    /// models were rebuilt by the last action.
    public func tree() -> UITree { shown().tree }

    /// What the app shows now: the ``tree()`` and the typed screen models it projects, which
    /// front-ends read (the terminals draw the month from its cells, never from its text).
    public func shown() -> ShownScreen {
        let (frame, screen) = current()
        var tree = frame.tree(screen)
        tree.refusal = refusal
        return ShownScreen(tree: tree, parts: screen.parts)
    }

    /// The frame and the one screen model the app shows now.
    private func current() -> (ShellFrame, any ScreenModel) {
        var frame = ShellFrame(
            online: ports.online, pending: self.status.pending, user: session?.user.email, event: nil)
        if let policy, ports.platform.isBelow(minIOS: policy.minIOS, minAndroidAPI: policy.minAndroidAPI) {
            return (frame, ForceUpgradeScreen(os: ports.platform.os, policy: policy))
        }
        if isLocked, let record = vault.record {
            frame.user = record.user.email
            return (
                frame,
                LockScreen(
                    user: record.user.email, biometry: biometricUnlockEnabled ? biometry : nil,
                    pending: status.pending, message: state.lockMessage)
            )
        }
        let now = ports.clock.now()
        for module in modules {
            // A takeover (kiosk mode) is the whole screen: no user, no event, nothing pending shown.
            if let takeover = module.takeover(now: now) {
                return (ShellFrame(online: ports.online, pending: 0, user: nil, event: nil), takeover)
            }
        }
        var status = self.status
        status.updatedWithPending = state.showUpdateBanner ? openReport.pendingAfterOpen : nil
        status.signedIn = session != nil
        status.online = ports.online
        status.lastUpdated = modules.compactMap(\.lastUpdated).max()
        frame.banners = status.elements(modules: modules.flatMap(\.statusElements))
        if let fault = faults.banner { frame.banners.insert(fault, at: 0) }
        guard session != nil else {
            return (frame, SignInScreen(error: state.signInError, notice: state.signInNotice))
        }
        frame.event = state.eventId?.wire
        switch state.screen {
        case .signIn:
            return (frame, SignInScreen(error: state.signInError, notice: state.signInNotice))
        case .eventPicker:
            return (frame, EventPickerScreen(range: state.eventRange, events: events))
        case .settings:
            return (
                frame,
                SettingsScreen(
                    biometry: biometry, biometricUnlock: biometricUnlockEnabled,
                    lockAfter: vault.settings.lockAfter ?? LockSettings().lockAfter)
            )
        case .module:
            if let home = modules.first(where: { type(of: $0).name == state.module })?.homeScreen {
                return (frame, home)
            }
            return (frame, EventPickerScreen(range: state.eventRange, events: events))
        case .privacy:
            return (
                frame,
                DataPrivacyScreen(
                    consent: consent, pending: status.pending, noun: pendingNoun,
                    warning: state.privacyDeleteWarning, message: state.privacyMessage,
                    copy: PrivacyCopy(ports.language), timeZone: ports.timeZone.identifier)
            )
        case .signOutWarning:
            return (
                frame,
                SignOutWarningScreen(
                    pending: status.pending, noun: status.pendingNoun, unsent: unsentLines, message: state.message)
            )
        case .event:
            guard let eventId = state.eventId else {
                return (frame, EventPickerScreen(range: state.eventRange, events: events))
            }
            if let front = modules.lazy.compactMap(\.frontScreen).first {
                return (frame, front)
            }
            // A tab two modules share (the EFx tab: zone and pickup stations) shows once.
            var shown: Set<String> = []
            let tabs = modules.flatMap(\.tabs).filter { shown.insert($0.id).inserted }
            return (
                frame,
                EventShellScreen(
                    eventId: eventId, eventName: currentEvent?.name ?? "Event", tabs: tabs,
                    content: modules.flatMap(\.eventShellParts))
            )
        }
    }
}
