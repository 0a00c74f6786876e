/// Front-ends import `OutpostDevice` and see the shell and every module's public actions.
@_exported import OutpostActivities
@_exported import OutpostCheckIn
@_exported import OutpostKiosk
@_exported import OutpostLeads
@_exported import OutpostMesh
@_exported import OutpostNotes
@_exported import OutpostPickup
@_exported import OutpostPrint
@_exported import OutpostShell
@_exported import OutpostTracking
@_exported import OutpostWalkIns
@_exported import OutpostZones
