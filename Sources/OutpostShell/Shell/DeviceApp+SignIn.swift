import Crypto
import Foundation
import OutpostCore
import OutpostProtocol

/// Sign-in (password and e-mail code), the user's consent, the events list and opening an event.
extension DeviceApp {
    /// Signs in; lands on the event picker. Over a session of another user, that user is signed
    /// out first, keeping their pending entries for their next sign-in (never sent as this user).
    /// A plain `http://` server that is not this machine is refused before anything is sent
    /// (``ServerAddress``), unless `allowingInsecureHTTP` (a development switch).
    public func signIn(server: URL, email: String, password: String, allowingInsecureHTTP: Bool = false) async {
        await authenticate(server: server, allowingInsecureHTTP: allowingInsecureHTTP) { client, deviceId in
            try await client.signIn(email: email, password: password, deviceId: deviceId)
        }
    }

    /// Passwordless sign-in (seed 003): asks the server to mail a six-digit code.
    public func requestEmailCode(
        server: URL, email: String, registering: Bool = false, allowingInsecureHTTP: Bool = false
    ) async {
        guard startSignIn(server: server, allowingInsecureHTTP: allowingInsecureHTTP) else { return }
        do {
            try await APIClient(transport: transport(for: server)).requestEmailCode(
                email: email, purpose: registering ? .register : .signin)
            state.signInNotice =
                "If \(email) has an account (or is creating one), a code is on its way: enter it within 10 minutes."
        } catch {
            refuseSignIn(error)
        }
        commit()
    }

    /// Signs in with a mailed code; with `name` and `consentVersion` the account is created (the
    /// consent is kept on the device too).
    public func signIn(
        server: URL, email: String, code: String, name: String? = nil, consentVersion: String? = nil,
        allowingInsecureHTTP: Bool = false
    ) async {
        await authenticate(server: server, allowingInsecureHTTP: allowingInsecureHTTP) { client, deviceId in
            try await client.signIn(
                email: email, code: code, deviceId: deviceId, name: name, consentVersion: consentVersion)
        }
        if isSignedIn, let consentVersion, let user = session?.user.id {
            storeConsent(ConsentRecord(version: consentVersion, acceptedAt: ports.clock.now()), for: user)
        }
    }

    /// The identity provider that signs in `email`'s organisation ("Sign in with <name>"), or nil
    /// with the reason on the sign-in screen (none configured, offline, refused).
    public func singleSignOnProvider(
        server: URL, email: String, allowingInsecureHTTP: Bool = false
    ) async -> SSOProviderInfo? {
        guard startSignIn(server: server, allowingInsecureHTTP: allowingInsecureHTTP) else { return nil }
        do {
            return try await APIClient(transport: transport(for: server)).singleSignOnProvider(email: email)
        } catch {
            refuseSignIn(error)
            commit()
            return nil
        }
    }

    /// Where the system browser starts a single sign-on: the server's start with this app's PKCE
    /// challenge, its loopback redirect and its state (RFC 8252).
    public static func singleSignOnStart(
        server: URL, email: String, redirect: String, codeVerifier: String, state: String
    ) -> URL? {
        URL(
            string: API.ssoStart.path(query: [
                ("email", email), ("redirect_uri", redirect), ("code_challenge", PKCE.challenge(of: codeVerifier)),
                ("code_challenge_method", "S256"), ("state", state),
            ]), relativeTo: server)?.absoluteURL
    }

    /// Finishes a single sign-on: the one-time code the browser brought back, with the verifier
    /// of the challenge the sign-in started with, for a session.
    public func signIn(server: URL, ssoCode: String, codeVerifier: String, allowingInsecureHTTP: Bool = false) async {
        await authenticate(server: server, allowingInsecureHTTP: allowingInsecureHTTP) { client, deviceId in
            try await client.signIn(ssoCode: ssoCode, codeVerifier: codeVerifier, deviceId: deviceId)
        }
    }

    /// A single sign-on the browser leg refused (the provider, the server's checks): said on the
    /// sign-in screen and as the refusal, in the server's words.
    public func refuseSingleSignOn(_ description: String) {
        state.signInError = description
        refuse(description)
        commit()
    }

    /// The version of the terms this device's user accepted when registering here.
    public var consentVersion: String? { consent?.version }

    /// The consent the signed-in user (or the removed account whose entries are kept) gave, as
    /// the server last said (each user's own: two people who share a phone each see theirs).
    public var consent: ConsentRecord? {
        guard let user = session?.user.id ?? state.removedAccount?.id else { return nil }
        return surfacing("read your consent") {
            try store.sealedMeta("consent:\(user.wire)", as: ConsentRecord.self)
        }.flatMap { $0 }
    }

    func storeConsent(_ record: ConsentRecord, for user: UserID) {
        surfacing("save your consent") { try store.setSealedMeta("consent:\(user.wire)", record) }
    }

    /// Reads the user's consent from the server (at sign-in and every sync): a second phone
    /// knows what the first one accepted.
    func refreshConsent() async {
        guard let user = session?.user, user.role == .worker || user.role == .mentor, ports.online else { return }
        do {
            let record = try APIClient.decode(
                ConsentRecord.self, try await authorized(TransportRequest(API.consent.line())))
            storeConsent(record, for: user.id)
        } catch {
            if case APIClientError.sessionEnded = error { handle(error) }
        }
    }

    /// One sign-in, whatever proves it: the policy first, then `obtain` the pair, then the
    /// session begins (another user's session ends first, keeping their pending entries).
    private func authenticate(
        server: URL, allowingInsecureHTTP: Bool,
        _ obtain: (APIClient, String) async throws -> TokenPair
    ) async {
        guard startSignIn(server: server, allowingInsecureHTTP: allowingInsecureHTTP) else { return }
        let client = APIClient(transport: transport(for: server))
        // The first contact asks for the client policy, before any password is sent: a device
        // below it shows only the force-upgrade screen.
        await refreshPolicy(client)
        if upgradeRequired {
            commit()
            return
        }
        do {
            let pair = try await obtain(client, deviceId)
            let user = pair.user.id
            if let previous = session, previous.user.id != pair.user.id || previous.serverURL != server.absoluteString {
                await endSession(revoking: previous, discardingOutbox: false)
            }
            let newSession = SessionState(
                serverURL: server.absoluteString, accessToken: pair.accessToken, refreshToken: pair.refreshToken,
                user: pair.user, offlineUnlockHours: pair.offlineUnlockHours)
            try store.adoptUnownedEntries(by: user)
            try sessionKeeper.begin(newSession)
            for module in modules { module.signedIn(pair.user) }
            if let home = modules.first(where: { $0.isHome(for: pair.user) }) {
                // A user who works outside events (a peer mentor, a care worker) lands in their module.
                state.screen = .module
                state.module = type(of: home).name
                await replay(force: true)
                await pullAccountFeeds()
            } else {
                state.screen = .eventPicker
                await loadEvents(range: "all")
                await replay(force: true)
            }
        } catch {
            refuseSignIn(error)
        }
        commit()
    }

    /// The sign-in screen says why the server (or the network) refused, and so does ``refusal``.
    private func refuseSignIn(_ error: any Error) {
        let words = Self.words(forSignIn: error)
        state.signInError = words
        refuse(words)
    }

    /// What every sign-in step does first: nothing while staff actions are refused; the last
    /// messages go; a plain `http://` server off this machine is refused before anything is sent.
    /// False when the step stops here.
    private func startSignIn(server: URL, allowingInsecureHTTP: Bool) -> Bool {
        guard store != nil, refuseStaffActionIfHeld() else { return false }
        state.signInError = nil
        state.signInNotice = nil
        if let refusal = ServerAddress.refusal(server, allowingInsecureHTTP: allowingInsecureHTTP) {
            state.signInError = refusal
            refuse(refusal)
            commit()
            return false
        }
        return true
    }

    /// Why a sign-in did not work, in words.
    static func words(forSignIn error: any Error) -> String {
        switch error {
        case APIClientError.http(429, _): "Too many attempts; wait a few minutes and try again."
        case APIClientError.http(401, "invalid_code"?): "That code is wrong, used or expired; ask for a new one."
        case APIClientError.http(400, "sso_refused"?):
            "That single sign-on was already used, has expired or does not match this app; sign in again."
        case APIClientError.http(403, "password_sign_in_off"?):
            "Your organisation signs in only with single sign-on: sign in with your organisation's provider."
        case APIClientError.http(404, "sso_not_configured"?):
            "Your organisation does not sign in with single sign-on on this server; use your password."
        case APIClientError.http(401, _): "That e-mail and password don't match an account."
        case APIClientError.http(422, _):
            "This e-mail has no account yet: create one with your name and by accepting the terms."
        case APIClientError.http(503, "mail_unavailable"?):
            "The server can't send e-mail right now; try again in a minute, or sign in with a password."
        case APIClientError.http(let status, let code):
            "The server could not sign you in (\(code ?? String(status)))."
        case APIClientError.transport(.untrustedServer):
            "The server's certificate is not trusted by this device; check the address, or ask the organizer."
        case APIClientError.transport: "You're offline; signing in needs the network once."
        default: "Signing in failed: \(error)"
        }
    }

    /// Lists the events the user may work, from the server when online, else the cached list.
    public func showEvents(range: String = "all") async {
        guard session != nil, refuseStaffActionIfHeld() else { return }
        state.screen = .eventPicker
        state.eventId = nil
        for module in modules { module.eventChanged() }
        await loadEvents(range: range)
        commit()
    }

    private func loadEvents(range: String) async {
        guard session != nil else { return }
        state.eventRange = range
        do {
            let response = try await authorized(TransportRequest(API.listEvents.line(query: [("range", range)])))
            let list = try APIClient.decode(EventList.self, response)
            try store.replaceEvents(list.events)
            events = list.events
        } catch {
            handle(error)
        }
    }

    /// Enters an event: pulls every module's feeds (the roster: full the first time, then
    /// deltas, resuming from the stored cursor), then shows the event shell with its tabs.
    public func openEvent(_ eventId: EventID) async {
        guard session != nil, refuseStaffActionIfHeld() else { return }
        guard events.contains(where: { $0.id == eventId }) else {
            refuse("There is no event \(eventId.wire) on your list: show the events and choose one of them.")
            return
        }
        state.eventId = eventId
        state.screen = .event
        for module in modules { module.eventChanged() }
        clearTransient()
        commit()
        await pullFeeds()
        commit()
    }
}
