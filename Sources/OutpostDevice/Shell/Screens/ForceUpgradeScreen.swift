import OutpostProtocol

/// The OS is older than the server's client policy allows: only the way out is shown.
struct ForceUpgradeScreen: ScreenModel {
    var os: PlatformInfo.OS
    var policy: ClientPolicy

    var identifier: String { UIIdentifier.forceUpgradeScreen }

    func elements() -> [UIElement] {
        let store = os == .ios ? "itms-apps://apps.apple.com/app/outpost" : "market://details?id=app.outpost"
        let minimum = os == .ios ? "iOS \(policy.minIOS)" : "Android API \(policy.minAndroidAPI)"
        return [
            UIElement(
                UIIdentifier.forceUpgradeScreen,
                "This device runs an OS older than \(minimum). Update the OS or use another device.",
                ["storeLink": store])
        ]
    }
}
