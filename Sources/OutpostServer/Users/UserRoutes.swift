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
    }

    /// The tenant's users, by name (organizer).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try context.require([.organizer])
        let users = try await dependencies.store.users(tenantId: context.caller.tenantId)
        return try HTTPHelpers.json(UserList(users: users.map(\.info)))
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
                id, tenantId: context.caller.tenantId, now: dependencies.clock.now())
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
                id, tenantId: context.caller.tenantId, passwordHash: hash, now: dependencies.clock.now())
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
            return try HTTPHelpers.json(try await dependencies.store.createUser(record).info, status: .created)
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
