import ArgumentParser
import Foundation
import Logging
import OutpostProtocol
import OutpostServer

/// `outpost admin`: administration that does not go through the API.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Administer an Outpost store directly.",
        subcommands: [BootstrapCommand.self, RotateKEKCommand.self]
    )
}

/// `outpost admin bootstrap`: the first tenant and organizer.
struct BootstrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bootstrap",
        abstract: "Create a tenant and its first organizer.",
        discussion: """
            Prints {"tenantId":"...","userId":"..."}. Refuses an e-mail that already exists. \
            Safe to run while `outpost serve` uses the same store.
            """
    )

    @OptionGroup var store: StoreOptions

    @Option(help: "The tenant's name (the organisation).")
    var tenant: String

    @Option(help: "The organizer's e-mail, used to sign in.")
    var email: String

    @Option(help: "The organizer's password (at least 8 characters).")
    var password: String

    @Option(help: "The organizer's display name.")
    var name: String

    @Option(name: .customLong("bcrypt-cost"), help: "bcrypt work factor for the password hash (4-31).")
    var bcryptCost: UInt8 = 12

    func validate() throws {
        guard !tenant.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--tenant must not be empty.")
        }
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--name must not be empty.")
        }
        guard email.contains("@"), !email.contains(" ") else {
            throw ValidationError("--email must be an e-mail address.")
        }
        guard password.count >= 8 else { throw ValidationError("--password must be at least 8 characters.") }
        guard (4...31).contains(bcryptCost) else { throw ValidationError("--bcrypt-cost must be from 4 to 31.") }
    }

    func run() async throws {
        var logger = Logger(label: "outpost")
        logger.logLevel = .warning
        let (tenant, email, password, name, cost) = (tenant, email, password, name, bcryptCost)
        let result = try await OutpostServer.withStore(store.location, logger: logger) { store in
            try await OutpostServer.bootstrap(
                store: store, tenant: tenant, email: email, password: password, name: name, bcryptCost: cost)
        }
        print(String(decoding: try OutpostJSON.encode(result), as: UTF8.self))
    }
}
