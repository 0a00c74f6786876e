import Foundation
import OutpostCore
import OutpostLab
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Passwordless sign-in and registration (seed 003) over real SMTP: codes go
/// through the mail queue and an SMTP client to aiosmtpd on loopback, and the tests read them
/// from what it received. The server queues; each test sends what is queued by hand
/// (``TestAPI/sendQueuedMail()``), so it knows exactly which mails went.
@Suite("E-mail codes over SMTP")
struct EmailCodeContractTests {
    static func withMailServer(
        _ kind: StoreKind, perEmail: Int = 5, _ body: @Sendable (TestAPI, SMTPSink) async throws -> Void
    ) async throws {
        try await withMailTestServer(kind, configure: { $0.signInFailuresPerEmail = perEmail }, body)
    }

    /// Asks for a code, then sends what that queued.
    static func requestCode(_ api: TestAPI, _ email: String, _ purpose: EmailCodeRequest.Purpose) async throws -> Int {
        let status = try await api.request(
            .post, "/v1/auth/email-code", json: EmailCodeRequest(email: email, purpose: purpose)
        ).status
        await api.sendQueuedMail()
        return status
    }

    static func signIn(
        _ api: TestAPI, _ email: String, _ code: String, name: String? = nil, consent: String? = nil
    ) async throws -> APIResponse {
        try await api.request(
            .post, "/v1/auth/email-signin",
            json: EmailSignInRequest(email: email, code: code, deviceId: "phone", name: name, consentVersion: consent))
    }

    @Test(
        "email-code-register: a six-digit code on the mail's first line creates a worker with their consent; it works once",
        arguments: StoreKind.allCases)
    func register(kind: StoreKind) async throws {
        try await Self.withMailServer(kind) { api, sink in
            #expect(try await Self.requestCode(api, "wanda@care.test", .register) == 202)
            let code = try await sink.code(for: "wanda@care.test")
            #expect(code.count == 6 && code.allSatisfy(\.isNumber), "the first line is the code: \(code)")
            let mail = try #require(sink.messages().last)
            #expect(mail.headers["subject"] == "Your Outpost code to create your account")
            // A wrong code, then a registration without a name, cost nothing of the real code.
            let wrong = try await Self.signIn(
                api, "wanda@care.test", code == "000000" ? "111111" : "000000", name: "Wanda", consent: "2026-01")
            #expect(wrong.status == 401 && wrong.errorCode == "invalid_code")
            #expect(try await Self.signIn(api, "wanda@care.test", code).status == 422)
            let created = try await Self.signIn(api, "Wanda@Care.test", code, name: "Wanda", consent: "2026-01")
            #expect(created.status == 200)
            let pair = try created.decode(TokenPair.self)
            #expect(pair.user.role == .worker && pair.user.email == "wanda@care.test")
            let consent: ConsentRecord = try await api.request(.get, "/v1/me/consent", token: pair.accessToken).decode()
            #expect(consent.version == "2026-01")
            // Single use.
            #expect(try await Self.signIn(api, "wanda@care.test", code).errorCode == "invalid_code")
            // A new version of the terms.
            let updated: ConsentRecord = try await api.request(
                .put, "/v1/me/consent", token: pair.accessToken, json: ConsentRecord(version: "2026-07")
            ).decode()
            #expect(updated.version == "2026-07")
            // Signing in later: a sign-in code, worded so.
            #expect(try await Self.requestCode(api, "wanda@care.test", .signin) == 202)
            #expect(sink.messages().last?.headers["subject"] == "Your Outpost sign-in code")
            let again = try await Self.signIn(api, "wanda@care.test", try await sink.code(for: "wanda@care.test"))
            #expect(try again.decode(TokenPair.self).user.id == pair.user.id)
        }
    }

    @Test(
        "email-code-expiry-and-storage: a code expires after ten minutes, a newer one replaces it, and only its HMAC is stored",
        arguments: StoreKind.allCases)
    func expiry(kind: StoreKind) async throws {
        try await Self.withMailServer(kind) { api, sink in
            _ = try await Self.requestCode(api, "otto@care.test", .register)
            let first = try await sink.code(for: "otto@care.test")
            let dump = try await MentoringContractTests.dump(api.store, tables: ["email_codes", "mail_queue"])
            #expect(!dump.contains(first), "the code is not stored as text, nor kept in its mail once sent")
            api.clock.advance(by: 601)
            #expect(
                try await Self.signIn(api, "otto@care.test", first, name: "Otto", consent: "v1").errorCode
                    == "invalid_code")
            _ = try await Self.requestCode(api, "otto@care.test", .register)
            let second = try await sink.code(for: "otto@care.test")
            _ = try await Self.requestCode(api, "otto@care.test", .register)
            let third = try await sink.code(for: "otto@care.test")
            if second != third {
                #expect(
                    try await Self.signIn(api, "otto@care.test", second, name: "Otto", consent: "v1").errorCode
                        == "invalid_code", "a newer code replaces the older")
            }
            #expect(try await Self.signIn(api, "otto@care.test", third, name: "Otto", consent: "v1").status == 200)
        }
    }

    @Test(
        "email-code-limits: no mail for an unknown sign-in; codes per e-mail are limited; five wrong tries burn a code",
        arguments: StoreKind.allCases)
    func limits(kind: StoreKind) async throws {
        try await Self.withMailServer(kind, perEmail: 50) { api, sink in
            #expect(try await Self.requestCode(api, "nobody@care.test", .signin) == 202)
            #expect(sink.messages().isEmpty, "no account, no mail, same answer")
            for _ in 0..<5 { #expect(try await Self.requestCode(api, "flood@care.test", .register) == 202) }
            let limited = try await api.request(
                .post, "/v1/auth/email-code", json: EmailCodeRequest(email: "flood@care.test", purpose: .register))
            #expect(limited.status == 429 && limited.headers[.retryAfter] != nil)
            #expect(sink.messages().filter { $0.to.contains("flood@care.test") }.count == 5)
            let code = try await sink.code(for: "flood@care.test")
            let wrong = code == "123456" ? "654321" : "123456"
            for _ in 0..<5 {
                #expect(try await Self.signIn(api, "flood@care.test", wrong, name: "F", consent: "v1").status == 401)
            }
            #expect(
                try await Self.signIn(api, "flood@care.test", code, name: "F", consent: "v1").errorCode
                    == "invalid_code",
                "burned after five wrong tries")
        }
    }

    @Test(
        "signin-no-enumeration: a wrong code is one answer (401 invalid_code, the same body) whether the e-mail has an account or not, and probes of unknown e-mails count like failed sign-ins until 429",
        arguments: StoreKind.allCases)
    func noEnumeration(kind: StoreKind) async throws {
        try await Self.withMailServer(kind) { api, sink in
            #expect(try await Self.requestCode(api, "known@care.test", .register) == 202)
            let code = try await sink.code(for: "known@care.test")
            #expect(
                try await Self.signIn(api, "known@care.test", code, name: "Known", consent: "2026-01").status == 200)
            let wrong = code == "000000" ? "111111" : "000000"
            let known = try await Self.signIn(api, "known@care.test", wrong)
            let unknown = try await Self.signIn(api, "nobody@care.test", wrong)
            #expect(known.status == 401 && known.errorCode == "invalid_code")
            #expect(unknown.status == known.status && unknown.body == known.body, "\(unknown.status) \(unknown.text)")
            // Probes of unknown e-mails from one address: counted, then refused (the limit is 20
            // failures an address; two are spent above).
            var statuses: [Int] = []
            for index in 0..<30 {
                statuses.append(try await Self.signIn(api, "probe\(index)@care.test", wrong).status)
            }
            #expect(!statuses.contains(422), "\(statuses)")
            let firstLimited = try #require(statuses.firstIndex(of: 429), "\(statuses)")
            #expect(firstLimited <= 18 && statuses[..<firstLimited].allSatisfy { $0 == 401 }, "\(statuses)")
        }
    }

    @Test(
        "email-stored-normalised: accounts stored before addresses were normalised take the normal form at start (a look-alike that another account already has is left as it is)",
        arguments: StoreKind.allCases)
    func storedAddresses(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let kelvin = try await api.createUser(world.organizer, email: "kf73@example.org", role: .worker, name: "K")
            let wide = try await api.createUser(world.organizer, email: "wide@example.org", role: .worker, name: "W")
            _ = try await api.createUser(world.organizer, email: "taken@example.org", role: .worker, name: "T")
            let twin = try await api.createUser(world.organizer, email: "twin@example.org", role: .worker, name: "2")
            // As an older server stored them: the Kelvin sign, fullwidth letters, a twin of another.
            let legacy: [(UserID, String)] = [
                (kelvin.user.id, "\u{212A}f73@example.org"), (wide.user.id, "ｗｉｄｅ@example.org"),
                (twin.user.id, "ｔａｋｅｎ@example.org"),
            ]
            try await api.store.database.transaction { connection in
                for (id, email) in legacy {
                    try await connection.execute(
                        "UPDATE users SET email = ? WHERE id = ?", [.text(email), .text(id.wire)])
                }
            }
            let left = try await api.store.normalizeStoredEmails()
            #expect(left == ["ｔａｋｅｎ@example.org"])
            #expect(try await api.store.user(email: "kf73@example.org")?.id == kelvin.user.id)
            #expect(try await api.store.user(email: "wide@example.org")?.id == wide.user.id)
            let signedIn = try await api.signIn(email: "kf73@example.org", password: "staff-password")
            #expect(signedIn.user.id == kelvin.user.id)
            // Run again: nothing more to do.
            #expect(try await api.store.normalizeStoredEmails() == ["ｔａｋｅｎ@example.org"])
        }
    }

    @Test(
        "email-code-timing: asking for a code answers as fast for an account as for no account (medians of 30 each, within 1.5x or 5 ms), because the mail is queued and sent after the answer",
        arguments: StoreKind.allCases)
    func timing(kind: StoreKind) async throws {
        let sink = try await SMTPSink.startForTest()
        defer { sink.stop() }
        let rounds = 31
        try await TestStores.withLocation(kind) { location in
            try await timing(kind, on: location, sink: sink, rounds: rounds)
        }
    }

    func timing(
        _ kind: StoreKind, on location: ServerConfiguration.StoreLocation, sink: SMTPSink, rounds: Int
    ) async throws {
        try await withServer(
            location: location, live: true,
            configure: {
                $0.smtpRelay = SMTPClient(relay: sink.relay)
                // Each round comes from its own address, so the per-address limit never answers.
                $0.trustedProxies = ["127.0.0.1", "::1"]
            }
        ) { api in
            let organizer = try await api.bootstrapTenant("Care", email: "org@care.test")
            for round in 0..<rounds {
                _ = try await api.createUser(organizer, email: "known\(round)@care.test", role: .worker, name: "K")
            }
            let milliseconds = { (email: String, round: Int) async throws -> Double in
                let start = ContinuousClock.now
                let status = try await api.request(
                    .post, "/v1/auth/email-code", json: EmailCodeRequest(email: email, purpose: .signin),
                    headers: [.xForwardedFor: "10.0.\(round / 200).\(round % 200 + 1)"]
                ).status
                let elapsed = start.duration(to: .now)
                #expect(status == 202)
                return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            }
            var known: [Double] = []
            var unknown: [Double] = []
            // Round 0 warms up; then pairs back to back, in alternating order.
            for round in 0..<rounds {
                let pair: (known: Double, unknown: Double)
                if round.isMultiple(of: 2) {
                    let first = try await milliseconds("known\(round)@care.test", round)
                    pair = (first, try await milliseconds("nobody\(round)@care.test", round))
                } else {
                    let first = try await milliseconds("nobody\(round)@care.test", round)
                    pair = (try await milliseconds("known\(round)@care.test", round), first)
                }
                guard round > 0 else { continue }
                known.append(pair.known)
                unknown.append(pair.unknown)
            }
            let medians = (known: SignInHardeningTests.median(known), unknown: SignInHardeningTests.median(unknown))
            print(
                "email-code-timing (\(kind)): \(known.count) each, median with an account \(String(format: "%.2f", medians.known)) ms, without \(String(format: "%.2f", medians.unknown)) ms"
            )
            #expect(
                Self.timingParity(medians.known, medians.unknown),
                "known \(medians.known) ms vs unknown \(medians.unknown) ms")
            // Every code asked for with an account was mailed, after its answer.
            for round in 0..<rounds { _ = try await sink.code(for: "known\(round)@care.test") }
            #expect(!sink.messages().contains { $0.to.contains("nobody") })
        }
    }

    /// Whether two medians (ms) are within 1.5 times or 5 ms of each other, whichever is larger.
    static func timingParity(_ a: Double, _ b: Double) -> Bool {
        let (low, high) = (min(a, b), max(a, b))
        return high <= max(low * 1.5, low + 5)
    }

    @Test("email-code-no-relay: without an SMTP relay the route says so (a relay that is down: mail-queue-relay-down)")
    func noRelay() async throws {
        try await withTestServer(.sqlite) { api in
            let answer = try await api.request(
                .post, "/v1/auth/email-code", json: EmailCodeRequest(email: "a@b.test", purpose: .register))
            #expect(answer.status == 503 && answer.errorCode == "mail_unavailable")
        }
    }

    @Test("mail-rendering: CRLF lines, dot-stuffing, an encoded subject, and no header injection")
    func rendering() throws {
        let message = MailMessage(
            from: "Outpost <no-reply@outpost.test>", to: "wanda@care.test", subject: "Ihr Anmeldecode für Outpost",
            body: "123456\n.hidden line\nend")
        let text = try message.rendered(date: Date(timeIntervalSince1970: 0), messageID: "m@outpost.test")
        #expect(text.contains("\r\n\r\n123456\r\n..hidden line\r\nend\r\n"))
        #expect(text.contains("Subject: =?utf-8?B?"))
        #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000"))
        var injected = message
        injected.to = "a@b.test\r\nBcc: everyone@b.test"
        #expect(throws: MailError.invalidHeader) { try injected.rendered(date: Date(), messageID: "x") }
        #expect(SMTPClient(relay: "127.0.0.1:2525")?.port == 2525)
        #expect(SMTPClient(relay: "[::1]:25")?.host == "::1")
        #expect(SMTPClient(relay: "nope") == nil)
    }

    /// A worker's address and a look-alike form of it an attacker types.
    enum LookAlike: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case kelvinSign, fullwidth, dotlessI, sharpS

        var testDescription: String { rawValue }

        var account: String {
            switch self {
            case .kelvinSign, .fullwidth: "kf73cdc@example.org"
            case .dotlessI: "iris@example.org"
            case .sharpS: "strasse@example.org"
            }
        }

        var typed: String {
            switch self {
            case .kelvinSign: "\u{212A}f73cdc@example.org"
            case .fullwidth: "\u{FF4B}f73cdc@example.org"
            case .dotlessI: "\u{0131}ris@example.org"
            case .sharpS: "stra\u{00DF}e@example.org"
            }
        }

        /// Whether the typed form is the account's address once normalised (NFKC, lower-cased).
        var folds: Bool { self == .kelvinSign || self == .fullwidth }
    }

    @Test(
        "email-code-lookalike-address: a code is mailed only to the address stored on the account; a look-alike form (Kelvin sign, fullwidth, dotless i, ß) never receives it and never signs in as the account",
        arguments: StoreKind.allCases, LookAlike.allCases)
    func lookAlike(kind: StoreKind, form: LookAlike) async throws {
        try await Self.withMailServer(kind) { api, sink in
            let organizer = try await api.bootstrapTenant("Care", email: "org@care.test")
            let worker = try await api.createUser(organizer, email: form.account, role: .worker, name: "Kim")
            #expect(try await Self.requestCode(api, form.typed, .signin) == 202)
            if form.folds {
                // One address: the code goes to the account's own mailbox, as for its plain form.
                _ = try await sink.code(for: form.account)
            }
            // The worker asks for a code; whoever types the look-alike and somehow has that code
            // signs in as the worker only when the two forms are one address.
            #expect(try await Self.requestCode(api, form.account, .signin) == 202)
            let code = try await sink.code(for: form.account, after: form.folds ? 1 : 0)
            let attempt = try await Self.signIn(api, form.typed, code)
            if form.folds {
                #expect(try attempt.decode(TokenPair.self).user.id == worker.user.id)
            } else {
                #expect(attempt.status == 401 || attempt.status == 422, "\(attempt.status): \(attempt.text)")
                #expect((try? attempt.decode(TokenPair.self)) == nil)
            }
            let mails = sink.messages()
            #expect(mails.count == (form.folds ? 2 : 1))
            #expect(
                mails.allSatisfy { $0.to.contains(form.account) && !$0.to.contains(form.typed) },
                "addressed to: \(mails.map(\.to))")
        }
    }
}
