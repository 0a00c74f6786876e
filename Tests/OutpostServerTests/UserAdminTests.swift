import Foundation
import HTTPTypes
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostServer

/// People: an organizer changes a user's role (which ends their sign-ins, the role being in the
/// tokens) and ends every sign-in of a user, through the API and the console.
@Suite("People: roles and sign-ins")
struct UserAdminTests {
    @Test(
        "user-role-change: a new role ends the user's sign-ins and applies at the next one; not one's own role; not an exhibitor on an event's staff; a rename keeps the sign-ins; door roles and other tenants are refused",
        arguments: StoreKind.allCases)
    func roleChange(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let organizer = api.lab(world.organizer)
            let alex = world.staff1
            let renamed = try await organizer.call(
                API.updateUser, alex.user.id, json: UpdateUserRequest(name: "Alex Door"), what: "rename")
            #expect(renamed.name == "Alex Door" && renamed.role == .checkinStaff)
            #expect(try await api.request(.get, "/v1/events", token: alex.accessToken).status == 200, "still signed in")
            let changed = try await organizer.call(
                API.updateUser, alex.user.id, json: UpdateUserRequest(role: .support), what: "role")
            #expect(changed.role == .support)
            #expect(try await api.request(.get, "/v1/events", token: alex.accessToken).status == 401)
            let refresh = try await api.request(
                .post, API.refresh.path(), json: RefreshRequest(refreshToken: alex.refreshToken))
            #expect(refresh.status == 401)
            let again = try await api.signIn(email: "alex@acme.test", password: "staff-password")
            #expect(again.user.role == .support)
            // One's own role stays (so the tenant keeps an organizer).
            let own = try await api.request(
                .patch, API.updateUser.path(world.organizer.user.id), token: world.organizer.accessToken,
                json: UpdateUserRequest(role: .support))
            #expect(own.status == 422)
            // Bea is on the event's staff: not an exhibitor while she is.
            let bea = world.staff2.user.id
            let exhibitor = try await api.request(
                .patch, API.updateUser.path(bea), token: world.organizer.accessToken,
                json: UpdateUserRequest(role: .exhibitor))
            #expect(exhibitor.status == 409 && exhibitor.text.contains("take them off"))
            #expect(try await organizer.request(API.unassignStaff.line(world.event.id, bea)).status == 204)
            #expect(
                try await organizer.call(API.updateUser, bea, json: UpdateUserRequest(role: .exhibitor), what: "role")
                    .role == .exhibitor)
            // Refusals.
            let door = try await api.request(
                .patch, API.updateUser.path(bea), token: again.accessToken, json: UpdateUserRequest(role: .organizer))
            #expect(door.status == 403)
            let stranger = try await api.request(
                .patch, API.updateUser.path(bea), token: world.otherOrganizer.accessToken,
                json: UpdateUserRequest(role: .organizer))
            #expect(stranger.status == 404)
            let blank = try await api.request(
                .patch, API.updateUser.path(bea), token: world.organizer.accessToken, json: UpdateUserRequest(name: " ")
            )
            #expect(blank.status == 422)
        }
    }

    @Test(
        "user-sign-out-everywhere: an organizer ends every sign-in of a user (their devices ask for the password again); the user's password still signs in; another tenant's user is not found",
        arguments: StoreKind.allCases)
    func signOutEverywhere(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let laptop = try await api.signIn(email: "bea@acme.test", password: "staff-password", deviceId: "laptop")
            let path = API.signOutUser.path(world.staff2.user.id)
            #expect(try await api.request(.post, path, token: world.staff1.accessToken).status == 403)
            #expect(try await api.request(.post, path, token: world.otherOrganizer.accessToken).status == 404)
            #expect(try await api.request(.post, path, token: world.organizer.accessToken).status == 204)
            for session in [world.staff2, laptop] {
                #expect(try await api.request(.get, "/v1/events", token: session.accessToken).status == 401)
                let refresh = try await api.request(
                    .post, API.refresh.path(), json: RefreshRequest(refreshToken: session.refreshToken))
                #expect(refresh.status == 401)
            }
            #expect(try await api.request(.get, "/v1/events", token: world.staff1.accessToken).status == 200)
            #expect(try await api.signIn(email: "bea@acme.test", password: "staff-password").user.name == "Bea")
        }
    }

    @Test(
        "console-people: the staff page changes a user's role from its list and ends their sign-ins; the organizer's own row has neither",
        arguments: StoreKind.allCases)
    func console(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            let browser = try await ConsoleTests.signedIn(api)
            let page = try await browser.get(ConsolePages.staff.path())
            #expect(page.text.contains("action=\"/admin/staff/\(world.staff1.user.id.wire)\""))
            #expect(!page.text.contains("action=\"/admin/staff/\(world.organizer.user.id.wire)\""))
            var answer = try await browser.post(
                ConsolePages.updateUser.path(world.staff1.user.id), [("role", "support")])
            #expect(answer.headers[.location] == ConsolePages.staff.path(query: [("done", "role")]))
            #expect(try await api.store.user(id: world.staff1.user.id)?.role == .support)
            answer = try await browser.get(answer.headers[.location] ?? "")
            #expect(answer.text.contains("their devices ask them to sign in again"))
            answer = try await browser.post(ConsolePages.signOutUser.path(world.staff2.user.id), [])
            #expect(answer.headers[.location] == ConsolePages.staff.path(query: [("done", "signed-out")]))
            #expect(try await api.request(.get, "/v1/events", token: world.staff2.accessToken).status == 401)
            answer = try await browser.post(ConsolePages.updateUser.path(world.staff1.user.id), [("role", "king")])
            #expect(answer.status == 422 && answer.text.contains("Choose a role"))
        }
    }

    @Test(
        "console-two-factor-off: the staff page marks who signs in with a second factor and turns a lost one off; the others have no such button",
        arguments: StoreKind.allCases)
    func consoleTwoFactorOff(kind: StoreKind) async throws {
        try await withTestServer(kind) { api in
            let world = try await World.make(api)
            _ = try await TwoFactorTests.enroll(api, world.staff2, password: "staff-password")
            let browser = try await ConsoleTests.signedIn(api)
            var page = try await browser.get(ConsolePages.staff.path())
            let off = ConsolePages.turnOffUserTwoFactor.path(world.staff2.user.id)
            #expect(page.text.contains("action=\"\(off)\""))
            #expect(!page.text.contains(ConsolePages.turnOffUserTwoFactor.path(world.staff1.user.id)))
            #expect(page.text.contains("Bea <span class=\"tag\">two-factor</span>"))
            let answer = try await browser.post(off, [])
            #expect(answer.headers[.location] == ConsolePages.staff.path(query: [("done", "two-factor-off")]))
            page = try await browser.get(answer.headers[.location] ?? "")
            #expect(page.text.contains("Their two-factor sign-in is off"))
            #expect(!page.text.contains("action=\"\(off)\""))
            #expect(try await api.store.twoFactorEnabled(userId: world.staff2.user.id) == false)
        }
    }
}
