import Foundation
import GRDB
import OutpostCore
import OutpostProtocol

/// A module of the device shell. Seed 000 describes a shell whose modules (check-in, walk-ins,
/// notes, print, kiosk, time tracking, activities) are each a branch rooted in it; a module
/// plugs in here and touches no other module.
///
/// A module contributes:
/// - its local tables, as migrations with frozen string identifiers (``migrations``), run after
///   the shell's own when the store opens, before any screen;
/// - its outbox entry kinds (``outboxHandlers``): the route of each and what its answers mean;
/// - its pull feeds (``pull(event:)``), fetched by cursor when the shell syncs;
/// - its tabs in the event shell (``tabs``), each visible only when its condition holds;
/// - its screens, as screen models whose `tree()` is a pure function of their values. The
///   module rebuilds its models in ``reload()``, after every action; rendering reads no store.
@MainActor
package protocol DeviceModule: AnyObject {
    /// The module's stable name: the key of its sealed UI state and the prefix of its migrations.
    nonisolated static var name: String { get }
    /// The module's migrations, oldest first. Frozen once released: a change is a new migration.
    nonisolated static var migrations: [DeviceMigration] { get }
    /// The module's tables whose rows belong to the signed-in session (a roster): emptied in the
    /// sign-out's own transaction, with the shell's.
    nonisolated static var sessionTables: [String] { get }

    /// Made once per launch, after the store opened and migrated, with what it may use of the
    /// shell and its own handle on the store.
    init(context: ModuleContext, store: ModuleStore<Self>)

    /// The handlers of the outbox entry kinds this module writes.
    var outboxHandlers: [any OutboxEntryHandler] { get }
    /// Pulls the module's feeds for the open event (resuming from their stored cursors).
    func pull(event: EventInfo) async throws
    /// Rebuilds the module's screen models from the store (after an action, a pull or a replay).
    func reload()

    /// The module's tabs in the event shell, in order (only those whose condition holds).
    var tabs: [UIElement] { get }
    /// The module's whole screen when it takes the device over (kiosk mode); the shell then
    /// shows nothing of its own.
    func takeover(now: Date) -> (any ScreenModel)?
    /// True while the module holds the device for someone who is not staff (kiosk mode): the
    /// shell then refuses every staff action (the event list, another event, sign-in, sign-out,
    /// the check-in actions) until the module lets go through its own exit (the kiosk passcode).
    var holdsDevice: Bool { get }
    /// Why a staff action is refused while the module holds the device, in one sentence.
    var heldRefusal: String { get }
    /// The module's screen in front of the event shell (e.g. the confirmation screen).
    var frontScreen: (any ScreenModel)? { get }
    /// The module's parts of the event shell screen (check-in's tab, the kiosk's set-up panel).
    var eventShellParts: [any ScreenPart] { get }
    /// What staff must know on every signed-in screen (e.g. entries the server refused).
    var statusElements: [UIElement] { get }

    /// Another module's screen comes to the front (one station in front at a time): this
    /// module's front screen closes.
    func closeFront()
    /// The open event changed (or closed): transient state goes.
    func eventChanged()
    /// Transient cards and banners go (a new action started, or a front-end dismissed them).
    func clearTransient()
    /// The session ended on this device: everything of that user goes.
    func sessionEnded()
    /// The module's UI state, sealed and kept across launches.
    func saveState() throws -> Data
    func restoreState(_ data: Data) throws

    /// True when `user` starts in this module rather than on the event picker (a peer mentor
    /// lands on their activities); the shell then shows ``homeScreen``.
    func isHome(for user: UserInfo) -> Bool
    /// The module's own screen outside any event, while the shell shows the module.
    var homeScreen: (any ScreenModel)? { get }
    /// Pulls the feeds that belong to the signed-in user rather than to an event (a mentor's
    /// contacts and activities); run on sign-in and on every sync.
    func pullAccount() async throws
    /// When the module's cached data was last refreshed from the server (the offline indicator's
    /// "last updated"); nil when it keeps none.
    var lastUpdated: Date? { get }
    /// The app appeared: a launch, or back from the background (time tracking runs its due
    /// checks and its foreground rule here).
    func appeared(now: Date)
    /// Work on the device's own hardware that needs no network (the print queue): run after
    /// every replay (each action that queues, each sync), online or not.
    func runLocalWork() async
    /// Every record of `user` the module keeps on the device, as one JSON object, for the
    /// user's export of their data (GDPR Art. 20); nil when it keeps none.
    func exportRecords(of user: UserID) throws -> Data?
    /// Deletes every record of `user` the module keeps on the device (the user withdrew consent
    /// and deleted their account, GDPR Art. 17).
    func erase(user: UserID) throws
    /// `user` signed in on this device (time tracking gives the previous app's hours to the
    /// first worker).
    func signedIn(_ user: UserInfo)
    /// What of `owner` the module holds that the server does not have and no outbox entry will
    /// send, because it waits for the user (an unresolved conflict): one line each, naming it.
    /// The shell counts these as pending: they block a plain sign-out, survive one that keeps,
    /// and go only when the user discards (``discardUnsent(owner:)``).
    func unsent(owner: UserID) -> [String]
    /// The user signed out discarding what waits: the module's ``unsent(owner:)`` records go.
    func discardUnsent(owner: UserID) throws
    /// Sends what the module holds for the server outside the outbox (the venue mesh's peers'
    /// entries): a sign-out that waits runs it after the outbox's replay.
    func sendHeld() async
}

extension DeviceModule {
    /// The module, made with its own handle on `store` (the shell's launch makes each this way).
    package static func make(context: ModuleContext, store: DeviceStore) -> any DeviceModule {
        Self(context: context, store: ModuleStore<Self>(store))
    }

    /// Most modules keep their records by owner, across sessions.
    package nonisolated static var sessionTables: [String] { [] }
    /// Most modules never hold the device.
    package var holdsDevice: Bool { false }
    /// Most modules' front screens are cards that close themselves.
    package func closeFront() {}
    package var heldRefusal: String { "This device is held by another mode: leave it first." }
    /// Most modules live inside events.
    package func isHome(for user: UserInfo) -> Bool { false }
    package var homeScreen: (any ScreenModel)? { nil }
    package func pullAccount() async throws {}
    package var lastUpdated: Date? { nil }
    package func appeared(now: Date) {}
    package func runLocalWork() async {}
    package func exportRecords(of user: UserID) throws -> Data? { nil }
    package func erase(user: UserID) throws {}
    package func signedIn(_ user: UserInfo) {}
    package func unsent(owner: UserID) -> [String] { [] }
    package func sendHeld() async {}
    package func discardUnsent(owner: UserID) throws {}
}

/// A migration of the device store, contributed by the shell or a module.
package struct DeviceMigration: Sendable {
    /// Frozen once released; a module's are stored as "<module>: <identifier>".
    package var identifier: String
    /// Runs inside the migration's transaction. It may use the sealer, never an app type that
    /// can change later (decode the JSON it needs into frozen local shapes).
    package var apply: @Sendable (Database, Sealer) throws -> Void
    /// The shell migration that did this one's work on stores written before the module had it
    /// (the shell once made check-in's tables): wherever that one ran, this one counts as run.
    package var adopting: String?

    package init(
        _ identifier: String, adopting: String? = nil, apply: @escaping @Sendable (Database, Sealer) throws -> Void
    ) {
        self.identifier = identifier
        self.adopting = adopting
        self.apply = apply
    }
}

/// The modules a device runs, in tab order. The composition target (`OutpostDevice`) names
/// them; the shell knows none.
public struct DeviceModules: Sendable {
    package let types: [any DeviceModule.Type]

    package init(_ types: [any DeviceModule.Type]) { self.types = types }

    /// Every module's migrations, prefixed with its name (so no two modules can collide).
    package var migrations: [DeviceMigration] {
        types.flatMap { type in
            type.migrations.map { migration in
                DeviceMigration(
                    "\(type.name): \(migration.identifier)", adopting: migration.adopting, apply: migration.apply)
            }
        }
    }
}
