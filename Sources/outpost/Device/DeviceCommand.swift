import ArgumentParser

/// `outpost device`: the headless device. Every invocation is one app launch: it opens the
/// store (running migrations), does one thing, and exits. Killing it is a force-quit.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Drive a headless Outpost device (the staff app minus pixels).",
        discussion: """
            State lives under --home (default ~/.outpost/device). With --json every command \
            prints, as its last line, the UI tree after the command. Exit status: 0 when the \
            command was carried out; 3 when the app refused it (an unknown id, an overlapping \
            session, a sign-out with entries waiting, a wrong passcode): the tree is printed as \
            always, its "refusal" field says why, and so does one "refused: …" line on standard \
            error; 2 for a usage error; 1 for an internal failure.
            """,
        subcommands: [
            DeviceSignInCommand.self, DeviceEventsCommand.self, DeviceOpenCommand.self, DeviceScanCommand.self,
            DeviceLookupCommand.self, DeviceConfirmCommand.self, DeviceCancelCommand.self, DeviceCheckInCommand.self,
            DeviceBlockCommand.self,
            DeviceSyncCommand.self, DeviceStatusCommand.self, DeviceSignOutCommand.self, DeviceKioskCommand.self,
            DeviceLockCommand.self, DeviceUnlockCommand.self, DeviceSettingsCommand.self, DeviceActivityCommand.self,
            DeviceContactCommand.self, DeviceTrackCommand.self, DevicePrivacyCommand.self, DeviceSimCommand.self,
            DeviceWalkInCommand.self, DeviceNoteCommand.self, DevicePrinterCommand.self, DeviceBadgeCommand.self,
            DeviceZoneCommand.self, DeviceEFxCommand.self, DevicePickupCommand.self, DeviceLeadCommand.self,
            DeviceMeshCommand.self,
        ]
    )
}
