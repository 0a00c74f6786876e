import Foundation
import OutpostCore
import OutpostShell

/// Why a tracking action was refused; said to the worker in their language by ``TrackingCopy``.
public enum TrackingError: Error, Hashable, Codable, Sendable, CustomStringConvertible {
    case tooManyLocations
    case noSuchLocation
    case openSession(String)
    case signedOut
    case dayConfirmed(String)
    case nameMissing
    case radiusOutOfRange
    case notOnEarth
    case endBeforeStart
    case endInFuture
    case overlapping
    case badDay
    case dayNotOver(String)
    case daySessionOpen(String)
    case noSuchSession
    case breakTooLong
    /// `seed-demo` while nobody is signed in.
    case demoNeedsSignIn
    /// `seed-demo --remove` with no demo month on this device.
    case noDemo
    /// A session entered by hand longer than ``TrackedSession/longestManual``.
    case sessionTooLong
    /// Something unexpected (a store failure), with its English detail.
    case failed(String)

    public var description: String { TrackingCopy(.en).error(self) }
}

/// What the tracking screens tell the worker after an action; kept as a value (not words) so
/// it reads in the language the phone has when it is shown.
package enum TrackingMessage: Codable, Sendable, Hashable {
    case locationAdded(String)
    case locationSaved(String)
    case locationRemoved(String)
    case sessionAdded
    case sessionCorrected
    case sessionDeleted
    case nothingChanged
    case dayConfirmed(String)
    case daySubmitted(String)
    /// The day, and the server's words (the server speaks English).
    case dayNotSubmitted(String, String)
    case profile(String)
    case alreadyClockedIn
    case notClockedIn
    case refused(TrackingError)
    /// Hours taken over from the previous app: how many sessions, how many mended, how many
    /// kept aside unreadable.
    case imported(sessions: Int, repaired: Int, unreadable: Int)
    case planSaved
    case planRefused(PlanError)
    case demoSeeded(sessions: Int, shifts: Int)
    case demoRemoved
    case breakSaved(Int)
    /// A picker refusal (``CalendarPicker/Blocked``).
    case pickerBlocked(CalendarPicker.Blocked)
}

/// Every word of the time-tracking module, in English and German (seed 003's app ships both).
package struct TrackingCopy: Codable, Sendable, Hashable {
    package let language: AppLanguage

    package init(_ language: AppLanguage) { self.language = language }

    private func t(_ english: String, _ german: String) -> String { language == .de ? german : english }

    package var tabStatus: String { t("Status", "Status") }
    package var tabLocations: String { t("Locations", "Orte") }
    package var tabHistory: String { t("History", "Verlauf") }
    package var tabCalendar: String { t("Week", "Woche") }
    package var removedLocation: String { t("a removed location", "ein entfernter Ort") }
    package var demoBanner: String {
        t(
            "Demo month: invented hours to look around with. They are never sent or exported; `track seed-demo --remove` removes them.",
            "Demo-Monat: erfundene Stunden zum Ausprobieren. Sie werden nie gesendet oder exportiert; `track seed-demo --remove` entfernt sie."
        )
    }

    package func duration(minutes: Int) -> String {
        let (hours, rest) = (minutes / 60, String(format: "%02d", minutes % 60))
        return minutes < 60
            ? t("\(minutes) min", "\(minutes) Min.") : t("\(hours) h \(rest) min", "\(hours) Std. \(rest) Min.")
    }

    // MARK: Status

    package func clockedIn(_ name: String, minutes: Int) -> String {
        t(
            "\(name) · clocked in \(duration(minutes: minutes))",
            "\(name) · eingestempelt seit \(duration(minutes: minutes))")
    }
    package func notClockedIn(_ name: String) -> String {
        t("\(name) · not clocked in", "\(name) · nicht eingestempelt")
    }
    package func pendingExit(_ name: String) -> String {
        t(
            "Left \(name)? You'll be clocked out unless you come back within 5 minutes.",
            "\(name) verlassen? Du wirst ausgestempelt, wenn du nicht innerhalb von 5 Minuten zurückkommst.")
    }
    package func clockIn(_ name: String) -> String { t("Clock in at \(name)", "Einstempeln: \(name)") }
    package func clockOut(_ name: String) -> String { t("Clock out at \(name)", "Ausstempeln: \(name)") }
    package var addFirstLocation: String { t("Add your first work location", "Füge deinen ersten Arbeitsort hinzu") }
    package func profile(_ name: String) -> String { t("Geofence rules: \(name)", "Geofence-Regeln: \(name)") }

    package func permissionWarning(_ permission: LocationPermission) -> String? {
        switch permission {
        case .always: nil
        case .whenInUse:
            t(
                "Location access is “While Using the App”: automatic clock-in and clock-out need “Always”. Change it in Settings.",
                "Standortzugriff steht auf „Beim Verwenden der App“: Automatisches Ein- und Ausstempeln braucht „Immer“. Ändere es in den Einstellungen."
            )
        case .denied:
            t(
                "Location access is off: clock in and out by hand, or allow “Always” in Settings.",
                "Standortzugriff ist aus: Stemple von Hand ein und aus oder erlaube „Immer“ in den Einstellungen.")
        }
    }
    package var dismiss: String { t("Dismiss", "Ausblenden") }

    // MARK: Locations

    package func locationRow(_ name: String, radius: Int) -> String {
        t("\(name) · radius \(radius) m", "\(name) · Radius \(radius) m")
    }
    package func addLocation(count: Int) -> String {
        t(
            "Add a work location (\(count) of \(WorkLocation.monitoredLimit))",
            "Arbeitsort hinzufügen (\(count) von \(WorkLocation.monitoredLimit))")
    }
    package var locationsFull: String {
        let limit = WorkLocation.monitoredLimit
        return t(
            "\(limit) of \(limit) locations: remove one to add another",
            "\(limit) von \(limit) Orten: Entferne einen, um einen neuen hinzuzufügen")
    }

    // MARK: History

    package func total(minutes: Int) -> String {
        t("Total \(duration(minutes: minutes))", "Gesamt \(duration(minutes: minutes))")
    }
    package var reviewHint: String {
        t("Submit each day to finalize your hours", "Reiche jeden Tag ein, um deine Stunden abzuschließen")
    }
    package func submit(_ day: String) -> String { t("Submit \(day)", "\(day) einreichen") }
    package var submitNote: String {
        t("A submitted day cannot be changed.", "Ein eingereichter Tag kann nicht mehr geändert werden.")
    }
    package var manual: String { t(" · manual", " · manuell") }
    package func corrected(tracked: String) -> String {
        t(" · corrected (tracked \(tracked))", " · korrigiert (erfasst \(tracked))")
    }
    package var short: String { t(" · short, please review", " · kurz, bitte prüfen") }

    /// A day's standing in words (``ConfirmedDay/standing``): ✓ exactly where the week and the
    /// month show ✓.
    package func dayStatus(_ confirmation: ConfirmedDay?) -> String {
        guard let confirmation else { return "" }
        switch confirmation.standing {
        case .waiting: return t(" · ✓ confirmed, waiting to send", " · ✓ bestätigt, wartet auf Senden")
        case .submitted: return t(" · ✓ submitted", " · ✓ eingereicht")
        case .submittedElsewhere:
            return t(" · ✓ submitted from another phone", " · ✓ von einem anderen Telefon eingereicht")
        case .weekClosed:
            return t(
                " · not submitted: your employer closed the week", " · nicht eingereicht: die Woche ist abgeschlossen")
        case .retry: return t(" · not submitted, submit again", " · nicht eingereicht, erneut einreichen")
        }
    }

    // MARK: Week

    package var dashboardTitle: String { t("Last 14 days", "Letzte 14 Tage") }
    package func plannedVsTracked(_ planned: Int, _ tracked: Int) -> String {
        t(
            "planned \(duration(minutes: planned)), tracked \(duration(minutes: tracked))",
            "geplant \(duration(minutes: planned)), erfasst \(duration(minutes: tracked))")
    }
    package func toConfirm(_ count: Int) -> String { t("\(count) to confirm", "\(count) zu bestätigen") }
    package func nextShift(_ name: String, _ day: String, _ time: String) -> String {
        t("Next shift: \(name) · \(day) \(time)", "Nächste Schicht: \(name) · \(day) \(time)")
    }
    package var previousMonth: String { t("Previous month", "Voriger Monat") }
    package var nextMonth: String { t("Next month", "Nächster Monat") }
    package func monthTitle(_ month: String) -> String {
        let parts = month.split(separator: "-").compactMap { Int($0) }
        let english = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let german = [
            "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November",
            "Dezember",
        ]
        guard parts.count == 2, (1...12).contains(parts[1]) else { return month }
        return (language == .de ? german : english)[parts[1] - 1] + " \(parts[0])"
    }
    package var trackedLabel: String { t("Tracked", "Erfasst") }
    package var plannedLabel: String { t("Planned", "Geplant") }
    /// The month's footer as its parts (tracked, planned, overtime, vacation, sick): the screen
    /// joins them with " · ", the terminal and the report lay them out.
    package func monthSummaryParts(_ summary: MonthHours) -> [String] {
        [
            "\(trackedLabel) \(duration(minutes: summary.trackedMinutes))",
            "\(plannedLabel) \(duration(minutes: summary.plannedMinutes))",
            t("Overtime", "Überstunden") + " \(overtime(summary.overtimeMinutes))",
            t("Vacation", "Urlaub") + " \(summary.vacationDays)",
            t("Sick", "Krank") + " \(summary.sickDays)",
        ]
    }
    package func monthSummary(_ summary: MonthHours) -> String {
        monthSummaryParts(summary).joined(separator: " · ")
    }
    package func confirmedNudge(_ count: Int) -> String { t("(\(count) confirmed)", "(\(count) bestätigt)") }
    package var previousWeek: String { t("Previous week", "Vorige Woche") }
    package var nextWeek: String { t("Next week", "Nächste Woche") }
    package func weekTitle(_ week: Int, _ first: String, _ last: String) -> String {
        t("Week \(week) · \(first) – \(last)", "KW \(week) · \(first) – \(last)")
    }
    package func showTracked(_ on: Bool) -> String {
        on ? t("Tracked time shown", "Erfasste Zeit sichtbar") : t("Tracked time hidden", "Erfasste Zeit ausgeblendet")
    }
    package var allDay: String { t("all day", "ganztägig") }
    package var orphaned: String { t("template deleted", "Vorlage gelöscht") }
    package func breakMinutes(_ minutes: Int) -> String { t("break \(minutes) min", "Pause \(minutes) Min.") }
    package func absence(_ kind: AbsenceMark.Kind) -> String {
        switch kind {
        case .vacation: t("Vacation", "Urlaub")
        case .sick: t("Sick", "Krank")
        }
    }
    package func overtime(_ minutes: Int) -> String {
        let sign = minutes > 0 ? "+" : minutes < 0 ? "−" : "±"
        let value = abs(minutes)
        return sign + t("\(value / 60)h \(value % 60)m", "\(value / 60) Std. \(value % 60) Min.")
    }
    package func trackedOf(_ tracked: String, planned: Int) -> String {
        planned > 0
            ? t(
                "Tracked \(tracked) of \(duration(minutes: planned)) planned",
                "Erfasst \(tracked) von \(duration(minutes: planned)) geplant")
            : t("Tracked \(tracked)", "Erfasst \(tracked)")
    }
    /// A weekday's full name, Monday first (the CSV's Day column).
    package func weekdayName(_ index: Int) -> String {
        let english = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        let german = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
        return (language == .de ? german : english)[max(0, min(6, index))]
    }

    /// The server's refusal of a day, as the worker reads it: its own words in English; in
    /// German, the known refusals in German and any other with the server's words quoted.
    package func serverRefusal(code: String?, message: String) -> String {
        guard language == .de else { return message }
        switch code {
        case "day_already_submitted":
            return
                "Dieser Tag wurde schon eingereicht, von einem anderen Telefon: Es gilt die Einreichung, die zuerst ankam."
        case "week_finalised":
            return
                "Dein Arbeitgeber hat diese Woche abgeschlossen; der Tag kann nicht mehr eingereicht werden. Fehlen Stunden, sprich mit deinem Arbeitgeber."
        default:
            return "Der Server hat den Tag nicht angenommen: „\(message)“"
        }
    }

    package func weekday(_ index: Int) -> String {
        let english = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let german = ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]
        return (language == .de ? german : english)[max(0, min(6, index))]
    }

    // MARK: The inline picker

    package var fab: String { t("Add", "Hinzufügen") }
    package var tabShifts: String { t("Shifts", "Schichten") }
    package var tabAbsences: String { t("Absences", "Abwesenheiten") }
    package var tabGPS: String { t("GPS", "GPS") }
    package var logHours: String { t("Log hours", "Stunden eintragen") }
    package var close: String { t("Close", "Schließen") }
    package var edit: String { t("Edit", "Bearbeiten") }
    package var choose: String { t("Choose", "Auswählen") }
    package var newShift: String { t("New shift", "Neue Schicht") }
    package var newAbsence: String { t("New absence", "Neue Abwesenheit") }
    package var save: String { t("Save", "Speichern") }
    package var cancel: String { t("Cancel", "Abbrechen") }
    package var name: String { t("Name", "Name") }
    package var start: String { t("Start", "Beginn") }
    package var length: String { t("Length", "Dauer") }
    package var colour: String { t("Colour", "Farbe") }
    package var breakLabel: String { t("Break", "Pause") }
    package func placeOn(_ day: String) -> String { t("Place on \(day)", "Auf \(day) setzen") }
    package var arming: String {
        t("Choose one, then double-tap days to place it", "Wähle eine aus und tippe dann doppelt auf Tage")
    }
    package func armed(_ name: String) -> String {
        t("\(name): double-tap days to place it", "\(name): doppelt auf Tage tippen, um sie zu setzen")
    }
    package func manualForm(_ day: String) -> String {
        t("Log hours on \(day): a location, a start and an end", "Stunden am \(day) eintragen: Ort, Beginn und Ende")
    }
    package var confirmedDayBlocked: String {
        t(
            "That day is confirmed: nothing can be placed on it.",
            "Dieser Tag ist bestätigt: Dort kann nichts gesetzt werden.")
    }
    package var armedSingleTap: String {
        t("Double-tap a day to place it, or cancel.", "Tippe doppelt auf einen Tag, um sie zu setzen, oder brich ab.")
    }

    // MARK: The first Submit

    package func submitExplanation(_ day: String) -> String {
        t(
            "Submitting \(day) sends its hours to your employer. After that the day cannot be edited: check its times and breaks first.",
            "Mit dem Einreichen gehen die Stunden vom \(day) an deinen Arbeitgeber. Danach kann der Tag nicht mehr bearbeitet werden: Prüfe vorher Zeiten und Pausen."
        )
    }
    package var submitNow: String { t("Submit", "Einreichen") }
    package var notNow: String { t("Not now", "Jetzt nicht") }

    package func planError(_ error: PlanError) -> String {
        switch error {
        case .dayLocked(let day):
            t("\(day) is confirmed and cannot be changed.", "\(day) ist bestätigt und kann nicht geändert werden.")
        case .overlap(let name):
            t("It overlaps \(name) on that day.", "Das überschneidet sich mit \(name) an diesem Tag.")
        case .noSuchTemplate: t("There is no such template.", "Diese Vorlage gibt es nicht.")
        case .noSuchShift: t("There is no such shift.", "Diese Schicht gibt es nicht.")
        case .noSuchAbsence: t("There is no such absence.", "Diese Abwesenheit gibt es nicht.")
        case .invalidTime:
            t(
                "Times are within the day, a shift lasts up to 24 hours and its break is shorter than it.",
                "Zeiten liegen im Tag, eine Schicht dauert höchstens 24 Stunden und die Pause ist kürzer.")
        case .nameMissing: t("Give it a name.", "Gib ihr einen Namen.")
        }
    }

    // MARK: Messages

    package func message(_ message: TrackingMessage) -> String {
        switch message {
        case .locationAdded(let name):
            t(
                "\(name) added; clock-in is automatic when you arrive.",
                "\(name) hinzugefügt; beim Ankommen wirst du automatisch eingestempelt.")
        case .locationSaved(let name): t("\(name) saved.", "\(name) gespeichert.")
        case .locationRemoved(let name):
            t(
                "\(name) removed; its past sessions are kept.",
                "\(name) entfernt; die bisherigen Zeiten bleiben erhalten.")
        case .sessionAdded: t("Session added.", "Zeit hinzugefügt.")
        case .sessionCorrected:
            t(
                "Session corrected; its times as tracked are kept and go with the day.",
                "Zeit korrigiert; die erfassten Zeiten bleiben erhalten und gehen mit dem Tag mit.")
        case .sessionDeleted:
            t(
                "Session deleted; it stays in your data export and goes with the day as deleted.",
                "Zeit gelöscht; sie bleibt in deinem Datenexport und geht als gelöscht mit dem Tag mit.")
        case .nothingChanged: t("Nothing changed.", "Nichts geändert.")
        case .dayConfirmed(let day):
            t(
                "\(day) confirmed. It is locked now and is sent as soon as you are online.",
                "\(day) bestätigt. Der Tag ist jetzt gesperrt und wird gesendet, sobald du online bist.")
        case .daySubmitted(let day): t("\(day) submitted.", "\(day) eingereicht.")
        case .dayNotSubmitted(let day, let reason):
            t("\(day) was not submitted: \(reason)", "\(day) wurde nicht eingereicht: \(reason)")
        case .profile(let name): profile(name) + "."
        case .alreadyClockedIn: t("You are already clocked in there.", "Du bist dort schon eingestempelt.")
        case .notClockedIn: t("You are not clocked in there.", "Du bist dort nicht eingestempelt.")
        case .refused(let error): self.error(error)
        case .planSaved: t("Plan saved.", "Plan gespeichert.")
        case .breakSaved(let minutes): t("Break of \(minutes) min saved.", "Pause von \(minutes) Min. gespeichert.")
        case .pickerBlocked(.confirmedDay): confirmedDayBlocked
        case .pickerBlocked(.armedSingleTap): armedSingleTap
        case .demoSeeded(let sessions, let shifts):
            t(
                "A month of demo work: \(shifts) shifts, \(sessions) sessions, a vacation and a sick day.",
                "Ein Monat Demo-Arbeit: \(shifts) Schichten, \(sessions) Zeiten, Urlaub und ein Krankheitstag.")
        case .demoRemoved:
            t(
                "The demo month is removed; these are your own hours.",
                "Der Demo-Monat ist entfernt; das sind deine Stunden.")
        case .planRefused(let error): planError(error)
        case .imported(let sessions, let repaired, let unreadable):
            t(
                "\(sessions) sessions from your previous app are here; \(repaired) were inconsistent and repaired"
                    + (unreadable > 0 ? ", \(unreadable) could not be read and are kept in your data export." : "."),
                "\(sessions) Zeiten aus deiner bisherigen App sind übernommen; \(repaired) waren widersprüchlich und wurden repariert"
                    + (unreadable > 0
                        ? ", \(unreadable) waren nicht lesbar und stehen in deinem Datenexport." : "."))
        }
    }

    package func error(_ error: TrackingError) -> String {
        let limit = WorkLocation.monitoredLimit
        return switch error {
        case .tooManyLocations:
            t(
                "You can have at most \(limit) work locations (the phone watches 20 at once). Remove one first.",
                "Du kannst höchstens \(limit) Arbeitsorte haben (das Telefon überwacht 20 gleichzeitig). Entferne zuerst einen."
            )
        case .noSuchLocation:
            t("There is no such work location on this device.", "Diesen Arbeitsort gibt es auf diesem Gerät nicht.")
        case .openSession(let name):
            t(
                "You are clocked in at \(name). Clock out first.",
                "Du bist bei \(name) eingestempelt. Stemple zuerst aus.")
        case .signedOut: t("Sign in to track your hours.", "Melde dich an, um deine Stunden zu erfassen.")
        case .dayConfirmed(let day):
            t("\(day) is confirmed and cannot be changed.", "\(day) ist bestätigt und kann nicht geändert werden.")
        case .nameMissing: t("Give the location a name.", "Gib dem Ort einen Namen.")
        case .radiusOutOfRange:
            t("The radius must be between 50 and 5000 metres.", "Der Radius muss zwischen 50 und 5000 Metern liegen.")
        case .notOnEarth:
            t(
                "That is not a place on earth (latitude -90…90, longitude -180…180).",
                "Das ist kein Ort auf der Erde (Breite -90…90, Länge -180…180).")
        case .endBeforeStart: t("The end must be after the start.", "Das Ende muss nach dem Beginn liegen.")
        case .endInFuture: t("A session cannot end in the future.", "Eine Zeit kann nicht in der Zukunft enden.")
        case .overlapping:
            t(
                "It overlaps another session at this location.",
                "Sie überschneidet sich mit einer anderen Zeit an diesem Ort.")
        case .badDay: t("A day is written YYYY-MM-DD.", "Ein Tag wird JJJJ-MM-TT geschrieben.")
        case .dayNotOver(let day):
            t(
                "\(day) is not over yet; submit it once it has ended.",
                "\(day) ist noch nicht vorbei; reiche ihn ein, wenn er zu Ende ist.")
        case .daySessionOpen(let day):
            t(
                "A session of \(day) is still open; clock out first.",
                "Eine Zeit vom \(day) ist noch offen; stemple zuerst aus.")
        case .noSuchSession: t("There is no such finished session.", "Diese abgeschlossene Zeit gibt es nicht.")
        case .demoNeedsSignIn:
            t(
                "Nothing was seeded: sign in first. The demo month then lives apart from your own hours and is never sent.",
                "Nichts angelegt: melde dich zuerst an. Der Demo-Monat liegt dann getrennt von deinen Stunden und wird nie gesendet."
            )
        case .noDemo: t("There is no demo month on this device.", "Auf diesem Gerät gibt es keinen Demo-Monat.")
        case .sessionTooLong:
            t(
                "A session entered by hand can be at most 24 hours long; enter each day's hours on their own.",
                "Eine von Hand eingetragene Zeit darf höchstens 24 Stunden lang sein; trage jeden Tag einzeln ein.")
        case .breakTooLong:
            t("A break cannot be longer than its session.", "Eine Pause kann nicht länger sein als ihre Zeit.")
        case .failed(let detail): t("That did not work: \(detail).", "Das hat nicht geklappt: \(detail).")
        }
    }
}
