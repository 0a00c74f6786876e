import Foundation
import OutpostCore
import OutpostProtocol

/// What a module may use of the shell, and nothing else: the platform's ports and clock, the
/// session's user, the open event, the authorized transport, refusals, progress and
/// the other modules' exported interfaces. A module never holds the app itself (the shell's
/// state, its navigation, its session keeper and its vault stay the shell's).
@MainActor
public final class ModuleContext {
    private unowned let shell: DeviceApp

    /// (A module's store is its own ``ModuleStore``, given at its init, not the context's.)
    package init(shell: DeviceApp) {
        self.shell = shell
    }

    /// The platform's ports as they are now (the simulator may switch them between actions).
    public var ports: DevicePorts { shell.ports }

    /// Where the app keeps its files (a module looks here for the previous app's store).
    public var home: URL { shell.home }

    /// The signed-in session, if any.
    public var session: SessionState? { shell.session }

    /// The signed-in user's id, if any.
    public var userId: UserID? { shell.sessionKeeper.userId }

    /// The user whose data the device holds: the signed-in one, or while the app is locked the
    /// one whose session the lock keeps.
    public var deviceUser: UserID? { shell.session?.user.id ?? shell.vault.record?.user.id }

    /// The open event, if any.
    public var eventId: EventID? { shell.eventId }
    public var currentEvent: EventInfo? { shell.currentEvent }

    /// True while the shell shows the event shell (``ShellState/Screen/event``).
    public var showsEvent: Bool { shell.state.screen == .event }
    /// True while the shell shows a module's own screen outside any event.
    public var showsModule: Bool { shell.state.screen == .module }

    /// Moves whenever one of `tables` may have changed in the store (or another connection
    /// committed): what a module's reload read from those tables at one generation still holds
    /// at the same one. A reload reads it after the shell noted other connections' commits.
    package func storeGeneration(of tables: some Sequence<String>) -> Int {
        shell.store.changes.generation(of: tables)
    }
    /// `read()`'s value, or the one `kept` holds while none of `tables` changed and `scope` is
    /// the same (``StoreRead``): what a reload reads from the store only after a write.
    package func read<Value>(
        _ kept: inout StoreRead<Value>, tables: [String], scope: AnyHashable?, _ read: () -> Value
    ) -> Value {
        kept.value(
            generation: storeGeneration(of: tables), scope: scope, faultsRecorded: { shell.faults.recorded },
            read: read)
    }

    /// This device's id (a route that names it encodes it as a path segment).
    public var deviceId: String { shell.deviceId }

    /// Runs a store access whose failure the user must hear of (``DeviceApp/surfacing(_:_:)``):
    /// the error goes to the storage-fault banner; nil then.
    @discardableResult
    public func surfacing<T>(_ what: String, _ access: () throws -> T) -> T? { shell.surfacing(what, access) }

    /// Sends a request with the session's token (rotated silently when it expired).
    public func authorized(_ request: TransportRequest) async throws -> TransportResponse {
        try await shell.authorized(request)
    }

    /// Ends the session when `error` says the server ended it; any other error is the module's.
    public func handle(_ error: any Error) { shell.handle(error) }

    /// Pulls every module's feeds for the open event again (a changed setting the server holds).
    public func pullFeeds() async { await shell.pullFeeds() }

    /// The action was refused: `sentence` says why (``DeviceApp/refusal``).
    public func refuse(_ sentence: String) { shell.refuse(sentence) }

    /// A new action starts: the last one's refusal goes.
    public func clearRefusal() { shell.clearRefusal() }

    /// A feed's progress (nil: done), shown as the progress bar; `feed` names it ("roster").
    public func reportProgress(_ progress: (done: Int, total: Int)?, feed: String) {
        shell.reportProgress(progress, feed: feed)
    }

    /// Another module's exported interface (a protocol or a public type it conforms to), when
    /// the app runs a module that provides it. Kiosk finds check-in's desk this way.
    public func service<Service>(_ type: Service.Type) -> Service? { shell.service(type) }

    /// Every module that provides `Service` (each listener of a kind of event).
    public func services<Service>(_ type: Service.Type) -> [Service] { shell.services(type) }
}
