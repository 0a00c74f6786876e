import Foundation
import HummingbirdBcrypt
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Sign-in that cannot be raced, timed or fooled by bcrypt's limits, and refresh rotation that
/// happens once.
@Suite("Sign-in hardening")
struct SignInHardeningTests {
    private static func signIn(_ api: TestAPI, _ email: String, _ password: String) async throws -> APIResponse {
        try await api.request(
            .post, "/v1/auth/signin", json: SignInRequest(email: email, password: password, deviceId: "d"))
    }

    @Test(
        "signin-parallel-correct: parallel correct sign-ins of one user all succeed; clearing the e-mail's failures never deadlocks (a soak saw PostgreSQL's 40P01 as a 500)",
        arguments: StoreKind.allCases)
    func parallelCorrectSignIns(kind: StoreKind) async throws {
        try await withTestServer(
            kind,
            configure: {
                $0.signInFailuresPerEmail = 1_000
                $0.signInFailuresPerAddress = 1_000
            }
        ) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            for _ in 0..<10 {
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<16 {
                        group.addTask { try await Self.signIn(api, "org@acme.test", "organizer-pass").status }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.sorted())")
            }
        }
    }

    @Test(
        "signin-rate-limit-race: 40 parallel wrong passwords for one e-mail: 5 are checked (401), 35 are 429, and the right password is then refused too",
        arguments: StoreKind.allCases)
    func signInRateLimitRace(kind: StoreKind) async throws {
        try await withTestServer(kind, configure: { $0.signInFailuresPerAddress = 1_000 }) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<40 {
                    group.addTask { try await Self.signIn(api, "org@acme.test", "wrong-guess-\(index)").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 5, "checked: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 35)
            #expect(try await Self.signIn(api, "org@acme.test", "organizer-pass").status == 429)
        }
    }

    /// How many (known, unknown) pairs the timing oracle test times.
    static let timingPairs = 31

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    @Test(
        "signin-timing-oracle: an unknown e-mail costs one bcrypt of the configured cost, as long as a known e-mail's wrong password",
        arguments: [StoreKind.sqlite])
    func signInTimingOracle(kind: StoreKind) async throws {
        try await withTestServer(
            kind,
            configure: {
                $0.bcryptCost = 8
                $0.signInFailuresPerEmail = 1_000
                $0.signInFailuresPerAddress = 1_000
            }
        ) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            // Created through the API, so its hash has the configured cost (8), like every real user.
            _ = try await api.createUser(organizer, email: "staff@acme.test", role: .checkinStaff, name: "Staff")
            #expect(PasswordHasher.cost(of: PasswordHasher.decoyHash(cost: 8)) == 8)
            _ = try await Self.signIn(api, "nobody@acme.test", "warm-up-the-decoy")
            let seconds = { (email: String, password: String) async throws -> Double in
                let start = ContinuousClock.now
                let status = try await Self.signIn(api, email, password).status
                let elapsed = start.duration(to: .now)
                #expect(status == 401)
                return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            }
            // Paired samples, taken back to back in alternating order: whatever else the machine
            // is doing slows both halves of a pair alike, so each pair's ratio cancels it; a
            // burst that hits one half only moves one ratio, and the median of the ratios (a rank
            // statistic) ignores it. The order alternates so that neither side is always second.
            var ratios: [Double] = []
            var known: [Double] = []
            var unknown: [Double] = []
            for round in 0..<Self.timingPairs {
                let pair: (known: Double, unknown: Double)
                if round.isMultiple(of: 2) {
                    let first = try await seconds("staff@acme.test", "wrong-\(round)")
                    pair = (first, try await seconds("nobody\(round)@acme.test", "wrong-\(round)"))
                } else {
                    let first = try await seconds("nobody\(round)@acme.test", "wrong-\(round)")
                    pair = (try await seconds("staff@acme.test", "wrong-\(round)"), first)
                }
                known.append(pair.known)
                unknown.append(pair.unknown)
                ratios.append(pair.unknown / pair.known)
            }
            let ratio = Self.median(ratios)
            print(
                "signin-timing-oracle: \(Self.timingPairs) pairs, known e-mail median \(Int(Self.median(known) * 1000)) ms, unknown \(Int(Self.median(unknown) * 1000)) ms, median of the pairs' ratios \(ratio) (ratio of the medians \(Self.median(unknown) / Self.median(known)))"
            )
            // One cost step doubles bcrypt's time (ratio 2 or 0.5); no bcrypt at all is near 0;
            // equal costs land near 1.
            #expect(ratio > 0.67 && ratio < 1.5, "unknown/known = \(ratio)")
        }
    }

    @Test(
        "bcrypt-nul-and-72-bytes: a password with a NUL never matches its truncation, and passwords sharing 72 bytes are different",
        arguments: StoreKind.allCases)
    func bcryptLimits(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let long = String(repeating: "a", count: 72)
            let nul = "\u{0}abcdefgh"
            for (email, password, impostor) in [
                ("long@acme.test", long + "-first", long + "-second"),
                ("nul@acme.test", nul, "\u{0}zzzzzzzz"),
                ("plain@acme.test", "the-password", "the-password\u{0}tail"),
            ] {
                _ = try await api.lab(organizer).createUser(
                    CreateUserRequest(email: email, name: "U", role: .checkinStaff, password: password))
                #expect(try await Self.signIn(api, email, impostor).status == 401, "\(email): impostor")
                #expect(try await Self.signIn(api, email, password).status == 200, "\(email): the password")
            }
            // bcrypt alone would have accepted both impostors: the pre-hash is what refuses them.
            let raw = Bcrypt.hash(nul, cost: 4)
            #expect(Bcrypt.verify("\u{0}zzzzzzzz", hash: raw))
            let stored = try #require(try await api.store.user(email: "nul@acme.test")).passwordHash
            #expect(stored.hasPrefix("sha256$") && PasswordHasher.cost(of: stored) == 4)
        }
    }

    @Test(
        "password-hash-upgrade: a plain bcrypt hash from before pre-hashing still signs in, refuses NUL passwords, and is replaced",
        arguments: StoreKind.allCases)
    func legacyHashUpgrade(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            let legacy = Bcrypt.hash("organizer-pass", cost: 4)
            try await api.store.database.transaction {
                try await $0.execute(
                    "UPDATE users SET password_hash = ? WHERE email = ?", [.text(legacy), .text("org@acme.test")])
            }
            #expect(try await Self.signIn(api, "org@acme.test", "organizer-pass\u{0}x").status == 401)
            #expect(try await Self.signIn(api, "org@acme.test", "organizer-pass").status == 200)
            let upgraded = try #require(try await api.store.user(email: "org@acme.test")).passwordHash
            #expect(upgraded.hasPrefix("sha256$"))
            #expect(try await Self.signIn(api, "org@acme.test", "organizer-pass").status == 200)
        }
    }

    @Test(
        "refresh-race: of 8 simultaneous presentations of one refresh token exactly one rotates; the rest replay its successor (grace) or meet reuse and its revocation (no grace)",
        arguments: StoreKind.allCases, [60.0, 0])
    func refreshRace(kind: StoreKind, grace: TimeInterval) async throws {
        try await withTestServer(kind) { api in
            _ = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            for _ in 0..<5 {
                let session = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
                let hash = RefreshTokens.hash(session.refreshToken)
                let now = api.clock.now
                let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<8 {
                        group.addTask {
                            switch try await api.store.rotateRefreshToken(
                                hash: hash, successorHash: hash.reversed(), now: now, lifetime: 3600,
                                graceWindow: grace)
                            {
                            case .rotated: "rotated"
                            case .replayed: "replayed"
                            case .reused: "reused"
                            case .invalid: "invalid"
                            }
                        }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == "rotated" }.count == 1, "\(outcomes)")
                if grace > 0 {
                    #expect(outcomes.filter { $0 == "replayed" }.count == 7, "\(outcomes)")
                } else {
                    // The first reuse revokes the family; presentations after it meet a revoked token.
                    #expect(outcomes.filter { $0 == "reused" }.count >= 1, "\(outcomes)")
                    #expect(outcomes.filter { $0 == "reused" || $0 == "invalid" }.count == 7, "\(outcomes)")
                }
            }
        }
    }
}

@Suite("Password hasher")
struct PasswordHasherTests {
    @Test("bcrypt-queue-cap: past its running and waiting slots the hasher refuses at once instead of queueing")
    func bcryptQueueCap() async throws {
        let gate = WorkGate(running: 1, waiting: 1)
        let hasher = PasswordHasher(cost: 4, gate: gate)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let holder = Task { try await gate.run { for await _ in release { break } } }
        while await gate.load.active < 1 { await Task.yield() }
        let queued = Task { try await hasher.verifyPassword("password", storedHash: nil) }
        while await gate.load.queued < 1 { await Task.yield() }
        await #expect(throws: WorkGate.Full.self) {
            try await hasher.verifyPassword("password", storedHash: nil)
        }
        releaser.yield()
        try await holder.value
        #expect(try await queued.value == false, "the queued job ran once the slot was free")
        let load = await gate.load
        #expect(load.active == 0 && load.queued == 0)
        let stored = try await hasher.hashPassword("x")
        #expect(try await hasher.verifyPassword("x", storedHash: stored))
    }
}
