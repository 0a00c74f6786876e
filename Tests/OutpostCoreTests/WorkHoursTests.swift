import Foundation
import OutpostCore
import Testing

/// Hours, computed once: sessions split at the real bounds of days (midnight,
/// clock changes), breaks allocated in proportion, planned vs tracked, overtime on confirmed
/// days, the month's summary; and the properties every view relies on.
@Suite("Work hours")
struct WorkHoursTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test("hours-midnight-split: a night shift is split at midnight and its break in proportion")
    func midnight() {
        let night = TrackedSpan(
            start: Self.at("2026-11-20T22:00:00+01:00"), end: Self.at("2026-11-21T06:00:00+01:00"), breakMinutes: 60)
        let parts = WorkHours.split(night, in: Self.berlin)
        #expect(parts.map(\.day) == ["2026-11-20", "2026-11-21"])
        #expect(parts.map(\.seconds) == [7_200, 21_600])
        #expect(parts.map(\.breakSeconds) == [900, 2_700])
        let days = WorkHours.days(from: "2026-11-20", to: "2026-11-21", sessions: [night], in: Self.berlin)
        #expect(days.map(\.trackedMinutes) == [105, 315])
    }

    @Test(
        "hours-dst-days: Europe/Berlin and America/New_York days of 23 and 25 hours; a session over the change counts its real length",
        arguments: [
            ("Europe/Berlin", "2026-03-29", 23), ("Europe/Berlin", "2026-10-25", 25),
            ("America/New_York", "2026-03-08", 23), ("America/New_York", "2026-11-01", 25),
        ])
    func dst(zone: String, day: String, hours: Int) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let bounds = try #require(WorkDay.interval(of: day, in: timeZone))
        #expect(Int(bounds.upperBound.timeIntervalSince(bounds.lowerBound)) == hours * 3_600)
        // 00:30 to 05:30 on the clock, across the change: 4 or 6 hours really worked.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = bounds.lowerBound.addingTimeInterval(1_800)
        let end = try #require(
            calendar.date(bySettingHour: 5, minute: 30, second: 0, of: bounds.lowerBound.addingTimeInterval(43_200)))
        let result = WorkHours.days(
            from: day, to: day, sessions: [TrackedSpan(start: start, end: end)], in: timeZone)
        #expect(result.first?.lengthSeconds == hours * 3_600)
        #expect(result.first?.trackedMinutes == (hours == 23 ? 240 : 360))
        // A session of the whole day is the whole day, not 24 hours.
        let whole = WorkHours.days(
            from: day, to: day, sessions: [TrackedSpan(start: bounds.lowerBound, end: bounds.upperBound)],
            in: timeZone)
        #expect(whole.first?.trackedMinutes == hours * 60)
    }

    @Test("hours-month-end: a session across a month's end counts in each month for its part")
    func monthEnd() {
        let session = TrackedSpan(
            start: Self.at("2026-11-30T22:00:00+01:00"), end: Self.at("2026-12-01T02:30:00+01:00"))
        let november = WorkHours.days(from: "2026-11-01", to: "2026-11-30", sessions: [session], in: Self.berlin)
        let december = WorkHours.days(from: "2026-12-01", to: "2026-12-31", sessions: [session], in: Self.berlin)
        #expect(november.count == 30 && december.count == 31)
        #expect(WorkHours.month(november).trackedMinutes == 120)
        #expect(WorkHours.month(december).trackedMinutes == 150)
    }

    @Test(
        "hours-overtime-and-summary: overtime on confirmed days only; the month counts vacation and sick days and nudges when part is confirmed; short sessions count and are flagged"
    )
    func overtime() {
        let sessions = [
            TrackedSpan(
                start: Self.at("2026-11-16T08:00:00+01:00"), end: Self.at("2026-11-16T17:30:00+01:00"), breakMinutes: 30
            ),
            TrackedSpan(start: Self.at("2026-11-17T08:00:00+01:00"), end: Self.at("2026-11-17T15:00:00+01:00")),
            TrackedSpan(
                start: Self.at("2026-11-17T16:00:00+01:00"), end: Self.at("2026-11-17T16:03:00+01:00"), short: true),
        ]
        let planned = [
            PlannedSpan(day: "2026-11-16", startMinute: 480, durationMinutes: 510, breakMinutes: 30),
            PlannedSpan(day: "2026-11-17", startMinute: 480, durationMinutes: 480),
        ]
        let absences = [AbsenceMark(day: "2026-11-18", kind: .vacation), AbsenceMark(day: "2026-11-19", kind: .sick)]
        let days = WorkHours.days(
            from: "2026-11-16", to: "2026-11-19", sessions: sessions, planned: planned, absences: absences,
            confirmed: ["2026-11-16"], in: Self.berlin)
        #expect(days.map(\.trackedMinutes) == [540, 423, 0, 0])
        #expect(days.map(\.plannedMinutes) == [480, 480, 0, 0])
        #expect(days.map(\.overtimeMinutes) == [60, nil, nil, nil])
        #expect(days[1].shortSessions == 1)
        let month = WorkHours.month(days)
        #expect(month.trackedMinutes == 963 && month.plannedMinutes == 960 && month.overtimeMinutes == 60)
        #expect(month.vacationDays == 1 && month.sickDays == 1 && month.shortSessions == 1)
        #expect(month.daysWithActivity == 2 && month.confirmedNudge == 1)
        let all = WorkHours.days(
            from: "2026-11-16", to: "2026-11-19", sessions: sessions, planned: planned,
            confirmed: ["2026-11-16", "2026-11-17"], in: Self.berlin)
        #expect(WorkHours.month(all).confirmedNudge == nil, "everything confirmed: no nudge")
        #expect(WorkHours.month(all).overtimeMinutes == 60 - 57)
    }

    @Test("hours-night-shift-planned: a planned night shift is planned time on both its days, its break in proportion")
    func nightPlanned() {
        let night = PlannedSpan(day: "2026-11-16", startMinute: 1_320, durationMinutes: 480, breakMinutes: 48)
        let days = WorkHours.days(from: "2026-11-16", to: "2026-11-17", sessions: [], planned: [night], in: Self.berlin)
        #expect(days.map(\.plannedMinutes) == [108, 324], "2 h and 6 h, less 12 and 36 minutes of break")
    }

    @Test(
        "hours-segments: each day knows when it was worked and planned, for the pictures: a night session is split at midnight, overlapping sessions are one stretch, a shift keeps its colour, the 25-hour day runs to minute 1,500"
    )
    func segments() {
        let night = TrackedSpan(start: Self.at("2026-11-16T21:00:00Z"), end: Self.at("2026-11-17T05:00:00Z"))
        let overlap = TrackedSpan(start: Self.at("2026-11-17T07:00:00Z"), end: Self.at("2026-11-17T09:00:00Z"))
        let second = TrackedSpan(start: Self.at("2026-11-17T08:00:00Z"), end: Self.at("2026-11-17T10:30:00Z"))
        let shift = PlannedSpan(day: "2026-11-16", startMinute: 1_320, durationMinutes: 480, tag: "purple")
        let days = WorkHours.days(
            from: "2026-11-16", to: "2026-11-17", sessions: [night, overlap, second], planned: [shift], in: Self.berlin)
        #expect(days[0].trackedSegments == [DaySegment(startMinute: 1_320, endMinute: 1_440)], "22:00 to midnight")
        #expect(
            days[1].trackedSegments == [
                DaySegment(startMinute: 0, endMinute: 360), DaySegment(startMinute: 480, endMinute: 690),
            ], "to 06:00, and 08:00-11:30 as one")
        #expect(days[0].plannedSegments == [DaySegment(startMinute: 1_320, endMinute: 1_440, tag: "purple")])
        #expect(days[1].plannedSegments == [DaySegment(startMinute: 0, endMinute: 360, tag: "purple")])
        // 2026-10-25 in Berlin has 25 hours: a session over all of it ends at minute 1,500.
        let long = TrackedSpan(start: Self.at("2026-10-24T22:00:00Z"), end: Self.at("2026-10-25T23:00:00Z"))
        let autumn = WorkHours.days(from: "2026-10-25", to: "2026-10-25", sessions: [long], in: Self.berlin)
        #expect(autumn.first?.trackedSegments == [DaySegment(startMinute: 0, endMinute: 1_500)])
    }

    @Test(
        "hours-properties: random sessions never give a day more than its length; parts sum to the whole; breaks are allocated exactly; totals do not depend on the time zone shown"
    )
    func properties() {
        var random = SeededRandom(seed: 12)
        let zones = [Self.berlin, Self.newYork, TimeZone(identifier: "UTC")!, TimeZone(identifier: "Asia/Kolkata")!]
        // Around both 2026 clock changes of both zones.
        let anchors = ["2026-03-07T00:00:00Z", "2026-03-28T00:00:00Z", "2026-10-24T00:00:00Z", "2026-10-31T00:00:00Z"]
        for round in 0..<400 {
            let anchor = Self.at(anchors[round % anchors.count])
            // One person's sessions: one after another, some across midnight or for days.
            var cursor = anchor.addingTimeInterval(Double.random(in: 0..<86_400, using: &random))
            let sessions = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                let start = cursor.addingTimeInterval(Double.random(in: 0..<(10 * 3_600), using: &random))
                let end = start.addingTimeInterval(Double.random(in: 0..<(30 * 3_600), using: &random))
                cursor = end
                return TrackedSpan(start: start, end: end, breakMinutes: Int.random(in: 0...90, using: &random))
            }
            let whole = sessions.reduce(0) {
                $0 + Int($1.end.timeIntervalSince($1.start))
                    - min($1.breakMinutes * 60, Int($1.end.timeIntervalSince($1.start)))
            }
            var totals: Set<Int> = []
            for zone in zones {
                for session in sessions {
                    let parts = WorkHours.split(session, in: zone)
                    #expect(parts.reduce(0) { $0 + $1.seconds } == Int(session.end.timeIntervalSince(session.start)))
                    #expect(
                        parts.reduce(0) { $0 + $1.breakSeconds }
                            == min(session.breakMinutes * 60, Int(session.end.timeIntervalSince(session.start))))
                }
                let first = ActivityDate.day(of: anchor.addingTimeInterval(-86_400), in: zone)
                let last = ActivityDate.day(of: cursor.addingTimeInterval(86_400), in: zone)
                let days = WorkHours.days(from: first, to: last, sessions: sessions, in: zone)
                for day in days { #expect(day.grossSeconds <= day.lengthSeconds, "\(day.day) in \(zone.identifier)") }
                totals.insert(days.reduce(0) { $0 + $1.trackedSeconds })
            }
            #expect(totals == [whole], "round \(round): the same time, whatever the zone")
            // Two sessions at once (two locations) still give no day more than its length.
            let doubled = WorkHours.days(
                from: ActivityDate.day(of: anchor, in: Self.berlin),
                to: ActivityDate.day(of: cursor, in: Self.berlin), sessions: sessions + sessions, in: Self.berlin)
            for day in doubled { #expect(day.grossSeconds <= day.lengthSeconds) }
        }
    }
}
