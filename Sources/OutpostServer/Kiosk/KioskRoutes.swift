import Hummingbird
import OutpostCore
import OutpostProtocol

/// `PUT /v1/events/{eventId}/kiosk`: the kiosk exit passcode and orientation.
struct KioskRoutes {
    let dependencies: ServerDependencies

    func register(on group: RouterGroup<AuthenticatedContext>) {
        group.on(API.setUpKiosk, use: setUp)
    }

    @Sendable func setUp(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let event = try await EventRoutes.event(
            API.setUpKiosk.parameters(in: context), context, dependencies, requiring: [.organizer, .support])
        let body = try await HTTPHelpers.decode(KioskSetupRequest.self, from: request)
        let broken = PasscodePolicy.brokenRules(body.passcode)
        guard broken.isEmpty else {
            throw APIError(
                .unprocessableContent, .weakPasscode, broken.map(\.explanation).joined(separator: " "),
                rules: broken.map(\.rawValue))
        }
        let hash = try await dependencies.hasher.hashPasscode(body.passcode)
        try await dependencies.store.setKiosk(eventId: event.id, passcodeHash: hash, orientation: body.orientation)
        return Response(status: .noContent)
    }
}
