import OutpostProtocol

/// The OS is older than the server's client policy allows: only the way out is shown.
package struct ForceUpgradeScreen: ScreenModel {
    package var os: PlatformInfo.OS
    package var policy: ClientPolicy

    package var identifier: String { UIIdentifier.forceUpgradeScreen }

    package func elements() -> [UIElement] {
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
