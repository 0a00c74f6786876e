import Foundation
import OutpostCore
import OutpostDevice
import OutpostDrawing
import OutpostProtocol

/// The door station: the device engine's UI tree in a full-screen terminal, driven by a
/// keyboard-wedge QR scanner (a whole ticket line and Enter at scanner speed) and typing.
@MainActor
public final class StationLoop {
    let app: DeviceApp
    let terminal: Terminal
    let autoConfirm: Bool
    var input = ""
    var highlight: Int?
    var fields = ["", "", ""]  // e-mail, password, server
    var field = 0
    /// The Walk-Ins form's field with the cursor: name, e-mail, access type, amount, method.
    var walkInField = 0
    /// The direction a zone station is set to when its zone is chosen (EFx).
    var zoneDirection: ZoneDirection = .entry
    var running = true
    var shownAt: Date?
    var lastTransient: String?
    var online = true
    var lastHealthCheck = Date.distantPast
    var lastSync = Date()
    var background: Task<Void, Never>?
    var syncAgain = false
    var dirty = true

    /// The venue mesh's node while an event with mesh credentials is open (nil: the station
    /// does not mesh), and whether the join code's QR code is shown (F1).
    let mesh: MeshRunner?
    var showJoinCode = false
    var meshProblem: String?
    var lastMeshUpdate = Date.distantPast

    public init(
        app: DeviceApp, terminal: Terminal = Terminal(), server: String?, autoConfirm: Bool = false,
        mesh: MeshRunner.Settings? = nil
    ) {
        self.app = app
        self.terminal = terminal
        self.autoConfirm = autoConfirm
        self.mesh = mesh.map { MeshRunner(app: app, settings: $0) }
        fields[2] = server ?? app.serverURL ?? "http://127.0.0.1:8080"
    }

    /// Runs until Ctrl-Q; the terminal is restored however it ends.
    public func run() async {
        terminal.start()
        defer { terminal.stop() }
        while running {
            let keys = KeyDecoder.decode(terminal.readAvailable())
            for key in keys { await handle(key) }
            tick()
            await updateMesh()
            if dirty || !keys.isEmpty {
                render()
                dirty = false
            }
            await Task.yield()
        }
        background?.cancel()
        await mesh?.stop()
    }

    /// Starts or stops the mesh's node as events open and close (each second), and redraws so
    /// the peers' freshness stays true.
    func updateMesh() async {
        guard let mesh, Date().timeIntervalSince(lastMeshUpdate) >= 1 else { return }
        lastMeshUpdate = Date()
        do {
            try await mesh.update()
            meshProblem = mesh.discoveryProblem.map { "Venue mesh: no discovery (\($0)); join by code" }
        } catch {
            meshProblem = "Venue mesh off: \(error)"
        }
        if mesh.node != nil || meshProblem != nil { dirty = true }
    }

    // MARK: - Input

    func handle(_ key: Key) async {
        dirty = true
        if key == .control("q") {
            running = false
            return
        }
        if key == .function(1) {
            showJoinCode.toggle()
            return
        }
        if showJoinCode, key == .escape {
            showJoinCode = false
            return
        }
        let shown = app.shown()
        switch shown.tree.screen {
        case UIIdentifier.signIn: await signInKey(key)
        case UIIdentifier.eventPicker: await pickerKey(key)
        case UIIdentifier.confirmationScreen: await confirmationKey(key, shown)
        case UIIdentifier.signOutPendingWarning: await signOutKey(key)
        case UIIdentifier.walkInForm: await walkInKey(key, shown)
        case UIIdentifier.notesScreen: await notesKey(key, shown)
        case UIIdentifier.printScreen: await printKey(key, shown)
        case UIIdentifier.zoneStation: zoneKey(key, shown)
        case UIIdentifier.pickupStation: pickupKey(key, shown)
        case UIIdentifier.leadsScreen: await leadsKey(key, shown)
        case UIIdentifier.walkInSummary: if key == .escape || key == .enter { app.showWalkInSummary(false) }
        default: await shellKey(key, shown)
        }
    }

    func signInKey(_ key: Key) async {
        switch key {
        case .tab, .down: field = (field + 1) % 3
        case .up: field = (field + 2) % 3
        case .backspace: if !fields[field].isEmpty { fields[field].removeLast() }
        case .character(let character): fields[field].append(character)
        case .enter:
            guard let url = URL(string: fields[2]) else { return }
            await app.signIn(server: url, email: fields[0], password: fields[1])
            fields[1] = ""
        default: break
        }
    }

    func pickerKey(_ key: Key) async {
        let events = app.events
        switch key {
        case .character(let character) where character.isNumber:
            if let number = Int(String(character)), number >= 1, number <= events.count {
                await app.openEvent(events[number - 1].id)
            }
        case .down: highlight = min((highlight ?? -1) + 1, events.count - 1)
        case .up: highlight = max((highlight ?? 1) - 1, 0)
        case .enter:
            if let highlight, highlight < events.count { await app.openEvent(events[highlight].id) }
            highlight = nil
        case .function(5), .character("r"): await app.showEvents()
        default: break
        }
    }

    func confirmationKey(_ key: Key, _ shown: ShownScreen) async {
        // A block's unnamed ticket the door may name: what is typed is its holder's name.
        if shown.part(ConfirmationScreen.self)?.namesAtDoor == true {
            switch key {
            case .character(let character): input.append(character)
            case .backspace: if !input.isEmpty { input.removeLast() }
            case .enter:
                await app.confirm(holderName: input, replayAfter: false)
                if app.refusal == nil {
                    input = ""
                    terminal.bell()
                    startSync()
                } else {
                    terminal.bell(times: 3)
                }
            case .escape:
                input = ""
                app.cancel()
            default: break
            }
            return
        }
        switch key {
        case .enter, .character("y"), .character("Y"):
            await confirm()
        case .escape, .character("n"), .character("N"):
            app.cancel()
        case .function(8):
            // The guest's badge on demand; asked again after "needs a reason", a reprint.
            guard let guest = shown.part(ConfirmationScreen.self)?.guest.id else { return }
            let again = app.refusal?.hasSuffix("a reprint needs a reason.") == true
            await app.printBadge(guestId: guest, reprintReason: again ? "reprinted at the station" : nil)
            // The card stays (the check-in is still to confirm); the status line shows the badge.
            terminal.bell(times: app.refusal == nil ? 1 : 3)
        default: break
        }
    }

    /// The Print screen: look for printers, pair one by its number, unpair, retry the queue.
    func printKey(_ key: Key, _ shown: ShownScreen) async {
        guard let screen = shown.part(PrintScreen.self) else { return }
        switch key {
        case .character("d"): _ = await app.discoverPrinters()
        case .character("u"): app.unpairPrinter()
        case .character("r"): await app.runPrintQueue()
        case .character(let character) where character.isNumber:
            let found = screen.discovered.filter { $0.id != screen.paired?.id }
            if let number = Int(String(character)), number >= 1, number <= found.count {
                await app.pairPrinter(id: found[number - 1].id)
            }
        case .escape: app.closePrint()
        default: break
        }
    }

    /// The EFx zone station: before it is set, e, x or b picks the direction and a zone's number
    /// sets it; then every scan (the scanner types, Enter ends it) is an entry or an exit, a bell
    /// for green and three for red. Esc leaves.
    func zoneKey(_ key: Key, _ shown: ShownScreen) {
        guard let screen = shown.part(ZoneStationScreen.self) else { return }
        guard screen.zone != nil else {
            switch key {
            case .character("e"): zoneDirection = .entry
            case .character("x"): zoneDirection = .exit
            case .character("b"): zoneDirection = .both
            case .character(let character) where character.isNumber:
                if let number = Int(String(character)), number >= 1, number <= screen.zones.count {
                    app.setZoneStation(zoneId: screen.zones[number - 1].id, direction: zoneDirection)
                }
            case .escape: app.closeZoneStation()
            default: break
            }
            return
        }
        switch key {
        case .character(let character): input.append(character)
        case .backspace: if !input.isEmpty { input.removeLast() }
        case .enter:
            guard !input.isEmpty else { return }
            app.zoneScan(input)
            input = ""
            let admitted = app.shown().part(ZoneStationScreen.self)?.last?.admitted == true
            terminal.bell(times: admitted ? 1 : 3)
            startSync()
        case .escape:
            input = ""
            app.closeZoneStation()
        default: break
        }
    }

    /// The EFx pickup station: a scan (the scanner types, Enter ends it) shows what the guest may
    /// still collect; then Enter alone hands out all of it, or an item's number and Enter that one
    /// (a ticket is never one or two digits). A bell for green, three for red. Esc leaves.
    func pickupKey(_ key: Key, _ shown: ShownScreen) {
        guard let screen = shown.part(PickupStationScreen.self) else { return }
        switch key {
        case .character(let character): input.append(character)
        case .backspace: if !input.isEmpty { input.removeLast() }
        case .enter:
            if input.isEmpty, screen.guest != nil, !screen.remaining.isEmpty {
                app.pickupRedeem()
            } else if screen.guest != nil, input.count <= 2, let number = Int(input), number >= 1,
                number <= screen.remaining.count
            {
                app.pickupRedeem([screen.remaining[number - 1].item.id: 1])
            } else if !input.isEmpty {
                app.pickupScan(input)
            } else {
                return
            }
            input = ""
            let last = app.shown().part(PickupStationScreen.self)?.last
            if let last { terminal.bell(times: last.handedOut ? 1 : 3) }
            if last?.handedOut == true { startSync() }
        case .escape:
            input = ""
            app.closePickupStation()
        default: break
        }
    }

    /// An exhibitor's lead station: a scan (the scanner types, Enter ends it) captures a lead;
    /// a digit 1-5 and Enter rates the lead just captured. F5 syncs, F2 signs out.
    func leadsKey(_ key: Key, _ shown: ShownScreen) async {
        guard let screen = shown.part(LeadsScreen.self) else { return }
        switch key {
        case .character(let character): input.append(character)
        case .backspace: if !input.isEmpty { input.removeLast() }
        case .enter:
            guard !input.isEmpty else { return }
            if input.count == 1, let rating = Int(input), (1...5).contains(rating), let lead = screen.last?.leadId {
                app.leadEdit(lead, rating: rating)
            } else {
                app.leadScan(input)
            }
            input = ""
            terminal.bell(times: app.shown().part(LeadsScreen.self)?.last?.captured == false ? 3 : 1)
            startSync()
        case .function(5): startSync(force: true)
        case .function(2): await app.signOut()
        default: break
        }
    }

    func confirm() async {
        let already = app.tree().contains(UIIdentifier.alreadyCheckedIn)
        await app.confirm(replayAfter: false)
        terminal.bell(times: already ? 2 : 1)
        render()
        startSync()
    }

    func signOutKey(_ key: Key) async {
        switch key {
        case .enter, .character("w"): await app.signOut(.wait)
        case .character("d"): await app.signOut(.discard)
        case .character("k"): await app.signOut(.keep)
        case .escape: await app.showEvents()
        default: break
        }
    }

    func shellKey(_ key: Key, _ shown: ShownScreen) async {
        // The guests themselves, from check-in's typed tab: ids are never read back from text.
        let suggestions = shown.part(CheckInTabScreen.self)?.shownSuggestions ?? []
        switch key {
        case .character(let character):
            input.append(character)
            highlight = nil
            updateLookup()
        case .backspace:
            if !input.isEmpty { input.removeLast() }
            updateLookup()
        case .down: highlight = suggestions.isEmpty ? nil : min((highlight ?? -1) + 1, suggestions.count - 1)
        case .up: highlight = suggestions.isEmpty ? nil : max((highlight ?? 1) - 1, 0)
        case .escape:
            input = ""
            highlight = nil
            app.dismissTransient()
        case .function(5): startSync(force: true)
        case .function(4):
            walkInField = 0
            app.openWalkIn()
        case .function(6): app.showWalkInSummary()
        case .function(7): app.openNotes()
        case .function(8): app.openPrint()
        case .function(9): app.clearKioskStaffNotes()
        case .function(10):
            input = ""
            app.openZoneStation()
        case .function(11):
            input = ""
            app.openPickupStation()
        case .function(12):
            // "I'm with Acme": the typed partner's block, its next unnamed ticket.
            let partner = input.trimmingCharacters(in: .whitespaces)
            input = ""
            guard !partner.isEmpty else { return }
            app.openBlockTicket(partner)
            if app.refusal != nil { terminal.bell(times: 3) }
        case .function(2): await app.signOut()
        case .function(3): await app.showEvents()
        case .enter: await submit(suggestions)
        default: break
        }
    }

    /// The Walk-Ins form: Tab or ↓ to the next field, ← → to choose the access type and the
    /// method, Enter adds and checks in, Esc leaves. Every keystroke is kept in the form's state
    /// (a relaunch keeps what was typed).
    func walkInKey(_ key: Key, _ shown: ShownScreen) async {
        guard let form = shown.part(WalkInFormScreen.self) else { return }
        let fields = 5
        func edit(_ change: (inout String) -> Void) {
            switch walkInField {
            case 0:
                var text = form.draft.name
                change(&text)
                app.updateWalkIn(name: text)
            case 1:
                var text = form.draft.email
                change(&text)
                app.updateWalkIn(email: text)
            case 3:
                var text = form.draft.amount
                change(&text)
                app.updateWalkIn(amount: text)
            default: break
            }
        }
        func choose(_ step: Int) {
            switch walkInField {
            case 2:
                guard !form.choices.isEmpty else { return }
                let index = form.choices.firstIndex { $0.accessType.id == form.chosen?.accessType.id } ?? 0
                let next = form.choices[(index + step + form.choices.count) % form.choices.count]
                app.updateWalkIn(accessType: next.accessType.id.wire)
            case 4: app.updateWalkIn(method: form.draft.method == .cash ? .card : .cash)
            default: break
            }
        }
        switch key {
        case .tab, .down: walkInField = (walkInField + 1) % fields
        case .up: walkInField = (walkInField + fields - 1) % fields
        case .left: choose(-1)
        case .right: choose(1)
        case .backspace: edit { if !$0.isEmpty { $0.removeLast() } }
        case .character(let character):
            if walkInField == 2 || walkInField == 4 {
                if character == " " { choose(1) }
            } else {
                edit { $0.append(character) }
            }
        case .enter:
            await app.addWalkIn(replayAfter: false)
            if app.refusal == nil {
                terminal.bell(times: 1)
                startSync()
            } else {
                terminal.bell(times: 3)
            }
        case .escape: app.cancelWalkIn()
        default: break
        }
    }

    /// The Notes screen: typing writes the handover note (kept in the module's state), Enter
    /// saves it (locally and queued), Esc goes back.
    func notesKey(_ key: Key, _ shown: ShownScreen) async {
        let draft = shown.part(NotesScreen.self)?.state.draft ?? ""
        switch key {
        case .character(let character): app.typeNote(draft + String(character))
        case .backspace: if !draft.isEmpty { app.typeNote(String(draft.dropLast())) }
        case .enter:
            await app.saveNote(replayAfter: false)
            if app.refusal == nil { startSync() } else { terminal.bell(times: 3) }
        case .escape: app.closeNotes()
        default: break
        }
    }

    /// Enter on the input line: a ticket (scanner), a highlighted suggestion, or a code.
    func submit(_ suggestions: [LocalGuest]) async {
        let line = input.trimmingCharacters(in: .whitespacesAndNewlines)
        input = ""
        defer { highlight = nil }
        guard !line.isEmpty else { return }
        if Self.looksLikeTicket(line) {
            app.scan(line.uppercased())
        } else if let chosen = highlight.flatMap({ $0 < suggestions.count ? suggestions[$0] : nil })
            ?? suggestions.first
        {
            app.choose(guestId: chosen.id)
        } else {
            app.checkIn(code: line)
        }
        let tree = app.tree()
        if tree.screen != UIIdentifier.confirmationScreen {
            terminal.bell(times: 3)  // a red banner
        } else if autoConfirm, !tree.contains(UIIdentifier.alreadyCheckedIn) {
            await confirm()
        }
    }

    /// A scanner types a whole ticket; live autocomplete would only slow it down.
    static func looksLikeTicket(_ line: String) -> Bool {
        line.uppercased().hasPrefix(TicketCodec.prefix) && line.count >= TicketCodec.textLength - 2
    }

    func updateLookup() {
        if input.isEmpty || input.uppercased().hasPrefix(TicketCodec.prefix) {
            app.dismissTransient()
            if input.isEmpty { app.lookup("") }
            return
        }
        app.lookup(input)
    }

    // MARK: - Time

    func tick() {
        let now = Date()
        let tree = app.tree()
        let transient = tree.elements.first {
            StationView.style($0.id) != nil && $0.id != UIIdentifier.pendingSyncBanner
                && $0.id != UIIdentifier.offlineBanner && $0.id != UIIdentifier.syncRejectedBanner
        }
        if let transient, tree.screen == UIIdentifier.eventShell {
            if lastTransient != transient.id + transient.text {
                lastTransient = transient.id + transient.text
                shownAt = now
            } else if let shownAt, now.timeIntervalSince(shownAt) >= 1.5 {
                app.dismissTransient()
                lastTransient = nil
                self.shownAt = nil
                dirty = true
            }
        }
        if now.timeIntervalSince(lastHealthCheck) >= 5 {
            lastHealthCheck = now
            checkHealth()
        }
        if now.timeIntervalSince(lastSync) >= 15, app.pendingCount > 0 || now.timeIntervalSince(lastSync) >= 60 {
            startSync()
        }
        if terminal.size != terminal.refreshSize() { dirty = true }
    }

    func startSync(force: Bool = false) {
        guard background == nil || force else {
            // Something was queued while a sync ran (a note saved as a walk-in was being sent):
            // one more sync follows it, so it does not wait for the next timer.
            syncAgain = true
            return
        }
        lastSync = Date()
        background = Task { @MainActor in
            await self.app.sync()
            self.background = nil
            self.dirty = true
            if self.syncAgain {
                self.syncAgain = false
                self.startSync()
            }
        }
    }

    func checkHealth() {
        guard let server = app.serverURL, let url = URL(string: server) else { return }
        Task { @MainActor in
            // A failure is the answer "not reachable", which is what this asks.
            let reachable =
                (try? await LiveTransport.make(baseURL: url, timeout: 2).send(
                    TransportRequest(API.health.line())))?.status == 200
            if reachable != self.online {
                self.online = reachable
                self.dirty = true
            }
        }
    }

    // MARK: - Drawing

    /// The paired printer's state for the status line, with the badges waiting for it.
    var printerLine: String? {
        guard app.pairedPrinter != nil else { return nil }
        let words =
            switch app.printerStatus?.condition {
            case .ready?: "printer ready"
            case .printing?: "printing"
            case .outOfPaper?: "OUT OF LABELS"
            case .off?: "printer OFF"
            case .stopped?: "printer stopped"
            case nil: "printer paired"
            }
        let waiting = app.badgesWaiting
        return waiting == 0 ? words : "\(words) +\(waiting) badge\(waiting == 1 ? "" : "s")"
    }

    /// The Walk-Ins form's fields, the cursor's marked.
    func walkInLines(_ form: WalkInFormScreen) -> [String] {
        let type = form.chosen.map {
            "\($0.accessType.name) (\(WalkInFormScreen.places($0.placesLeft, online: form.online)))"
        }
        let rows: [(String, String)] = [
            ("Name", form.draft.name), ("E-mail", form.draft.email), ("Type", "◀ \(type ?? "none") ▶"),
            ("Paid", form.draft.amount.isEmpty ? "" : "\(form.draft.amount) \(form.draft.currency)"),
            ("Method", "◀ \(form.draft.method.rawValue) ▶"),
        ]
        return rows.enumerated().map { index, row in
            "\(index == walkInField ? "▶" : " ") \(row.0.padding(toLength: 7, withPad: " ", startingAt: 0)) \(row.1)"
        }
    }

    func render() {
        let size = terminal.refreshSize()
        let shown = app.shown()
        let tree = shown.tree
        let view = StationView(width: size.columns, height: size.rows)
        let event = app.events.first { $0.id.wire == tree.event }?.name
        let status = [
            "Outpost station", event, online ? "● online" : "○ offline", "pending \(tree.pending)", printerLine,
            tree.user,
        ].compactMap { $0 }.joined(separator: "  ·  ")
        var body: [String] = []
        var prompt = "› "
        var shownInput = input
        var hint =
            "Scan a ticket or type a name, e-mail or code · ↑↓ choose · Enter · F4 walk-in · F6 shift · F7 notes · F8 print · F10 zone · F11 pickup · F12 a block's unnamed ticket (type the partner) · F5 sync · F2 sign out · Ctrl-Q quit"
        if tree.contains(UIIdentifier.kioskStaffNotesClear) { hint = "F9 kiosk notes seen · " + hint }
        switch tree.screen {
        case UIIdentifier.signIn:
            let labels = ["E-mail", "Password", "Server"]
            for (index, label) in labels.enumerated() {
                let value = index == 1 ? String(repeating: "•", count: fields[1].count) : fields[index]
                body.append(
                    "\(index == field ? "▶" : " ") \(label.padding(toLength: 9, withPad: " ", startingAt: 0)) \(value)")
            }
            prompt = ""
            shownInput = ""
            hint = "Tab next field · Enter sign in · Ctrl-Q quit"
        case UIIdentifier.eventPicker:
            for (index, event) in app.events.enumerated() {
                body.append("\(index == highlight ? "▶" : " ") \(index + 1). \(event.name)")
            }
            hint = "Press an event's number (or ↑↓ Enter) · r refresh · Ctrl-Q quit"
            prompt = ""
        case UIIdentifier.confirmationScreen:
            if let screen = shown.part(ConfirmationScreen.self) {
                body.append("  Access: \(screen.accessTypeName)   Status: \(screen.guest.status.rawValue)")
                // The roster's notes are the organizer's note's first version: shown until the
                // notes feed has brought it (and any door edit of it) as a note at the door.
                for field in screen.fields { body.append("  \(field.label): \(field.value)") }
                if !screen.guest.notes.isEmpty, screen.doorNotes.isEmpty {
                    body.append("  Notes: \(screen.guest.notes)")
                }
                for note in screen.doorNotes { body.append("  Note: \(note)") }
            }
            if shown.part(ConfirmationScreen.self)?.namesAtDoor == true {
                prompt = "Holder › "
                hint = "Type the holder's name · Enter name and check in · Esc cancel"
            } else {
                hint =
                    tree.contains(UIIdentifier.alreadyCheckedIn)
                    ? "Enter re-confirm · F8 print badge · Esc dismiss"
                    : "Enter confirm check-in · F8 print badge · Esc cancel"
            }
        case UIIdentifier.signOutPendingWarning:
            hint = "w wait for sync (default) · d discard · k keep for next sign-in · Esc back"
        case UIIdentifier.walkInForm:
            if let form = shown.part(WalkInFormScreen.self) { body = walkInLines(form) }
            prompt = ""
            shownInput = ""
            hint = "Tab next field · ←→ choose · Enter add and check in · Esc cancel"
        case UIIdentifier.notesScreen:
            prompt = "Note › "
            shownInput = shown.part(NotesScreen.self)?.state.draft ?? ""
            hint = "Type a note on the event (a handover) · Enter save · Esc back"
        case UIIdentifier.printScreen:
            if let screen = shown.part(PrintScreen.self) {
                let found = screen.discovered.filter { $0.id != screen.paired?.id }
                for (index, printer) in found.enumerated() { body.append("  \(index + 1). pair \(printer.name)") }
            }
            prompt = ""
            shownInput = ""
            hint = "d look for printers · 1-9 pair · u unpair · r retry the queue · Esc back"
        case UIIdentifier.zoneStation:
            if let screen = shown.part(ZoneStationScreen.self) {
                if screen.zone == nil {
                    for (index, zone) in screen.zones.enumerated() { body.append("  \(index + 1). \(zone.name)") }
                    body.append("  Direction: \(ZoneStationScreen.words(zoneDirection))")
                    prompt = ""
                    shownInput = ""
                    hint = "e entry · x exit · b both ways · 1-9 guard that zone · Esc back"
                } else {
                    prompt = "Scan › "
                    hint = "Scan tickets at this zone · Enter · Esc back"
                }
                if let last = screen.last {
                    let style = last.admitted ? StationView.green : StationView.red
                    body.append(style + " " + last.sentence + " " + StationView.reset)
                }
            }
        case UIIdentifier.pickupStation:
            if let screen = shown.part(PickupStationScreen.self) {
                if let guest = screen.guest {
                    body.append("  \(guest.name) may collect:" + (screen.remaining.isEmpty ? " nothing more" : ""))
                    for (index, entry) in screen.remaining.enumerated() {
                        body.append("  \(index + 1). \(entry.item.name) × \(entry.count)")
                    }
                }
                if let last = screen.last {
                    let style = last.handedOut ? StationView.green : StationView.red
                    body.append(style + " " + last.sentence + " " + StationView.reset)
                }
                prompt = "Scan › "
                hint =
                    screen.guest == nil
                    ? "Scan a ticket · Esc back"
                    : "Enter hand out everything · 1-9 Enter that item · scan the next ticket · Esc back"
            }
        case UIIdentifier.leadsScreen:
            if let last = shown.part(LeadsScreen.self)?.last {
                let style = last.captured ? StationView.green : StationView.red
                body.append(style + " " + last.sentence + " " + StationView.reset)
            }
            prompt = "Scan › "
            hint = "Scan a badge · 1-5 Enter rates the last lead · F5 sync · F2 sign out · Ctrl-Q quit"
        case UIIdentifier.walkInSummary:
            prompt = ""
            shownInput = ""
            hint = "Esc back · outpost device walkin summary --csv exports it"
        default:
            break
        }
        if let meshProblem { body.append(StationView.amber + " " + meshProblem + " " + StationView.reset) }
        if showJoinCode {
            // Another door joins this one by scanning this (outpost device mesh --join CODE).
            if let code = app.meshJoinCode, let qr = QRCode(text: code.text) {
                body = ["  \(code.text)"] + qr.terminalLines()
                hint = "Another door scans this code to join the venue mesh · F1 or Esc back"
            } else {
                body = ["  The venue mesh is not running: start the station with --mesh, inside an event."]
                hint = "F1 or Esc back"
            }
        } else if mesh != nil {
            hint = "F1 join code · " + hint
        }
        terminal.draw(
            view.frame(
                tree: tree, status: status, body: body, input: shownInput, prompt: prompt, hint: hint,
                highlight: highlight))
    }
}
