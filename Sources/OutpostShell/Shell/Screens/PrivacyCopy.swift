import OutpostProtocol

/// Every word of the data-privacy screen, in English and German (seed 003's app ships both).
package struct PrivacyCopy {
    package let language: AppLanguage

    package init(_ language: AppLanguage) { self.language = language }

    private func t(_ english: String, _ german: String) -> String { language == .de ? german : english }

    package func consent(version: String, on day: String?) -> String {
        let date = day.map { t(", on \($0)", ", am \($0)") } ?? ""
        return t(
            "Terms of Service and Privacy Policy accepted (version \(version)\(date))",
            "Nutzungsbedingungen und Datenschutzerklärung akzeptiert (Version \(version)\(date))")
    }
    package var noConsent: String { t("No consent recorded", "Keine Einwilligung erfasst") }
    package var export: String { t("Export My Data", "Meine Daten exportieren") }
    package var delete: String { t("Withdraw Consent & Delete Account", "Einwilligung widerrufen & Konto löschen") }
    package var deleteAnyway: String { t("Delete anyway", "Trotzdem löschen") }
    package func deleteWarning(_ pending: Int, noun: ShellStatus.Noun) -> String {
        t(
            "\(pending) \(noun.for(pending)) \(pending == 1 ? "is" : "are") still waiting to be sent and will be lost. Delete your account anyway?",
            "\(pending) \(pending == 1 ? "Eintrag wartet" : "Einträge warten") noch auf das Senden und \(pending == 1 ? "geht" : "gehen") verloren. Konto trotzdem löschen?"
        )
    }
    package func consentAccepted(_ version: String) -> String {
        t(
            "Version \(version) of the terms accepted; your other phones learn it at their next sync.",
            "Version \(version) der Bedingungen akzeptiert; deine anderen Telefone erfahren es beim nächsten Abgleich.")
    }
    package var consentNeedsConnection: String {
        t(
            "Accepting the terms needs a connection: the server keeps your consent. Nothing was changed.",
            "Das Akzeptieren der Bedingungen braucht eine Verbindung: Der Server speichert deine Einwilligung. Nichts wurde geändert."
        )
    }
    package var consentNotSaved: String {
        t(
            "The server did not take your consent; nothing was changed. Try again.",
            "Der Server hat deine Einwilligung nicht angenommen; nichts wurde geändert. Versuche es noch einmal.")
    }
    package var badVersion: String {
        t(
            "Name the version of the terms (1 to 64 characters).",
            "Nenne die Version der Bedingungen (1 bis 64 Zeichen).")
    }
    package var exported: String {
        t(
            "Exported your data from this device and the server.",
            "Deine Daten von diesem Gerät und dem Server exportiert.")
    }
    package var exportedDeviceOnly: String {
        t(
            "Exported this device's data; the server's copy needs a connection.",
            "Die Daten dieses Geräts exportiert; die Kopie des Servers braucht eine Verbindung.")
    }
    package var exportedRemoved: String {
        t(
            "Exported what this device kept of your removed account.",
            "Exportiert, was dieses Gerät von deinem entfernten Konto aufbewahrt hat.")
    }
}
