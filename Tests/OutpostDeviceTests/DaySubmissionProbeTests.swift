import Foundation
import OutpostCore
import OutpostProtocol
import OutpostTestSupport
import Testing

@testable import OutpostActivities
@testable import OutpostCheckIn
@testable import OutpostDevice
@testable import OutpostKiosk
@testable import OutpostShell
@testable import OutpostTracking

/// Confirming a day (seed 003 "Submit"): the day locks on the device, its
/// submission waits in the outbox, the server stores it once, and its answer, a 409 included,
/// is shown on the day.
@Suite("Time tracking: confirming and submitting days")
struct DaySubmissionProbeTests {
    /// A working day on `phone`: arrive at 08:00, leave at 12:00 (a good fix: clocked out at
    /// once). Returns the day.
    @MainActor
    static func workMorning(_ phone: WorkerPhone, at location: WorkLocation) -> String {
        phone.app.geofence(.enter, location: location.id, fix: phone.fix(location, metres: 10, accuracy: 30, .event))
        phone.clock.advance(by: 4 * 3600)
        phone.app.geofence(.exit, location: location.id, fix: phone.fix(location, metres: 300, accuracy: 20))
        return ActivityDate.day(of: phone.app.trackedSessions[0].clockIn, in: TimeZone(identifier: "UTC")!)
    }

    /// Moves the phone (and the server) to 09:00 the next day.
    @MainActor
    static func nextMorning(_ phone: WorkerPhone) {
        phone.clock.advance(by: 21 * 3600)
        phone.lab.api.clock.set(phone.clock.now)
    }

    /// The worker's days as the server has them (read through the API as the worker).
    static func serverDays(_ lab: DeviceLab, _ email: String) async throws -> [DaySubmission] {
        let worker = try await lab.api.signIn(email: email, password: DeviceLab.staffPassword)
        let list: DaySubmissionList = try await lab.api.request(
            .get, "/v1/tracking/days", token: worker.accessToken
        ).decode()
        return list.days
    }

    @MainActor
    static func day(_ phone: WorkerPhone, _ date: String) -> UIElement? {
        phone.app.showTracking(.history)
        return phone.app.tree().elements(UIIdentifier.trackHistoryDay).first { $0.attributes["date"] == date }
    }

    @Test(
        "track-day-confirm-offline-then-once: a confirmed day locks at once, waits offline, and the server stores it once"
    )
    func confirmOffline() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "confirm")
            let home = try phone.addLocation()
            let date = Self.workMorning(phone, at: home)
            await phone.app.connectivityChanged(online: false)
            // Not over yet.
            await phone.confirm(date)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text.contains("not over yet") == true)
            #expect(phone.app.confirmedDays.isEmpty)
            Self.nextMorning(phone)
            #expect(Self.day(phone, date)?.attributes["status"] == "unconfirmed")
            #expect(phone.app.tree().contains(UIIdentifier.trackReviewHint))
            #expect(phone.app.tree().elements(UIIdentifier.trackDaySubmit).map { $0.attributes["date"] } == [date])
            await phone.confirm(date)
            #expect(phone.app.tree().element(UIIdentifier.trackNotice)?.text.contains("confirmed") == true)
            #expect(phone.app.confirmedDays[date]?.status == .queued)
            #expect(phone.app.pendingCount == 1)
            #expect(Self.day(phone, date)?.attributes["status"] == "queued")
            #expect(!phone.app.tree().contains(UIIdentifier.trackDaySubmit))
            // Locked: no session can be added to it, and it cannot be confirmed twice.
            let start = try #require(phone.app.trackedSessions.first?.clockOut).addingTimeInterval(3600)
            phone.app.addManualSession(at: home.id, from: start, to: start.addingTimeInterval(1800))
            #expect(
                phone.app.tree().element(UIIdentifier.trackError)?.text == "\(date) is confirmed and cannot be changed."
            )
            await phone.confirm(date)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text.contains("cannot be changed") == true)
            #expect(phone.app.pendingCount == 1 && phone.app.trackedSessions.count == 1)
            #expect(try await Self.serverDays(lab, phone.email).isEmpty, "nothing left the phone offline")
            // A kill while offline loses nothing.
            try phone.relaunch()
            #expect(phone.app.confirmedDays[date]?.status == .queued && phone.app.pendingCount == 1)
            await phone.app.sync()
            let days = try await Self.serverDays(lab, phone.email)
            #expect(days.map(\.date) == [date] && days.first?.trackedMinutes == 240)
            #expect(days.first?.sessions.map(\.location) == ["Care home Nord"])
            #expect(phone.app.pendingCount == 0)
            #expect(phone.app.confirmedDays[date]?.status == .submitted)
            #expect(Self.day(phone, date)?.text.contains("✓ submitted") == true)
            // Another sync sends nothing again.
            await phone.app.sync()
            #expect(try await Self.serverDays(lab, phone.email).count == 1)
        }
    }

    /// Every view reads the day's standing from one place (``ConfirmedDay/standing``): the
    /// history's status and words, and ✓ in the week and the month exactly when it counts.
    @MainActor
    static func expectOneTruth(
        _ phone: WorkerPhone, _ date: String, _ standing: String, history: String, checked: Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let row = day(phone, date)
        #expect(row?.attributes["status"] == standing, sourceLocation: sourceLocation)
        #expect(row?.text.contains(history) == true, "\(row?.text ?? "-")", sourceLocation: sourceLocation)
        let confirmed = checked
        phone.app.showWeek(of: date)
        let week = phone.app.tree().elements(UIIdentifier.calendarDay).first { $0.attributes["date"] == date }
        #expect(
            (week?.attributes["status"] == "confirmed") == confirmed, "\(week?.attributes ?? [:])",
            sourceLocation: sourceLocation)
        phone.app.showMonth(String(date.prefix(7)))
        let cell = phone.app.tree().elements(UIIdentifier.calendarMonthCell).first { $0.attributes["date"] == date }
        #expect(
            (cell?.attributes["status"] == "confirmed") == confirmed, "\(cell?.attributes ?? [:])",
            sourceLocation: sourceLocation)
        phone.app.showTrackingHistory(range: .all)
    }

    @Test(
        "track-day-second-confirm-409: the same day confirmed on a second phone is refused with 409 and the phone shows why"
    )
    func secondConfirm() async throws {
        try await DeviceLab.run { lab in
            let first = try await WorkerPhone(lab, "first")
            let home = try first.addLocation()
            let date = Self.workMorning(first, at: home)
            Self.nextMorning(first)
            await first.confirm(date)
            #expect(first.app.confirmedDays[date]?.status == .submitted)
            // The worker's new phone: the day's sessions are entered by hand and confirmed again.
            let second = try await WorkerPhone(lab, "second", email: first.email)
            second.clock.set(first.clock.now)
            let place = try second.addLocation()
            let start = try #require(first.app.trackedSessions.first?.clockIn)
            second.app.addManualSession(at: place.id, from: start, to: start.addingTimeInterval(2 * 3600))
            await second.confirm(date)
            let refused = try #require(second.app.confirmedDays[date])
            #expect(refused.status == .refused && refused.code == "day_already_submitted" && refused.locked)
            #expect(second.app.pendingCount == 0, "the answer is kept on the day; the entry is done")
            #expect(second.app.tree().element(UIIdentifier.trackError)?.text.contains("was not submitted") == true)
            let answer = second.app.tree().elements(UIIdentifier.trackDayAnswer).first { $0.attributes["date"] == date }
            #expect(answer?.text.contains("already submitted") == true)
            // track-day-one-truth: the history, the week and the month agree:
            // the day stands at the employer, from the other phone.
            Self.expectOneTruth(
                second, date, "submitted_elsewhere", history: "✓ submitted from another phone", checked: true)
            // The day and its sessions stay on the phone; the server keeps the first submission.
            #expect(second.app.trackedSessions.count == 1)
            let days = try await Self.serverDays(lab, first.email)
            #expect(days.count == 1 && days.first?.trackedMinutes == 240)
        }
    }

    @Test(
        "track-day-lost-answer-replayed: a submission whose answer is lost is sent again and stored once, not refused")
    func lostAnswer() async throws {
        try await DeviceLab.run { lab in
            let faults = LockedBox<ScriptedFaultTransport?>(nil)
            let phone = try await WorkerPhone(
                lab, "flaky",
                transport: { inner in
                    let made = ScriptedFaultTransport(inner)
                    faults.value = made
                    return made
                })
            let home = try phone.addLocation()
            let date = Self.workMorning(phone, at: home)
            Self.nextMorning(phone)
            // The night went by: the access token expired and is refreshed first; the submission's
            // answer after that is lost.
            try #require(faults.value).failOnce(.dropResponse) { request, refreshes in
                request.path.hasPrefix("/v1/tracking/days/") && refreshes > 0
            }
            await phone.confirm(date)
            #expect(try await Self.serverDays(lab, phone.email).count == 1, "the server stored it")
            #expect(phone.app.confirmedDays[date]?.status == .queued, "the phone never heard")
            await phone.app.sync()
            #expect(phone.app.confirmedDays[date]?.status == .submitted)
            #expect(try await Self.serverDays(lab, phone.email).count == 1)
        }
    }

    @Test(
        "track-day-refusals: an open session, a finalised week; the day stays locked with the employer's answer"
    )
    func refusals() async throws {
        try await DeviceLab.run { lab in
            let phone = try await WorkerPhone(lab, "refusals")
            let home = try phone.addLocation()
            phone.app.geofence(.enter, location: home.id, fix: phone.fix(home, metres: 10, accuracy: 30, .event))
            let date = ActivityDate.day(of: phone.clock.now, in: TimeZone(identifier: "UTC")!)
            Self.nextMorning(phone)
            await phone.confirm(date)
            #expect(phone.app.tree().element(UIIdentifier.trackError)?.text.contains("still open") == true)
            phone.app.clockOut(at: home.id)
            // The employer finalises the week first.
            let week = try #require(WorkDay.week(of: date))
            let worker = try await lab.api.signIn(email: phone.email, password: DeviceLab.staffPassword)
            let organizer = try await lab.api.signIn(email: "org@acme.test", password: "organizer-pass")
            let finalised = try await lab.api.request(
                .post, "/v1/tracking/users/\(worker.user.id)/weeks/\(week)/finalise", token: organizer.accessToken)
            #expect(finalised.status == 200)
            await phone.confirm(date)
            let day = try #require(phone.app.confirmedDays[date])
            #expect(day.status == .refused && day.code == "week_finalised" && day.locked)
            #expect(day.message?.contains("Your employer finalised the week") == true)
            #expect(day.message?.contains("ask them to add") == false, "no route lets the employer add a day")
            #expect(!phone.app.tree().contains(UIIdentifier.trackDaySubmit))
            // track-day-one-truth: the day is not at the employer, and no view shows it with ✓.
            Self.expectOneTruth(
                phone, date, "week_closed", history: "not submitted: your employer closed the week", checked: false)
        }
    }
}
