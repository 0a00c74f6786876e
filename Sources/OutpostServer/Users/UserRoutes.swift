import Foundation
import Hummingbird
import OutpostCore
import OutpostProtocol

/// `POST /v1/users`: organizers add users to their own tenant; `DELETE /v1/users/{userId}`
/// removes one and `PUT /v1/users/{userId}/password` resets a password, each revoking every
/// sign-in of that user (devices find out at their next refresh and keep their pending work).
struct UserRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.listUsers, use: list)
        group.on(API.createUser, use: create)
        group.on(API.removeUser, use: remove)
        group.on(API.reportUserDevice, use: reportDevice)
        group.on(API.resetPassword, use: resetPassword)
        group.on(API.updateUser, use: update)
        group.on(API.signOutUser, use: signOutEverywhere)
        group.on(API.turnOffUserTwoFactor, use: turnOffTwoFactor)
        group.on(API.userChanges, use: changes)
    }

    /// The organisation's changes to its users' accounts, newest first (organizer): `limit`
    /// (default 100, at most 1,000).
    @Sendable func changes(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let limit = try HTTPHelpers.limit(request, default: 100, maximum: 1_000)
        return try HTTPHelpers.json(
            UserChangeList(
                changes: try await dependencies.store.userChanges(tenantId: context.caller.tenantId, limit: limit)))
    }

    /// The tenant's users, by name (organizer).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let users = try await dependencies.store.users(tenantId: context.caller.tenantId)
        let twoFactor = try await dependencies.store.twoFactorUsers(tenantId: context.caller.tenantId)
        return try HTTPHelpers.json(
            UserList(
                users: users.map {
                    var info = $0.info
                    info.twoFactorEnabled = twoFactor.contains($0.id)
                    return info
                }))
    }

    @Sendable func remove(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.removeUser.parameters(in: context)
        guard id != context.caller.userId else {
            throw APIError.invalidRequest("You cannot remove yourself.", status: .unprocessableContent)
        }
        // Work the user's devices have not sent is shown first: removal ends their sign-ins,
        // and the server takes nothing from a removed account (it stays on the devices).
        if request.uri.queryParameters.get("confirm") != "unsent",
            let user = try await dependencies.store.user(id: id, tenantId: context.caller.tenantId),
            case let devices = try await dependencies.store.unsentWork(userId: id), !devices.isEmpty
        {
            let count = devices.map(\.pending).reduce(0, +)
            return try HTTPHelpers.json(
                UnsentWork(
                    message:
                        "\(user.name)'s devices last reported \(count) \(count == 1 ? "entry" : "entries") not yet sent. After removal the server no longer accepts them (they stay on the devices and in their privacy export); wait for them to sync, or remove anyway with confirm=unsent.",
                    devices: devices), status: .conflict)
        }
        guard
            try await dependencies.store.removeUser(
                id, tenantId: context.caller.tenantId, by: context.caller.userId, now: dependencies.clock.now())
        else { throw APIError.notFound }
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    /// `PUT /v1/me/devices/{deviceId}`: a device's report, after a sync, of the entries it has
    /// not sent for its signed-in user (an organizer sees it before removing the user).
    @Sendable func reportDevice(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let deviceId = try DashboardRoutes.deviceId(try API.reportUserDevice.parameters(in: context))
        let pending = try await DashboardRoutes.pending(request)
        try await dependencies.store.reportUserDevice(
            userId: context.caller.userId, deviceId: deviceId, pending: pending, at: dependencies.clock.now())
        return Response(status: .noContent)
    }

    @Sendable func resetPassword(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.resetPassword.parameters(in: context)
        let body = try await HTTPHelpers.decode(PasswordResetRequest.self, from: request)
        guard body.password.count >= 8 else {
            throw APIError.invalidRequest("'password' must be at least 8 characters.", status: .unprocessableContent)
        }
        let hash = try await dependencies.hasher.hashPassword(body.password)
        guard
            try await dependencies.store.resetPassword(
                id, tenantId: context.caller.tenantId, passwordHash: hash, by: context.caller.userId,
                now: dependencies.clock.now())
        else { throw APIError.notFound }
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    /// Renames a user or changes their role (organizer; not their own role). A new role ends
    /// every sign-in of theirs.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.updateUser.parameters(in: context)
        let body = try await HTTPHelpers.decode(UpdateUserRequest.self, from: request)
        let name = try body.name.map { try HTTPHelpers.nonEmpty($0, "name") }
        if let role = body.role, id == context.caller.userId, role != context.caller.role {
            throw APIError.invalidRequest(
                "You cannot change your own role; another organizer can.", status: .unprocessableContent)
        }
        let updated: UserRecord?
        do {
            updated = try await dependencies.store.updateUser(
                id, tenantId: context.caller.tenantId, name: name, role: body.role, by: context.caller.userId,
                now: dependencies.clock.now())
        } catch Store.UserChangeRefusal.onEventStaff {
            throw APIError(
                .conflict, .versionConflict,
                "Exhibitors and block managers work no event's staff: take them off the events' staff first.")
        }
        guard let updated else { throw APIError.notFound }
        dependencies.revokedSessions.invalidate()
        return try HTTPHelpers.json(updated.info)
    }

    /// Ends every sign-in of a user (organizer): their devices ask for the password at their
    /// next contact and keep what they hold.
    @Sendable func signOutEverywhere(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.signOutUser.parameters(in: context)
        guard
            try await dependencies.store.signOutEverywhere(
                id, tenantId: context.caller.tenantId, by: context.caller.userId, now: dependencies.clock.now())
        else { throw APIError.notFound }
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    /// Turns off another user's second factor (organizer): for a lost phone whose recovery codes
    /// are lost too. Their sign-ins end; they sign in with the password and can turn it on again
    /// (or must, where the organisation requires it of organizers).
    @Sendable func turnOffTwoFactor(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let id = try API.turnOffUserTwoFactor.parameters(in: context)
        guard id != context.caller.userId else {
            throw APIError.invalidRequest(
                "You cannot turn off your own second factor: sign in with a recovery code, or ask another organizer.",
                status: .unprocessableContent)
        }
        guard
            try await dependencies.store.turnOffTwoFactor(
                id, tenantId: context.caller.tenantId, by: context.caller.userId, now: dependencies.clock.now())
        else { throw APIError.notFound }
        dependencies.revokedSessions.invalidate()
        return Response(status: .noContent)
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let body = try await HTTPHelpers.decode(CreateUserRequest.self, from: request)
        let email = try Self.validEmail(body.email)
        guard body.password.count >= 8 else {
            throw APIError.invalidRequest("'password' must be at least 8 characters.", status: .unprocessableContent)
        }
        let record = UserRecord(
            id: .random(), tenantId: context.caller.tenantId, email: email,
            name: try HTTPHelpers.nonEmpty(body.name, "name"),
            role: body.role, passwordHash: try await dependencies.hasher.hashPassword(body.password))
        do {
            return try HTTPHelpers.json(
                try await dependencies.store.createUser(
                    record, by: context.caller.userId, now: dependencies.clock.now()
                ).info, status: .created)
        } catch StoreError.emailTaken {
            throw APIError(.conflict, .emailTaken, "A user with this e-mail already exists.")
        }
    }

    /// A trimmed e-mail with one `@`, something on both sides and no spaces.
    static func validEmail(_ email: String, field: String = "email") throws -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."),
            !trimmed.contains(where: \.isWhitespace), trimmed.utf8.count <= 254
        else {
            throw APIError.invalidRequest("'\(field)' must be an e-mail address.", status: .unprocessableContent)
        }
        return trimmed
    }
}
