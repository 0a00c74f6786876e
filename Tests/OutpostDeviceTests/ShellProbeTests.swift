import Foundation
import OutpostCore
import OutpostDevice
import OutpostProtocol
import OutpostTestSupport
import Testing

/// Seed 000 (native app shell) probes, against a real server over loopback HTTP.
@Suite("Native shell probes (seed 000)")
struct ShellProbeTests {
    @Test("launch-cold-shows-signin: a clean device lands on sign-in, nothing else")
    func launchCold() async throws {
        try await DeviceLab.run { lab in
            let tree = try lab.launch("cold").tree()
            #expect(tree.screen == UIIdentifier.signIn)
            #expect(
                tree.visible
                    == [
                        UIIdentifier.signIn, UIIdentifier.signInEmail, UIIdentifier.signInPassword,
                        UIIdentifier.signInSubmit, UIIdentifier.signInEmailCode, UIIdentifier.signInSingleSignOn,
                    ].sorted())
            #expect(tree.user == nil && tree.pending == 0)
        }
    }

    @Test(
        "signin-persists-across-relaunch and signin-persists-across-os-reboot: a new process lands on the event picker")
    func signInPersists() async throws {
        try await DeviceLab.run { lab in
            let first = try lab.launch("persist")
            await first.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(first.tree().screen == UIIdentifier.eventPicker)
            // A relaunch (force-quit or reboot: nothing survives but the files and the key store).
            let relaunched = try lab.launch("persist")
            #expect(relaunched.tree().screen == UIIdentifier.eventPicker)
            #expect(relaunched.tree().user == "alex@acme.test")
            await relaunched.showEvents()
            #expect(relaunched.tree().elements(UIIdentifier.eventRow).count == 1)
        }
    }

    @Test("sign-in errors are shown on the sign-in screen; offline sign-in says so")
    func signInErrors() async throws {
        try await DeviceLab.run { lab in
            let app = try lab.launch("errors")
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: "wrong-password")
            #expect(app.tree().screen == UIIdentifier.signIn)
            #expect(app.tree().element(UIIdentifier.signInError)?.text.contains("don't match") == true)
            let offline = try lab.launch("errors-offline", online: false)
            await offline.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(offline.tree().element(UIIdentifier.signInError)?.text.contains("offline") == true)
        }
    }

    @Test("token-refresh-silent: an expired access token is refreshed without a sign-in prompt")
    func tokenRefreshSilent() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("refresh")
            lab.api.clock.advance(by: 16 * 60)  // the access token is now expired on the server
            await app.showEvents()
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.eventPicker)
            #expect(tree.elements(UIIdentifier.eventRow).count == 1)
            #expect(!tree.contains(UIIdentifier.signInError))
            // The rotated pair was stored: a relaunch keeps working without the old token.
            lab.api.clock.advance(by: 16 * 60)
            let relaunched = try lab.launch("refresh")
            await relaunched.showEvents()
            #expect(relaunched.tree().screen == UIIdentifier.eventPicker)
        }
    }

    @Test("only a definite refusal of the refresh token ends the session; a network error never does; pending stays")
    func sessionEndsOnlyOnRefusal() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("ending")
            app.update { $0.online = false }
            lab.api.clock.advance(by: 16 * 60)
            await app.sync()
            #expect(app.isSignedIn)
            let hanging = try lab.launch(
                "ending",
                transport: { _ in FlakyTransport(HangingTransport(), dropRequests: 1, dropResponses: 0, seed: 1) })
            await hanging.sync()
            #expect(hanging.isSignedIn, "a failed refresh over a broken network keeps the session")
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm()
            #expect(app.pendingCount == 1)
            // The server revokes the sign-in (the refresh token's family).
            let relaunched = try lab.launch("ending", online: true)
            try await lab.revokeEverySignIn()
            await relaunched.sync()
            let tree = relaunched.tree()
            #expect(tree.screen == UIIdentifier.signIn)
            #expect(tree.pending == 1)
            #expect(!relaunched.isSignedIn)
        }
    }

    @Test("event-picker-shows-tenant-events: one row per event the user may work, with its id")
    func eventPicker() async throws {
        try await DeviceLab.run { lab in
            for name in ["Second", "Third"] {
                let event = try await lab.api.createEvent(lab.world.organizer, name: name)
                _ = try await lab.api.createAccessType(lab.world.organizer, event: event)
            }
            let organizerDevice = try lab.launch("organizer")
            await organizerDevice.signIn(server: lab.serverURL, email: "org@acme.test", password: "organizer-pass")
            let rows = organizerDevice.tree().elements(UIIdentifier.eventRow)
            #expect(rows.count == 3)
            #expect(rows.compactMap { $0.attributes["eventId"] }.contains(lab.world.event.id.wire))
            // Staff see only the event they are assigned to.
            let staffDevice = try lab.launch("staff")
            await staffDevice.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(
                staffDevice.tree().elements(UIIdentifier.eventRow).map { $0.attributes["eventId"] } == [
                    lab.world.event.id.wire
                ])
        }
    }

    @Test("event-tap-syncs-roster: progress is shown page by page with done/total, then the event shell")
    func eventTapSyncsRoster() async throws {
        try await DeviceLab.run(guests: 1) { lab in
            try await lab.importGuests(4500)
            let app = try lab.launch("sync")
            app.rosterPageSize = 2000
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            var progress: [(Int, Int)] = []
            app.onProgress = { tree in
                if let element = tree.element(UIIdentifier.rosterProgress) {
                    progress.append((Int(element.attributes["done"]!)!, Int(element.attributes["total"]!)!))
                }
            }
            await app.openEvent(lab.world.event.id)
            #expect(progress.map(\.0) == [2000, 4000, 4501])
            #expect(progress.allSatisfy { $0.1 == 4501 })
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.eventShell)
            #expect(!tree.contains(UIIdentifier.rosterProgress))
            #expect(tree.element(UIIdentifier.rosterList)?.attributes["count"] == "4501")
            #expect(tree.contains(UIIdentifier.tabCheckIn))
        }
    }

    @Test("offline-roster-readable: offline, the event shell still shows the roster and search works")
    func offlineRosterReadable() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("offline-roster")
            let offline = try lab.launch("offline-roster", online: false)
            await offline.openEvent(lab.world.event.id)
            let tree = offline.tree()
            #expect(tree.screen == UIIdentifier.eventShell)
            #expect(tree.element(UIIdentifier.rosterList)?.attributes["count"] == "3")
            #expect(tree.element(UIIdentifier.offlineBanner)?.attributes["pending"] == "0")
            offline.lookup("guestb")
            #expect(
                offline.tree().elements(UIIdentifier.manualEntrySuggestion).map(\.text).first?.hasPrefix("Guestbaa")
                    == true)
        }
    }

    @Test("offline-checkin-queues and reconnect-replays-queue: the banner counts up offline, drains online")
    func offlineQueueAndReplay() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("queue")
            app.update { $0.online = false }
            for (index, guest) in lab.world.guests.enumerated() {
                app.scan(try await lab.ticket(guest))
                #expect(app.tree().screen == UIIdentifier.confirmationScreen)
                await app.confirm()
                let tree = app.tree()
                #expect(tree.element(UIIdentifier.pendingSyncBanner)?.attributes["pending"] == String(index + 1))
                let offline = tree.element(UIIdentifier.offlineBanner)
                #expect(offline?.text.hasPrefix("Offline — \(index + 1) pending sync · showing saved data") == true)
                #expect(offline?.attributes["lastUpdated"] != nil, "the roster's last sync")
                #expect(tree.contains(UIIdentifier.syncingIndicator))
                #expect(tree.contains(UIIdentifier.checkedInCard))
            }
            #expect(try await lab.serverCheckIns().isEmpty)
            app.update { $0.online = true }
            await app.sync()
            let tree = app.tree()
            #expect(tree.pending == 0)
            #expect(!tree.contains(UIIdentifier.pendingSyncBanner))
            #expect(!tree.contains(UIIdentifier.offlineBanner))
            #expect(
                try await lab.serverCheckIns() == Dictionary(uniqueKeysWithValues: lab.world.guests.map { ($0.id, 1) }))
        }
    }

    @Test("replay-preserves-chronological-order: the server's audit order equals the scan order")
    func replayOrder() async throws {
        try await DeviceLab.run(guests: 6) { lab in
            let app = try await lab.readyDevice("order")
            app.update { $0.online = false }
            let order = [3, 0, 5, 1, 4, 2].map { lab.world.guests[$0] }
            for guest in order {
                app.scan(try await lab.ticket(guest))
                await app.confirm()
            }
            app.update { $0.online = true }
            await app.sync()
            #expect(try await lab.audit().map(\.guestId) == order.map(\.id))
        }
    }

    @Test("two-staff-idempotent: two devices, one guest, within 30 s: one row; the second shows who and when")
    func twoStaff() async throws {
        try await DeviceLab.run { lab in
            let alex = try await lab.readyDevice("alex")
            let bea = try await lab.readyDevice("bea", email: "bea@acme.test")
            let ticket = try await lab.ticket(lab.world.guests[0])
            // Both scan before either syncs: both see a plain confirmation and confirm locally.
            bea.update { $0.online = false }
            alex.scan(ticket)
            bea.scan(ticket)
            await alex.confirm()
            lab.api.clock.advance(by: 5)
            await bea.confirm()
            bea.update { $0.online = true }
            await bea.sync()
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
            let info = try #require(bea.tree().element(UIIdentifier.alreadyCheckedIn))
            #expect(info.text.contains("checked in by Alex at"))
            #expect(info.attributes["kind"] == "info")
            #expect(bea.tree().pending == 0)
            // And Bea's next scan of the guest shows the already-checked-in screen with Alex's name.
            bea.scan(ticket)
            #expect(bea.tree().element(UIIdentifier.alreadyCheckedIn)?.attributes["byName"] == "Alex")
        }
    }

    @Test(
        "backgrounded-resume-fast: after 30 minutes in the background the resume shows the skeleton and is interactive within 1.5 s while the server hangs; then it pulls the roster delta and replays the queue; the camera permission is read again"
    )
    func resumeFast() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("resume")
            let clock = ManualClock(Date())
            let gate = TransportGate()
            let camera = LockedBox(CameraPermission.granted)
            let app = try lab.launch("resume", clock: clock.wallClock, transport: { GatedTransport($0, gate: gate) })
            // A check-in confirmed offline waits in the queue.
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm()
            #expect(app.pendingCount == 1)
            app.update { $0.online = true }
            // Away for 30 minutes: a late guest is added at the server, the camera permission is
            // revoked in the OS settings, and the server stops answering.
            app.background()
            let late = try await lab.api.createGuest(
                lab.world.organizer, event: lab.world.event, accessType: lab.world.accessType, name: "Late Arrival")
            clock.advance(by: 30 * 60)
            app.update { ports in ports.camera = { camera.value } }
            camera.value = .denied
            gate.close()
            var skeletonSeen = false
            app.onProgress = { tree in skeletonSeen = skeletonSeen || tree.contains(UIIdentifier.resumeSkeleton) }
            let nextTicket = try await lab.ticket(lab.world.guests[1])  // the attendee's, not the app's time
            let started = ContinuousClock.now
            let syncing = app.foreground()
            // Interactive at once: the screen is the event shell, the camera is asked again, and
            // the next scan opens its confirmation while the sync still hangs.
            let resumed = app.tree()
            #expect(skeletonSeen && !resumed.contains(UIIdentifier.resumeSkeleton))
            #expect(resumed.screen == UIIdentifier.eventShell)
            #expect(resumed.contains(UIIdentifier.cameraPermissionPrompt), "the revoked permission is seen")
            app.scan(nextTicket)
            #expect(app.tree().screen == UIIdentifier.confirmationScreen)
            let interactive = ContinuousClock.now - started
            #expect(interactive < .milliseconds(1500), "interactive after \(interactive)")
            print("backgrounded-resume-fast: interactive \(interactive) after the resume")
            app.cancel()
            await gate.waitForHeldRequest()
            #expect(app.pendingCount == 1, "nothing was answered yet")
            // The server answers again: the queue replays and the delta arrives.
            gate.open()
            await syncing.value
            #expect(app.pendingCount == 0)
            #expect(try await lab.serverCheckIns()[lab.world.guests[0].id] == 1)
            #expect(app.index?.search("Late Arrival").map(\.id) == [late.id], "the roster delta was pulled")
        }
    }

    @Test("force-quit-preserves-queue: 5 pending offline, relaunch, 5 still pending, then all land once")
    func forceQuitPreservesQueue() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let app = try await lab.readyDevice("quit")
            app.update { $0.online = false }
            for guest in lab.world.guests {
                app.scan(try await lab.ticket(guest))
                await app.confirm()
            }
            #expect(app.pendingCount == 5)
            let relaunched = try lab.launch("quit", online: false)
            #expect(relaunched.tree().pending == 5)
            let online = try lab.launch("quit")
            await online.sync()
            #expect(online.tree().pending == 0)
            #expect(try await lab.serverCheckIns().count == 5)
        }
    }

    @Test(
        "camera-permission-revoked and camera-permission-prompt-deeplink-settings: the prompt on the check-in tab, with a settings link, manual entry reachable"
    )
    func cameraRevoked() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("camera")
            let app = try lab.launch("camera", camera: .denied)
            await app.openEvent(lab.world.event.id)
            let tree = app.tree()
            #expect(tree.contains(UIIdentifier.cameraPermissionPrompt))
            #expect(!tree.contains(UIIdentifier.cameraViewfinder))
            #expect(tree.element(UIIdentifier.cameraPermissionPrompt)?.text.contains("Open Settings") == true)
            #expect(tree.element(UIIdentifier.cameraSettingsLink)?.attributes["url"] == "app-settings:")
            #expect(tree.contains(UIIdentifier.manualEntryToggle) && tree.contains(UIIdentifier.manualEntryInput))
            let android = try lab.launch("camera", camera: .denied, platform: PlatformInfo(os: .android, version: "34"))
            #expect(android.tree().element(UIIdentifier.cameraSettingsLink)?.attributes["url"] == "package:app.outpost")
            // Granted again: the viewfinder is back, checked on this entry.
            let granted = try lab.launch("camera")
            await granted.openEvent(lab.world.event.id)
            #expect(granted.tree().contains(UIIdentifier.cameraViewfinder))
        }
    }

    @Test("signout-with-pending-warns: 5 pending, sign-out shows the warning with wait (default), discard, keep")
    func signOutWarns() async throws {
        try await DeviceLab.run(guests: 5) { lab in
            let app = try await lab.readyDevice("signout")
            app.update { $0.online = false }
            for guest in lab.world.guests {
                app.scan(try await lab.ticket(guest))
                await app.confirm()
            }
            await app.signOut()
            let tree = app.tree()
            #expect(tree.screen == UIIdentifier.signOutPendingWarning)
            #expect(
                tree.element(UIIdentifier.signOutPendingWarning)?.text.hasPrefix("5 check-ins haven't synced") == true)
            #expect(tree.element(UIIdentifier.signOutWait)?.attributes["default"] == "true")
            #expect(tree.contains(UIIdentifier.signOutDiscard) && tree.contains(UIIdentifier.signOutKeep))
            // Waiting while offline keeps the warning up.
            await app.signOut(.wait)
            #expect(app.tree().screen == UIIdentifier.signOutPendingWarning)
            #expect(app.isSignedIn)
            // Keep: signed out, the queue stays and replays when the same user signs in again.
            await app.signOut(.keep)
            #expect(app.tree().screen == UIIdentifier.signIn)
            #expect(app.tree().pending == 5)
            app.update { $0.online = true }
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.tree().pending == 0)
            #expect(try await lab.serverCheckIns().count == 5)
        }
    }

    @Test(
        "sign-out with discard drops the user's own queue; another user's sign-in never replays, nor discards, a kept queue"
    )
    func signOutDiscardAndOwner() async throws {
        try await DeviceLab.run(guests: 2) { lab in
            let app = try await lab.readyDevice("discard")
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[0]))
            await app.confirm()
            await app.signOut(.keep)
            app.update { $0.online = true }
            await app.signIn(server: lab.serverURL, email: "bea@acme.test", password: DeviceLab.staffPassword)
            #expect(app.tree().pending == 0, "Bea has nothing of her own pending")
            #expect(app.pendingForOtherUsers == 1)
            #expect(app.tree().element(UIIdentifier.pendingOtherUsersBanner)?.attributes["pending"] == "1")
            #expect(try await lab.serverCheckIns().isEmpty, "Bea must not send Alex's check-ins")
            // Bea's own offline check-in, discarded at her sign-out; Alex's kept one stays.
            await app.openEvent(lab.world.event.id)
            app.update { $0.online = false }
            app.scan(try await lab.ticket(lab.world.guests[1]))
            await app.confirm()
            #expect(app.tree().pending == 1)
            await app.signOut()
            #expect(app.tree().screen == UIIdentifier.signOutPendingWarning)
            await app.signOut(.discard)
            #expect(app.tree().screen == UIIdentifier.signIn)
            #expect(app.tree().pending == 1, "Alex's kept check-in is not Bea's to discard")
            app.update { $0.online = true }
            await app.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            #expect(app.tree().pending == 0)
            #expect(try await lab.serverCheckIns() == [lab.world.guests[0].id: 1])
        }
    }

    @Test("signout-with-clean-immediate: nothing pending, straight to sign-in")
    func signOutClean() async throws {
        try await DeviceLab.run { lab in
            let app = try await lab.readyDevice("clean")
            await app.signOut()
            #expect(app.tree().screen == UIIdentifier.signIn)
            #expect(!app.isSignedIn)
            #expect(try lab.launch("clean").tree().screen == UIIdentifier.signIn)
        }
    }
}

@Suite("Roster sync resumption")
struct RosterResumeTests {
    /// Answers the first `pages` roster requests, then fails like a dead network.
    final class PageLimitedTransport: Transport, @unchecked Sendable {
        let inner: any Transport
        let pages: Int
        private let lock = NSLock()
        private var served = 0
        private(set) var paths: [String] = []

        init(_ inner: any Transport, pages: Int) {
            self.inner = inner
            self.pages = pages
        }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let allowed = lock.withLock { () -> Bool in
                guard request.path.contains("/roster") else { return true }
                paths.append(request.path)
                served += 1
                return served <= pages
            }
            guard allowed else { throw TransportError.connectionFailed("network lost mid-sync") }
            return try await inner.send(request)
        }
    }

    @Test("a sync cut off mid-roster resumes from the stored cursor, page by page, without starting over")
    func resumes() async throws {
        try await DeviceLab.run(guests: 1) { lab in
            try await lab.importGuests(4500)
            let (first, _) = try lab.launch("resume-sync", wrapping: { inner in PageLimitedTransport(inner, pages: 2) })
            first.rosterPageSize = 2000
            await first.signIn(server: lab.serverURL, email: "alex@acme.test", password: DeviceLab.staffPassword)
            await first.openEvent(lab.world.event.id)
            #expect(first.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "4000")
            let (second, recorder) = try lab.launch("resume-sync", wrapping: { inner in RecordingTransport(inner) })
            second.rosterPageSize = 2000
            await second.openEvent(lab.world.event.id)
            #expect(second.tree().element(UIIdentifier.rosterList)?.attributes["count"] == "4501")
            let rosterPaths = (recorder.value?.requests ?? []).map(\.path).filter { $0.contains("/roster") }
            #expect(rosterPaths.count == 1)
            #expect(rosterPaths.first?.contains("since=") == true, "resumed from the cursor of page 2")
        }
    }
}

@Suite("Local check-ins and roster pages")
struct LocalPendingTests {
    /// Passes everything but check-in posts (alone or in a batch), which fail like a dead network.
    struct NoCheckInPosts: Transport {
        let inner: any Transport
        func send(_ request: TransportRequest) async throws -> TransportResponse {
            if request.method == "POST",
                request.path.hasSuffix("/checkins") || request.path.hasSuffix("/checkins:batch")
            {
                throw TransportError.timedOut
            }
            return try await inner.send(request)
        }
    }

    @Test("a roster page that does not know a pending local check-in keeps it, also after a relaunch")
    func pendingSurvivesRosterPages() async throws {
        try await DeviceLab.run { lab in
            _ = try await lab.readyDevice("pending")
            let app = try lab.launch("pending", transport: { NoCheckInPosts(inner: $0) })
            await app.openEvent(lab.world.event.id)
            let guest = lab.world.guests[0]
            let ticket = try await lab.ticket(guest)
            app.scan(ticket)
            await app.confirm()
            // The guest changes on the server, so the next delta carries them without a check-in.
            _ = try await lab.api.request(
                .patch, "/v1/events/\(lab.world.event.id)/guests/\(guest.id)",
                token: try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken,
                json: UpdateGuestRequest(notes: "changed on the server"))
            await app.sync()
            #expect(app.pendingCount == 1)
            app.scan(ticket)
            #expect(app.tree().contains(UIIdentifier.alreadyCheckedIn), "the local check-in survived the page")
            #expect(app.tree().element(UIIdentifier.confirmationScreen)?.attributes["notes"] == "changed on the server")
            app.cancel()
            let relaunched = try lab.launch("pending")
            await relaunched.sync()
            #expect(relaunched.pendingCount == 0)
            #expect(try await lab.serverCheckIns() == [guest.id: 1])
        }
    }
}
