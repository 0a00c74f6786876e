import Foundation
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// The organisation's record of changes to its users' accounts.
@Suite("User changes")
struct UserChangeTests {
    @Test(
        "user-changes-recorded: adding, renaming, a new role, a password reset, a mailed link and the password it sets, ending every sign-in, turning off a second factor and removing a user each leave one change naming whose account, by whom and when, newest first; a refused change leaves none; the record refuses UPDATE and DELETE; support cannot read it, another tenant sees none of it",
        arguments: StoreKind.allCases)
    func recorded(kind: StoreKind) async throws {
        try await withMailTestServer(kind, configure: { $0.publicURL = URL(string: PasswordLinkTests.publicURL) }) {
            api, sink in
            let world = try await World.make(api)
            let organizer = world.organizer.accessToken
            let alex = world.staff1.user.id
            func changes(_ token: String? = nil) async throws -> [UserChange] {
                let list: UserChangeList = try await api.request(
                    .get, API.userChanges.path(), token: token ?? organizer
                ).decode()
                return list.changes
            }
            // World made three users: each addition is recorded.
            #expect(try await changes().map(\.kind) == [.added, .added, .added])
            let before = try await changes().count
            api.clock.advance(by: 1)
            #expect(
                try await api.request(
                    .patch, API.updateUser.path(alex), token: organizer,
                    json: UpdateUserRequest(name: "Alex Door", role: .support)
                ).status == 200)
            api.clock.advance(by: 1)
            // Refused (one's own role): nothing recorded.
            #expect(
                try await api.request(
                    .patch, API.updateUser.path(world.organizer.user.id), token: organizer,
                    json: UpdateUserRequest(role: .support)
                ).status == 422)
            #expect(
                try await api.request(
                    .put, API.resetPassword.path(alex), token: organizer,
                    json: PasswordResetRequest(password: "a new password")
                ).status == 204)
            api.clock.advance(by: 1)
            #expect(try await api.request(.post, API.sendPasswordLink.path(alex), token: organizer).status == 202)
            _ = await api.sendQueuedMail()
            let token = PasswordLinkTests.token(try PasswordLinkTests.linkPath(sink, to: "alex@acme.test"))
            api.clock.advance(by: 1)
            #expect(
                try await api.request(
                    .post, API.usePasswordLink.path(), json: PasswordLinkUse(token: token, password: "chosen by alex")
                ).status == 204)
            api.clock.advance(by: 1)
            #expect(try await api.request(.post, API.signOutUser.path(alex), token: organizer).status == 204)
            api.clock.advance(by: 1)
            #expect(try await api.request(.delete, API.turnOffUserTwoFactor.path(alex), token: organizer).status == 204)
            api.clock.advance(by: 1)
            #expect(
                try await api.request(
                    .delete, API.removeUser.path(world.staff2.user.id, query: [("confirm", "unsent")]), token: organizer
                ).status == 204)
            let all = try await changes()
            let new = Array(all.prefix(all.count - before))
            #expect(
                new.map(\.kind) == [
                    .removed, .twoFactorTurnedOff, .signedOutEverywhere, .passwordSetByLink, .passwordLinkSent,
                    .passwordReset, .roleChanged, .renamed,
                ], "\(new.map(\.kind))")
            #expect(new.allSatisfy { $0.userId == (($0.kind == .removed) ? world.staff2.user.id : alex) })
            #expect(new.filter { $0.kind != .passwordSetByLink }.allSatisfy { $0.byName == "Acme Organizer" })
            #expect(new.first { $0.kind == .passwordSetByLink }?.byId == alex, "the user set it themselves")
            #expect(new.first { $0.kind == .roleChanged }?.detail == "checkin_staff → support")
            #expect(new.first { $0.kind == .renamed }?.detail == "Alex → Alex Door")
            #expect(new.first?.at == api.clock.now)
            // Append-only in the database itself.
            await #expect(throws: (any Error).self) {
                try await api.store.database.transaction {
                    try await $0.execute("UPDATE user_changes SET kind = 'x'", [])
                }
            }
            await #expect(throws: (any Error).self) {
                try await api.store.database.transaction { try await $0.execute("DELETE FROM user_changes", []) }
            }
            // Not even the changes to a removed user (the row stays for the records).
            await #expect(throws: (any Error).self) {
                try await api.store.database.transaction {
                    try await $0.execute("DELETE FROM user_changes WHERE user_id = ?", [.id(world.staff2.user.id)])
                }
            }
            #expect(try await api.request(.get, API.userChanges.path(), token: world.support.accessToken).status == 403)
            let theirs = try await changes(world.otherOrganizer.accessToken)
            #expect(!theirs.contains { $0.userId == alex })
            #expect(try await changes(world.otherOrganizer.accessToken).isEmpty)
        }
    }

    @Test(
        "console-user-changes: the staff page lists the latest changes to the accounts (what, whose, by whom, the detail), names as text",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.staff.path())
            #expect(page.text.contains("id=\"user-changes\""))
            let answer = try await browser.post(
                ConsolePages.updateUser.path(world.staff1.user.id), [("role", UserRole.support.rawValue)])
            #expect(answer.status == 303, "\(answer.text)")
            _ = try await api.request(
                .patch, API.updateUser.path(world.staff2.user.id), token: world.organizer.accessToken,
                json: UpdateUserRequest(name: "<i>Bea</i>"))
            page = try await browser.get(ConsolePages.staff.path())
            #expect(
                page.text.contains(
                    "<td>Role changed</td><td>Alex</td><td>Acme Organizer</td><td>checkin_staff → support</td>"))
            #expect(
                page.text.contains(
                    "<td>Renamed</td><td>&lt;i&gt;Bea&lt;/i&gt;</td><td>Acme Organizer</td><td>Bea → &lt;i&gt;Bea&lt;/i&gt;</td>"
                ))
        }
    }
}
