import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// Seed 004 on the server: contacts with envelope-encrypted sensitive fields, mentors who see
/// only their assigned contacts, activities written with version checks, the tenant's offline
/// unlock window. Every case runs on SQLite and PostgreSQL.
@Suite("Peer mentors: contacts and activities")
struct MentoringContractTests {
    static let secrets = ContactSensitive(
        address: "Fjordveien 12, 9990 Båtsfjord", phone: "+47 915 55 012",
        healthNotes: "Hearing aid left ear; insulin at 18:00")

    /// Tenant A: an organizer, two mentors, a check-in staff user, two contacts (one per mentor).
    struct MentorWorld {
        var world: World
        var mentor1: Session
        var mentor2: Session
        var contact1: Contact
        var contact2: Contact

        static func make(_ api: TestAPI) async throws -> MentorWorld {
            let world = try await World.make(api)
            let mentor1 = try await api.createUser(world.organizer, email: "mia@acme.test", role: .mentor, name: "Mia")
            let mentor2 = try await api.createUser(
                world.organizer, email: "noah@acme.test", role: .mentor, name: "Noah")
            let organizer = api.lab(world.organizer)
            let contact1 = try await organizer.createContact(
                CreateContactRequest(
                    name: "Ingrid Solberg", area: "Båtsfjord", address: secrets.address, phone: secrets.phone,
                    healthNotes: secrets.healthNotes))
            let contact2 = try await organizer.createContact(CreateContactRequest(name: "Per Hansen", area: "Vardø"))
            try await organizer.assignContact(contact1.id, to: mentor1.user.id)
            try await organizer.assignContact(contact2.id, to: mentor2.user.id)
            return MentorWorld(
                world: world, mentor1: mentor1, mentor2: mentor2, contact1: contact1, contact2: contact2)
        }
    }

    @Test(
        "pm-roles: a mentor sees and reveals only assigned contacts; a coordinator manages them",
        arguments: StoreKind.allCases)
    func roles(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            let mentor = api.lab(world.mentor1)
            let listed = try await mentor.contacts()
            #expect(listed.map(\.id) == [world.contact1.id])
            #expect(listed[0].sensitiveFields == ["address", "healthNotes", "phone"])
            #expect(listed[0].mentorIds == [world.mentor1.user.id])
            // The list never carries a sensitive value.
            let raw = try await api.request(.get, "/v1/contacts", token: world.mentor1.accessToken)
            for secret in [Self.secrets.address!, Self.secrets.phone!, Self.secrets.healthNotes!] {
                #expect(!raw.text.contains(secret))
            }
            let revealed = try await api.request(
                .post, "/v1/contacts/\(world.contact1.id)/reveal", token: world.mentor1.accessToken)
            #expect(revealed.status == 200)
            #expect(try revealed.decode(ContactSensitive.self) == Self.secrets)
            #expect(revealed.headers[.cacheControl] == "no-store")
            // Another mentor's contact is indistinguishable from none.
            let unknown = try await api.request(
                .post, "/v1/contacts/\(UUID().lowercasedString)/reveal", token: world.mentor1.accessToken)
            let other = try await api.request(
                .post, "/v1/contacts/\(world.contact2.id)/reveal", token: world.mentor1.accessToken)
            #expect(other.status == 404 && other.body == unknown.body)
            // Every reveal is audited, and only a coordinator reads the audit.
            let reveals = try await api.lab(world.world.organizer).reveals(world.contact1.id)
            #expect(reveals.map(\.userId) == [world.mentor1.user.id])
            #expect(
                try await api.request(
                    .get, "/v1/contacts/\(world.contact1.id)/reveals", token: world.mentor1.accessToken
                ).status == 403)
            // Roles: staff see no contacts; mentors create and assign none; a non-mentor is not assignable.
            #expect(try await api.request(.get, "/v1/contacts", token: world.world.staff1.accessToken).status == 403)
            #expect(
                try await api.request(
                    .post, "/v1/contacts", token: world.mentor1.accessToken,
                    json: CreateContactRequest(name: "X", area: "Y")
                ).status == 403)
            #expect(
                try await api.request(
                    .put, "/v1/contacts/\(world.contact2.id)/mentors/\(world.mentor1.user.id)",
                    token: world.mentor1.accessToken
                ).status == 403)
            #expect(
                try await api.request(
                    .put, "/v1/contacts/\(world.contact2.id)/mentors/\(world.world.staff1.user.id)",
                    token: world.world.organizer.accessToken
                ).status == 404)
            // The coordinator sees every contact; unassigning hides it from the mentor.
            #expect(try await api.lab(world.world.organizer).contacts().count == 2)
            try await api.lab(world.world.organizer).unassignContact(world.contact1.id, from: world.mentor1.user.id)
            #expect(try await mentor.contacts().isEmpty)
            // Mentors see no events (they are on no event's staff).
            let events: EventList = try await api.request(.get, "/v1/events", token: world.mentor1.accessToken).decode()
            #expect(events.events.isEmpty)
        }
    }

    @Test(
        "pm-activity-versions: create, replay, edit and delete are checked against the version they were made on",
        arguments: StoreKind.allCases)
    func versions(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            let mentor = api.lab(world.mentor1)
            let organizer = api.lab(world.world.organizer)
            let id = ActivityID.random()
            let visit = ActivityContent(
                contactId: world.contact1.id, type: .visit, date: "2026-11-17", durationMinutes: 45, notes: "Coffee")
            let created = try await mentor.putActivity(id, ActivityWrite(content: visit, baseVersion: 0))
            #expect(created.status == 201)
            let first = try OutpostJSON.decode(Activity.self, from: created.body)
            #expect(first.version == 1 && first.mentorId == world.mentor1.user.id && first.content == visit)
            // A lost answer sent again answers the version it made, writing nothing new.
            let replay = try await mentor.putActivity(id, ActivityWrite(content: visit, baseVersion: 0))
            #expect(replay.status == 200)
            #expect(try OutpostJSON.decode(Activity.self, from: replay.body) == first)
            // The same id with other content is a conflict, never an overwrite.
            var other = visit
            other.notes = "Walk"
            let clash = try await mentor.putActivity(id, ActivityWrite(content: other, baseVersion: 0))
            #expect(clash.status == 409)
            #expect(try OutpostJSON.decode(ActivityConflict.self, from: clash.body).current == first)
            // The coordinator corrects it (version 2); the mentor's edit of version 1 conflicts.
            var corrected = visit
            corrected.durationMinutes = 60
            let second = try await organizer.putActivity(id, ActivityWrite(content: corrected, baseVersion: 1))
            #expect(second.status == 200)
            let stale = try await mentor.putActivity(id, ActivityWrite(content: other, baseVersion: 1))
            #expect(stale.status == 409)
            let conflict = try OutpostJSON.decode(ActivityConflict.self, from: stale.body)
            #expect(conflict.error == "version_conflict" && conflict.current.version == 2)
            #expect(conflict.current.durationMinutes == 60 && conflict.current.notes == "Coffee")
            // On the current version the edit lands.
            let third = try await mentor.putActivity(id, ActivityWrite(content: other, baseVersion: 2))
            #expect(third.status == 200)
            #expect(try OutpostJSON.decode(Activity.self, from: third.body).version == 3)
            // Delete: an old version conflicts, the current one deletes, a repeat is fine.
            let oldDelete = try await api.request(
                .delete, "/v1/activities/\(id)?baseVersion=2", token: world.mentor1.accessToken)
            #expect(oldDelete.status == 409)
            for _ in 0..<2 {
                #expect(
                    try await api.request(
                        .delete, "/v1/activities/\(id)?baseVersion=3", token: world.mentor1.accessToken
                    ).status == 204)
            }
            let listed = try await mentor.activities()
            #expect(listed.count == 1 && listed[0].deleted && listed[0].version == 4)
            // A contact not assigned to the mentor, or another mentor's activity: 404.
            let unassigned = try await mentor.putActivity(
                .random(),
                ActivityWrite(
                    content: ActivityContent(
                        contactId: world.contact2.id, type: .call, date: "2026-11-16", durationMinutes: 10, notes: ""),
                    baseVersion: 0))
            #expect(unassigned.status == 404)
            try await organizer.assignContact(world.contact1.id, to: world.mentor2.user.id)
            let foreign = try await api.lab(world.mentor2).putActivity(
                id, ActivityWrite(content: visit, baseVersion: 4))
            #expect(foreign.status == 404)
            #expect(try await api.lab(world.mentor2).activities().isEmpty)
            // Bad input: a clear 422 and nothing written.
            var bad = visit
            bad.date = "2026-02-30"
            let invalid = try await mentor.putActivity(.random(), ActivityWrite(content: bad, baseVersion: 0))
            #expect(invalid.status == 422)
            #expect(try await mentor.activities().count == 1)
            // The contact's last visit follows live activities only.
            let contacts = try await organizer.contacts()
            #expect(contacts.first { $0.id == world.contact1.id }?.lastVisit == nil)
        }
    }

    @Test("pm-envelope-at-rest: the database holds only ciphertext of sensitive fields", arguments: StoreKind.allCases)
    func envelopeAtRest(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            _ = try await api.request(
                .post, "/v1/contacts/\(world.contact1.id)/reveal", token: world.mentor1.accessToken)
            let dump = try await Self.dump(api.store, tables: ["contacts", "tenant_data_keys", "contact_reveals"])
            #expect(dump.contains("Ingrid Solberg"))  // the dump reads what is there
            for secret in [Self.secrets.address!, Self.secrets.phone!, Self.secrets.healthNotes!, "insulin", "915 55"] {
                #expect(!dump.contains(secret), "\(secret) is stored in the clear")
            }
        }
    }

    /// Every row of `tables` as text: text columns as they are, blobs decoded as UTF-8 (lossy) too.
    static func dump(_ store: Store, tables: [String]) async throws -> String {
        try await store.database.read { connection in
            var text = ""
            for table in tables {
                for row in try await connection.query("SELECT * FROM \(table)", []) {
                    for column in row.columns {
                        switch try row.value(column) {
                        case .text(let value): text += value + "\n"
                        case .blob(let bytes): text += String(decoding: bytes, as: UTF8.self) + "\n"
                        case .int(let value): text += "\(value)\n"
                        case .null: break
                        }
                    }
                }
            }
            return text
        }
    }

    @Test(
        "pm-kek-rotation: a new key-encryption key re-wraps the data key on use; the data is never rewritten",
        arguments: StoreKind.allCases)
    func kekRotation(kind: StoreKind) async throws {
        guard kind == .sqlite else {
            return try await TestStores.withLocation(kind) { try await kekRotation(on: $0) }
        }
        // On a file: the server is started again on the same store.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kek-\(UUID()).sqlite")
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: file.path + suffix)
            }
        }
        try await kekRotation(on: .sqlite(path: file.path))
    }

    func kekRotation(on location: ServerConfiguration.StoreLocation) async throws {
        let ringA = KeyEncryptionKeys.generate(id: "a")
        let ringBA = try ringA.rotated(newId: "b")
        let ringB = try KeyEncryptionKeys(text: ringBA.text.split(separator: "\n").prefix(1).joined())
        let stranger = KeyEncryptionKeys.generate(id: "c")
        let contact: Contact = try await withServer(location: location, configure: { $0.keyEncryptionKeys = ringA }) {
            api in
            let organizer = try await api.bootstrapTenant("Acme", email: "org@acme.test")
            return try await api.lab(organizer).createContact(
                CreateContactRequest(name: "Ingrid", area: "Båtsfjord", phone: Self.secrets.phone))
        }
        func reveal(_ ring: KeyEncryptionKeys) async throws -> (Int, ContactSensitive?, [String: String], [UInt8]) {
            try await withServer(location: location, configure: { $0.keyEncryptionKeys = ring }) { api in
                let organizer = try await api.signIn(email: "org@acme.test", password: "organizer-pass")
                let answer = try await api.request(
                    .post, "/v1/contacts/\(contact.id)/reveal", token: organizer.accessToken)
                let sealed = try await api.store.database.read { connection in
                    try await connection.queryOne("SELECT sensitive FROM contacts", [])!.blob("sensitive")
                }
                return (
                    answer.status, try? answer.decode(ContactSensitive.self), try await api.store.dataKeyWrappers(),
                    sealed
                )
            }
        }
        let (statusA, fieldsA, wrappersA, sealedA) = try await reveal(ringA)
        #expect(statusA == 200 && fieldsA?.phone == Self.secrets.phone && Set(wrappersA.values) == ["a"])
        let (statusBA, fieldsBA, wrappersBA, sealedBA) = try await reveal(ringBA)
        #expect(statusBA == 200 && fieldsBA?.phone == Self.secrets.phone)
        #expect(Set(wrappersBA.values) == ["b"], "the data key was re-wrapped under the new key")
        #expect(sealedBA == sealedA, "the contact's sealed fields were not rewritten")
        let (statusB, fieldsB, _, _) = try await reveal(ringB)
        #expect(statusB == 200 && fieldsB?.phone == Self.secrets.phone, "the old key is no longer needed")
        let (statusC, _, _, _) = try await reveal(stranger)
        #expect(statusC == 500, "a ring without the wrapping key opens nothing")
    }

    @Test(
        "pm-offline-window-setting: the tenant's offline unlock window reaches devices with every token pair",
        arguments: StoreKind.allCases)
    func offlineWindowSetting(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await MentorWorld.make(api)
            let pair: TokenPair = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "mia@acme.test", password: "staff-password", deviceId: "d")
            ).decode()
            #expect(pair.offlineUnlockHours == 72)
            #expect(
                try await api.request(
                    .put, "/v1/tenant/settings", token: world.world.organizer.accessToken,
                    json: TenantSettings(offlineUnlockHours: 0)
                ).status == 422)
            #expect(
                try await api.request(
                    .put, "/v1/tenant/settings", token: world.mentor1.accessToken,
                    json: TenantSettings(offlineUnlockHours: 24)
                ).status == 403)
            try await api.lab(world.world.organizer).setTenantSettings(TenantSettings(offlineUnlockHours: 24))
            let refreshed: TokenPair = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: pair.refreshToken)
            ).decode()
            #expect(refreshed.offlineUnlockHours == 24)
            // Another tenant keeps its own.
            let other: TenantSettings = try await api.request(
                .get, "/v1/tenant/settings", token: world.world.otherOrganizer.accessToken
            ).decode()
            #expect(other.offlineUnlockHours == 72)
        }
    }
}

@Suite("Removing users and resetting passwords")
struct UserLifecycleContractTests {
    @Test(
        "session-revoked-user-removed: a removed user cannot sign in or refresh; a reset password ends every sign-in",
        arguments: StoreKind.allCases)
    func removeAndReset(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let organizer = world.organizer.accessToken
            // Password reset: the old refresh token is refused, the new password signs in.
            #expect(
                try await api.request(
                    .put, "/v1/users/\(world.staff1.user.id)/password", token: organizer,
                    json: PasswordResetRequest(password: "short")
                ).status == 422)
            #expect(
                try await api.request(
                    .put, "/v1/users/\(world.staff1.user.id)/password", token: organizer,
                    json: PasswordResetRequest(password: "a brand new password")
                ).status == 204)
            let refused = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: world.staff1.refreshToken))
            #expect(refused.status == 401)
            #expect(
                try await api.request(
                    .post, "/v1/auth/signin",
                    json: SignInRequest(email: "alex@acme.test", password: "staff-password", deviceId: "d")
                ).status == 401)
            let again = try await api.signIn(email: "alex@acme.test", password: "a brand new password")
            // Removal: refresh refused, sign-in refused like a wrong password, assignments gone.
            #expect(try await api.request(.delete, "/v1/users/\(world.staff1.user.id)", token: organizer).status == 204)
            let afterRemoval = try await api.request(
                .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: again.refreshToken))
            #expect(afterRemoval.status == 401)
            let signIn = try await api.request(
                .post, "/v1/auth/signin",
                json: SignInRequest(email: "alex@acme.test", password: "a brand new password", deviceId: "d"))
            #expect(signIn.status == 401 && signIn.errorCode == "invalid_credentials")
            #expect(try await api.request(.delete, "/v1/users/\(world.staff1.user.id)", token: organizer).status == 404)
            // Not oneself, not as staff.
            #expect(
                try await api.request(.delete, "/v1/users/\(world.organizer.user.id)", token: organizer).status == 422)
            #expect(
                try await api.request(
                    .delete, "/v1/users/\(world.staff2.user.id)", token: world.staff2.accessToken
                ).status == 403)
            // The other staff member is untouched.
            #expect(
                try await api.request(
                    .post, "/v1/auth/refresh", json: RefreshRequest(refreshToken: world.staff2.refreshToken)
                ).status == 200)
        }
    }
}

@Suite("Key-encryption key files")
struct KeyEncryptionKeyFileTests {
    @Test("pm-kek-file: created 0600 with one key; parallel first starts agree on one key; a bad file is a clear error")
    func keyFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kek-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("contact-keys")
        let rings = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try KeyEncryptionKeys.load(file: file, create: true).text } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(rings.count == 1, "every starter got the same key")
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["contact-keys"])
        let rotated = try KeyEncryptionKeys.load(file: file, create: false).rotated(newId: "k2")
        #expect(rotated.ids == ["k2", "k1"])
        #expect(throws: KeyEncryptionKeys.LoadError.malformed(line: 1)) { try KeyEncryptionKeys(text: "k1:short") }
        #expect(throws: KeyEncryptionKeys.LoadError.empty) { try KeyEncryptionKeys(text: "# nothing\n") }
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(throws: KeyEncryptionKeys.LoadError.duplicate("a")) {
            try KeyEncryptionKeys(text: "a:\(key)\na:\(key)")
        }
    }
}
