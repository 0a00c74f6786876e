import OutpostCore
import OutpostProtocol

/// The device engine: the staff app minus pixels (see DEVICE.md). Its sealed store, sync
/// engine and screen models arrive with the device issue; this namespace marks the module.
public enum OutpostDeviceEngine {
    /// The wire contract version this engine speaks.
    public static let apiVersion = "v1"
}
