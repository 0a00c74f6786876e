import OutpostShell

/// The apps this package composes from the shell and its modules. Adding a module is a new
/// target and one line here.
extension DeviceModules {
    /// Check-in, walk-ins, notes, badge printing, the EFx zone, pickup and lead stations, kiosk and
    /// the venue mesh: the event-day app.
    public static let eventDay = DeviceModules([
        CheckInModule.self, WalkInModule.self, NotesModule.self, PrintModule.self, ZonesModule.self,
        PickupModule.self, KioskModule.self, LeadsModule.self, MeshModule.self,
    ])

    /// Every module: the event-day app, the peer mentors' activities and time tracking (the
    /// headless device).
    public static let all = DeviceModules([
        CheckInModule.self, WalkInModule.self, NotesModule.self, PrintModule.self, ZonesModule.self,
        PickupModule.self, KioskModule.self, LeadsModule.self, ActivitiesModule.self, TrackingModule.self,
        MeshModule.self,
    ])
}
