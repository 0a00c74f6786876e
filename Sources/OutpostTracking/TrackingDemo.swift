import Foundation
import GRDB
import OutpostCore
import OutpostShell

/// `outpost device track seed-demo`: a month of realistic work so a new user
/// sees the views full. Three shift templates (Early, Late, Night) placed on weekdays in a
/// rotation, a vacation stretch and a sick day, sessions around the shifts that have passed
/// (arriving a few minutes early or late, leaving late, one forgotten clock-out fixed by hand,
/// one short stop), and every past day confirmed but the last three with work. Seeded: the same
/// seed makes the same month.
package enum TrackingDemo {
    package static func seed(
        store: ModuleStore<TrackingModule>, owner: UserID, month: String, seed: UInt64, now: Date, zone: TimeZone
    ) throws -> (sessions: Int, shifts: Int, confirmed: [String]) {
        var random = SeededRandom(seed: seed)
        let location: WorkLocation
        if let existing = try store.locations(owner: owner).first {
            location = existing
        } else {
            location = WorkLocation(
                id: .random(), name: "Care home Nord",
                fence: Fence(center: GeoPoint(latitude: 52.52, longitude: 13.405), radius: 100))
            try store.saveLocation(location, owner: owner)
        }
        let early = ShiftTemplate(name: "Early", color: .teal, startMinute: 360, durationMinutes: 480, breakMinutes: 30)
        let late = ShiftTemplate(name: "Late", color: .amber, startMinute: 840, durationMinutes: 480, breakMinutes: 30)
        let night = ShiftTemplate(
            name: "Night", color: .purple, startMinute: 1_320, durationMinutes: 480, breakMinutes: 45)
        let today = ActivityDate.day(of: now, in: zone)
        var days: [String] = []
        var day = month + "-01"
        while day.hasPrefix(month) {
            days.append(day)
            guard let next = WorkHours.next(day, in: zone) else { break }
            day = next
        }
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = zone
        let vacation = Set(days.dropFirst(19).prefix(3))
        let sick = days.count > 8 ? days[8] : nil
        var placed: [ShiftInstance] = []
        try store.changePlan(owner: owner) { plan, locked in
            for template in [early, late, night] { try plan.addTemplate(template) }
            for day in days where !locked.contains(day) {
                guard let start = WorkDay.start(of: day, in: zone) else { continue }
                let weekday = calendar.component(.weekday, from: start)  // 1 Sunday … 7 Saturday
                guard (2...6).contains(weekday) else { continue }
                let week = calendar.component(.weekOfYear, from: start)
                let template = [early, late, early, night][week % 4]
                if template.id == night.id && weekday > 4 { continue }  // nights Monday to Wednesday only
                placed.append(try plan.place(template.id, on: day, locked: locked))
            }
            for day in vacation.sorted() where !locked.contains(day) {
                try plan.addAbsence(on: day, kind: .vacation, locked: locked)
            }
            if let sick, !locked.contains(sick) { try plan.addAbsence(on: sick, kind: .sick, locked: locked) }
        }
        var sessions = 0
        var worked: [String] = []
        for (index, shift) in placed.enumerated() where !vacation.contains(shift.day) && shift.day != sick {
            guard let dayStart = WorkDay.start(of: shift.day, in: zone) else { continue }
            let start = dayStart.addingTimeInterval(
                Double(shift.startMinute + Int.random(in: -12...6, using: &random)) * 60)
            let end = dayStart.addingTimeInterval(
                Double(shift.endMinute + Int.random(in: -4...28, using: &random)) * 60)
            guard end <= now else { continue }
            // One clock-out forgotten and entered by hand; one stop too short to count much.
            let method: TrackingMethod = index == 5 ? .manual : .geofence
            try store.insertCompletedSession(location: location.id, from: start, to: end, method: method, owner: owner)
            sessions += 1
            if index == 9 {
                let stop = end.addingTimeInterval(40 * 60)
                try store.insertCompletedSession(
                    location: location.id, from: stop, to: stop.addingTimeInterval(180), method: .geofence,
                    owner: owner)
                sessions += 1
            }
            worked.append(shift.day)
        }
        // Every past day with work confirmed but the last three (they show "?").
        let past = worked.filter { $0 < today }
        let toConfirm = past.dropLast(3)
        let names = [location.id: location.name]
        for day in toConfirm {
            try store.confirmDay(day, timeZone: zone, names: names, owner: owner, now: now)
        }
        return (sessions, placed.count, Array(toConfirm))
    }
}

extension ModuleStore where Owner == TrackingModule {
    /// A finished session as the demo writes it (automatic or by hand), flagged short under
    /// five minutes.
    package func insertCompletedSession(
        location: LocationID, from start: Date, to end: Date, method: TrackingMethod, owner: UserID
    ) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO track_sessions (id, owner, location_id, clock_in, clock_out, state, method, short)
                    VALUES (?, ?, ?, ?, ?, 'completed', ?, ?)
                    """,
                arguments: [
                    UUID().uuidString, owner.wire, location.wire, start.millisecondsSince1970,
                    end.millisecondsSince1970, method.rawValue, end.timeIntervalSince(start) < 300,
                ])
        }
    }
}
