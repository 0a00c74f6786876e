import OutpostDevice

/// Terminal front-ends (station and kiosk) over the device engine's UI tree; they arrive with
/// the station issue.
public enum OutpostTerminalUI {
    public static let engineAPIVersion = OutpostDeviceEngine.apiVersion
}
