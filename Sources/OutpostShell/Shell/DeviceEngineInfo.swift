/// Facts about the device engine itself.
public enum DeviceEngineInfo {
    /// The wire contract version this engine speaks.
    public static let apiVersion = "v1"
}
