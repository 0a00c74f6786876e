import Foundation
import OutpostCore
import OutpostProtocol
import OutpostShell

/// The activities module's actions (seed 004), as front-ends and tests call them. Each runs in
/// the module, then the shell saves and rebuilds; writes are committed locally first and the
/// outbox replays after (when online).
extension DeviceApp {
    package var activitiesModule: ActivitiesModule? { module(ActivitiesModule.self) }

    /// The mentor's activities.
    public func showActivities() {
        showModule(named: ActivitiesModule.name)
        perform { activitiesModule?.show(.activities) }
    }

    /// The mentor's contacts (cached, non-sensitive).
    public func showContacts() {
        showModule(named: ActivitiesModule.name)
        perform { activitiesModule?.show(.contacts) }
    }

    /// One contact; with `reveal`, its sensitive fields from the server (held in memory only).
    public func showContact(_ id: ContactID, reveal: Bool = false) async {
        showModule(named: ActivitiesModule.name)
        perform { activitiesModule?.show(.contact, contact: id) }
        guard reveal, refuseStaffActionIfHeld(), let module = activitiesModule else { return }
        await module.reveal()
        commit()
    }

    /// Registers an activity (same flow online and offline), then sends it when online.
    public func registerActivity(
        contact: ContactID, type: ActivityType, date: String, durationMinutes: Int, notes: String
    ) async {
        showModule(named: ActivitiesModule.name)
        var saved = false
        performAsStaff {
            saved =
                activitiesModule?.register(
                    ActivityContent(
                        contactId: contact, type: type, date: date, durationMinutes: durationMinutes, notes: notes))
                ?? false
        }
        await replayAfter(saved)
    }

    /// Edits an activity; nil leaves a field as it is.
    public func editActivity(
        _ id: ActivityID, type: ActivityType? = nil, date: String? = nil, durationMinutes: Int? = nil,
        notes: String? = nil
    ) async {
        showModule(named: ActivitiesModule.name)
        var saved = false
        performAsStaff {
            saved =
                activitiesModule?.edit(id) { content in
                    if let type { content.type = type }
                    if let date { content.date = date }
                    if let durationMinutes { content.durationMinutes = durationMinutes }
                    if let notes { content.notes = notes }
                } ?? false
        }
        await replayAfter(saved)
    }

    public func deleteActivity(_ id: ActivityID) async {
        showModule(named: ActivitiesModule.name)
        var saved = false
        performAsStaff { saved = activitiesModule?.delete(id) ?? false }
        await replayAfter(saved)
    }

    /// Resolves a conflict: keep the mentor's version (sent on top of the server's) or theirs.
    public func resolveActivityConflict(_ id: ActivityID, keepMine: Bool) async {
        showModule(named: ActivitiesModule.name)
        var queued = false
        performAsStaff { queued = activitiesModule?.resolve(id, keepMine: keepMine) ?? false }
        await replayAfter(queued)
    }

    /// The mentor has seen the refused entries.
    public func dismissActivityFailures() {
        performAsStaff { activitiesModule?.dismissFailures() }
    }
}
