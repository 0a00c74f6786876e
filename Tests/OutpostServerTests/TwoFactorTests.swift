import Crypto
import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Two-factor sign-in: RFC 6238's codes, turning it on, the sign-in's second step (a code once,
/// a recovery code once, wrong codes counted like wrong passwords), and the organisation's
/// requirement of it for organizers; in the console too.
@Suite("Two-factor sign-in")
struct TwoFactorTests {
    @Test(
        "totp-rfc6238: the RFC's test vectors (SHA-1, SHA-256, SHA-512, eight digits); a code matches its step and the one either side, after the last used, digits only"
    )
    func vectors() throws {
        let sha1 = Array("12345678901234567890".utf8)
        let sha256 = Array("12345678901234567890123456789012".utf8)
        let sha512 = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)
        let table: [(Int64, String, String, String)] = [
            (59, "94287082", "46119246", "90693936"),
            (1_111_111_109, "07081804", "68084774", "25091201"),
            (1_111_111_111, "14050471", "67062674", "99943326"),
            (1_234_567_890, "89005924", "91819424", "93441116"),
            (2_000_000_000, "69279037", "90698825", "38618901"),
            (20_000_000_000, "65353130", "77737706", "47863826"),
        ]
        for (time, one, two, five) in table {
            let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(time)))
            #expect(TOTP.code(secret: sha1, step: step, digits: 8, hash: Insecure.SHA1.self) == one, "\(time)")
            #expect(TOTP.code(secret: sha256, step: step, digits: 8, hash: SHA256.self) == two, "\(time)")
            #expect(TOTP.code(secret: sha512, step: step, digits: 8, hash: SHA512.self) == five, "\(time)")
        }
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let step = TOTP.step(at: now)
        for offset in [-1, 0, 1] as [Int64] {
            let code = TOTP.code(secret: sha1, step: step + offset)
            #expect(TOTP.matchingStep(code, secret: sha1, now: now, after: 0) == step + offset)
            #expect(TOTP.matchingStep(code, secret: sha1, now: now, after: step + offset) == nil, "used")
        }
        #expect(TOTP.matchingStep(TOTP.code(secret: sha1, step: step - 2), secret: sha1, now: now, after: 0) == nil)
        #expect(TOTP.matchingStep(TOTP.code(secret: sha1, step: step + 2), secret: sha1, now: now, after: 0) == nil)
        let code = TOTP.code(secret: sha1, step: step)
        #expect(
            TOTP.matchingStep(String(code.prefix(3)) + " " + code.dropFirst(3), secret: sha1, now: now, after: 0)
                == step)
        #expect(TOTP.matchingStep("12345", secret: sha1, now: now, after: 0) == nil)
        #expect(TOTP.matchingStep("١٢٣٤٥٦", secret: sha1, now: now, after: 0) == nil)
        #expect(
            TOTP.uri(secret: "ABC", account: "ada@example.org").hasPrefix(
                "otpauth://totp/Outpost:ada@example.org?secret=ABC"))
    }

    /// The code the app would show now for an enrollment's secret.
    static func code(_ enrollment: TwoFactorEnrollment, at date: Date) throws -> String {
        TOTP.code(secret: try #require(Base32.decode(enrollment.secret)), step: TOTP.step(at: date))
    }

    /// Turns two-factor sign-in on for `session`'s user: the secret and the recovery codes.
    static func enroll(
        _ api: TestAPI, _ session: Session, password: String
    ) async throws -> (TwoFactorEnrollment, [String]) {
        let lab = api.lab(session)
        let enrollment = try await lab.call(
            API.enrollTwoFactor, json: TwoFactorEnrollRequest(password: password), what: "enroll")
        let codes = try await lab.call(
            API.confirmTwoFactor, json: TwoFactorConfirmRequest(code: try code(enrollment, at: api.clock.now)),
            what: "confirm")
        return (enrollment, codes.codes)
    }

    /// A password sign-in's first step: the challenge of its `two_factor_required`.
    static func challenge(_ api: TestAPI, _ email: String, _ password: String) async throws -> String {
        let answer = try await api.request(
            .post, API.signIn.path(), json: SignInRequest(email: email, password: password, deviceId: "laptop"))
        #expect(answer.status == 401 && answer.errorCode == "two_factor_required", "\(answer.text)")
        return try #require(try answer.decode(ErrorBody.self).challenge)
    }

    static func second(_ api: TestAPI, _ challenge: String, _ code: String) async throws -> APIResponse {
        try await api.request(.post, API.signInCode.path(), json: SignInCodeRequest(challenge: challenge, code: code))
    }

    @Test(
        "two-factor-turned-off: an organizer turns off a user's lost second factor: the users list says who has one, the user's sessions end, the password alone signs in and it can be turned on again; not one's own, not by support",
        arguments: StoreKind.allCases)
    func turnedOff(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let (enrollment, _) = try await Self.enroll(api, world.staff1, password: "staff-password")
            let path = API.turnOffUserTwoFactor.path(world.staff1.user.id)
            var users: UserList = try await api.request(.get, "/v1/users", token: world.organizer.accessToken).decode()
            #expect(users.users.filter { $0.twoFactorEnabled == true }.map(\.email) == ["alex@acme.test"])
            #expect(try await api.request(.delete, path, token: world.support.accessToken).status == 403)
            let own = try await api.request(
                .delete, API.turnOffUserTwoFactor.path(world.organizer.user.id), token: world.organizer.accessToken)
            #expect(own.status == 422 && own.text.contains("recovery code"), "\(own.text)")
            #expect(try await api.request(.delete, path, token: world.organizer.accessToken).status == 204)
            users = try await api.request(.get, "/v1/users", token: world.organizer.accessToken).decode()
            #expect(users.users.allSatisfy { $0.twoFactorEnabled == false })
            // Whoever held a session of theirs signs in again, with the password alone.
            let refresh = try await api.request(
                .post, API.refresh.path(), json: RefreshRequest(refreshToken: world.staff1.refreshToken))
            #expect(refresh.status == 401)
            let session = try await api.signIn(email: "alex@acme.test", password: "staff-password")
            #expect(try await api.request(.get, "/v1/events", token: session.accessToken).status == 200)
            // The old secret's codes are worth nothing; a new one turns it on again.
            let (again, _) = try await Self.enroll(api, session, password: "staff-password")
            #expect(again.secret != enrollment.secret)
            _ = try await Self.challenge(api, "alex@acme.test", "staff-password")
        }
    }

    @Test(
        "two-factor-signin: turned on with the password and the app's first code; then a password sign-in needs a code: a wrong, used or expired one is refused, a recovery code signs in once, and a late or altered challenge starts over",
        arguments: StoreKind.allCases)
    func signIn(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let lab = api.lab(world.organizer)
            let wrongPassword = try await lab.request(
                API.enrollTwoFactor.line(), json: TwoFactorEnrollRequest(password: "not it"))
            #expect(wrongPassword.status == 401)
            let enrollment = try await lab.call(
                API.enrollTwoFactor, json: TwoFactorEnrollRequest(password: "organizer-pass"), what: "enroll")
            #expect(enrollment.uri.contains("secret=\(enrollment.secret)") && enrollment.secret.count == 32)
            // Not on until its first code: the password alone still signs in.
            #expect(try await api.signIn(email: "org@acme.test", password: "organizer-pass").accessToken.count > 0)
            let wrong = try await lab.request(
                API.confirmTwoFactor.line(), json: TwoFactorConfirmRequest(code: "000000"))
            #expect(wrong.status == 422 && String(decoding: wrong.body, as: UTF8.self).contains("invalid_code"))
            let recovery = try await lab.call(
                API.confirmTwoFactor,
                json: TwoFactorConfirmRequest(code: try Self.code(enrollment, at: api.clock.now)), what: "confirm")
            #expect(recovery.codes.count == 10 && Set(recovery.codes).count == 10)
            #expect(recovery.codes.allSatisfy { $0.count == 11 && $0.dropFirst(5).first == "-" })
            let status = try await lab.call(API.twoFactor, what: "status")
            #expect(status == TwoFactorStatus(enabled: true, enrolling: false, recoveryCodesLeft: 10, required: false))
            let again = try await lab.request(
                API.enrollTwoFactor.line(), json: TwoFactorEnrollRequest(password: "organizer-pass"))
            #expect(again.status == 409, "on already")
            // The password is the first step only.
            var challenge = try await Self.challenge(api, "org@acme.test", "organizer-pass")
            var answer = try await Self.second(api, challenge, "123456")
            #expect(answer.status == 401 && answer.errorCode == "invalid_code")
            // The confirming code's step is used; the next one signs in, once.
            api.clock.advance(by: 30)
            let code = try Self.code(enrollment, at: api.clock.now)
            answer = try await Self.second(api, challenge, code)
            #expect(answer.status == 200)
            let pair: TokenPair = try answer.decode()
            #expect(pair.user.email == "org@acme.test" && pair.twoFactorEnrollmentRequired == nil)
            #expect(try await api.request(.get, "/v1/events", token: pair.accessToken).status == 200)
            challenge = try await Self.challenge(api, "org@acme.test", "organizer-pass")
            #expect(try await Self.second(api, challenge, code).status == 401, "a code signs in once")
            // A code of a minute and a half ago is too old.
            let old = try Self.code(enrollment, at: api.clock.now)
            api.clock.advance(by: 90)
            #expect(try await Self.second(api, challenge, old).status == 401)
            // A recovery code signs in once, however it is typed.
            let typed = recovery.codes[3].lowercased().replacingOccurrences(of: "-", with: " ")
            #expect(try await Self.second(api, challenge, typed).status == 200)
            #expect(try await Self.second(api, challenge, recovery.codes[3]).status == 401)
            #expect(try await lab.call(API.twoFactor, what: "status").recoveryCodesLeft == 9)
            // A challenge is good for five minutes, and only as issued.
            api.clock.advance(by: 301)
            answer = try await Self.second(api, challenge, try Self.code(enrollment, at: api.clock.now))
            #expect(answer.status == 401 && answer.errorCode == "unauthorized")
            challenge = try await Self.challenge(api, "org@acme.test", "organizer-pass")
            let altered = String(challenge.dropLast(2)) + (challenge.hasSuffix("AA") ? "BB" : "AA")
            #expect(try await Self.second(api, altered, try Self.code(enrollment, at: api.clock.now)).status == 401)
            // Someone else's account is untouched.
            #expect(try await api.signIn(email: "alex@acme.test", password: "staff-password").accessToken.count > 0)
        }
    }

    @Test(
        "two-factor-rate-limited: wrong codes count like wrong passwords; past the limit even the right code waits",
        arguments: StoreKind.allCases)
    func rateLimited(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            _ = try await World.make(api)
            let organizer = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
            let (enrollment, _) = try await Self.enroll(api, organizer, password: "organizer-pass")
            api.clock.advance(by: 30)
            let challenge = try await Self.challenge(api, "org@acme.test", "organizer-pass")
            var statuses: [Int] = []
            for guess in 0..<api.configuration.signInFailuresPerEmail + 1 {
                statuses.append(try await Self.second(api, challenge, String(format: "%06d", guess)).status)
            }
            #expect(statuses.last == 429, "\(statuses)")
            #expect(statuses.dropLast().allSatisfy { $0 == 401 }, "\(statuses)")
            let right = try await Self.second(api, challenge, try Self.code(enrollment, at: api.clock.now))
            #expect(right.status == 429)
        }
    }

    @Test(
        "two-factor-required: with the organisation's requirement an organizer without it gets a session that may only turn it on, then a whole one at the next refresh; other roles are not asked",
        arguments: StoreKind.allCases)
    func required(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await api.lab(world.organizer).call(
                API.setTenantSettings, json: TenantSettings(organizersNeedTwoFactor: true), what: "settings")
            let second = try await api.createUser(
                world.organizer, email: "ole@acme.test", role: .organizer, name: "Ole")
            let answer = try await api.request(
                .post, API.signIn.path(),
                json: SignInRequest(email: "ole@acme.test", password: "staff-password", deviceId: "laptop"))
            let pair: TokenPair = try answer.decode()
            #expect(pair.twoFactorEnrollmentRequired == true)
            let refused = try await api.request(.get, "/v1/events", token: pair.accessToken)
            #expect(refused.status == 403 && refused.errorCode == "two_factor_enrollment_required")
            #expect(
                try await api.request(
                    .put, API.setTenantSettings.path(), token: pair.accessToken, json: TenantSettings()
                )
                .status == 403, "cannot lift the requirement instead")
            var restricted = second
            restricted.accessToken = pair.accessToken
            restricted.refreshToken = pair.refreshToken
            #expect(try await api.lab(restricted).call(API.twoFactor, what: "status").required)
            _ = try await Self.enroll(api, restricted, password: "staff-password")
            let renewed: TokenPair = try await api.request(
                .post, API.refresh.path(), json: RefreshRequest(refreshToken: pair.refreshToken)
            ).decode()
            #expect(renewed.twoFactorEnrollmentRequired == nil)
            #expect(try await api.request(.get, "/v1/events", token: renewed.accessToken).status == 200)
            // Door staff and support are not asked.
            let staff = try await api.signIn(email: "alex@acme.test", password: "staff-password")
            #expect(try await api.request(.get, "/v1/events", token: staff.accessToken).status == 200)
            let support = try await api.signIn(email: "support@acme.test", password: "staff-password")
            #expect(try await api.request(.get, "/v1/events", token: support.accessToken).status == 200)
        }
    }

    @Test(
        "console-two-factor: an organizer turns it on in the console (password, the key, the first code, ten recovery codes once); sign-in then asks for a code on a page of its own: a wrong code is said beside it, a recovery code works; an organizer the organisation requires it of is sent to turn it on before any page",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.twoFactor.path())
            #expect(page.text.contains("id=\"enroll-form\"") && page.text.contains("Off"))
            page = try await browser.post(ConsolePages.enrollTwoFactor.path(), [("password", "organizer-pass")])
            let secret = try #require(CheckInDeskTests.attribute("data-secret", in: page.text))
            let enrollment = TwoFactorEnrollment(secret: secret, uri: "")
            page = try await browser.post(
                ConsolePages.confirmTwoFactor.path(), [("code", try Self.code(enrollment, at: api.clock.now))])
            #expect(page.status == 200 && page.text.components(separatedBy: "<li><code>").count - 1 == 10)
            let recovery = try #require(
                page.text.components(separatedBy: "<li><code>").dropFirst().first?.prefix(11).description)
            #expect(try await browser.get(ConsolePages.twoFactor.path()).text.contains("10 recovery code(s) left"))
            try await browser.post(ConsolePages.signOut.path(), [])
            // Sign in: the password, then the code's own page.
            page = try await browser.signIn(email: "org@acme.test", password: "organizer-pass")
            #expect(page.status == 200 && page.text.contains("id=\"code-form\""))
            #expect(!page.text.contains("organizer-pass"), "the password is not carried in the page")
            let challenge = try #require(CheckInDeskTests.hidden("challenge", in: page.text))
            page = try await browser.post(
                ConsolePages.signInCode.path(), [("challenge", challenge), ("code", "000000")])
            #expect(page.status == 401 && page.text.contains("The code is wrong") && page.text.contains("code-form"))
            api.clock.advance(by: 30)
            page = try await browser.post(
                ConsolePages.signInCode.path(),
                [("challenge", challenge), ("code", try Self.code(enrollment, at: api.clock.now))])
            #expect(page.status == 303 && page.headers[.location] == ConsolePages.events.path())
            #expect(try await browser.get(ConsolePages.events.path()).text.contains(world.event.name))
            try await browser.post(ConsolePages.signOut.path(), [])
            page = try await browser.signIn(email: "org@acme.test", password: "organizer-pass")
            page = try await browser.post(
                ConsolePages.signInCode.path(),
                [("challenge", try #require(CheckInDeskTests.hidden("challenge", in: page.text))), ("code", recovery)])
            #expect(page.status == 303, "a recovery code")
            // Required of organizers: one without it goes to turn it on first.
            _ = try await api.lab(world.organizer).call(
                API.setTenantSettings, json: TenantSettings(organizersNeedTwoFactor: true), what: "settings")
            _ = try await api.createUser(world.organizer, email: "ole@acme.test", role: .organizer, name: "Ole")
            let ole = ConsoleBrowser(api)
            page = try await ole.signIn(email: "ole@acme.test", password: "staff-password")
            #expect(page.headers[.location] == ConsolePages.twoFactor.path())
            page = try await ole.get(ConsolePages.events.path())
            #expect(page.headers[.location] == ConsolePages.twoFactor.path())
            page = try await ole.get(ConsolePages.twoFactor.path())
            #expect(page.text.contains("Your organisation requires it"))
        }
    }
}
