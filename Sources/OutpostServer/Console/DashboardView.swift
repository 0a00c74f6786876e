import Foundation
import OutpostProtocol

/// The door dashboard as the console draws it, computed once from the API's ``DoorDashboard``:
/// the page's first render (Mustache) and every live update (the stream sends this as JSON and
/// `dashboard.js` only copies text and SVG attributes). Pure; times on the event's clock.
struct DashboardView: Encodable, Sendable, Equatable {
    struct Bar: Encodable, Sendable, Equatable {
        var name: String
        var label: String
        /// The filled part, out of ``DashboardView/barWidth``.
        var width: Int
        /// The row's bar and text baseline in the bars' SVG.
        var rectY: Int
        var textY: Int
    }

    struct Column: Encodable, Sendable, Equatable {
        var x: Int
        var y: Int
        var height: Int
        var title: String
    }

    /// A time label under the chart, at a column's middle.
    struct Tick: Encodable, Sendable, Equatable {
        var x: Int
        var label: String
    }

    /// A count on the chart's scale, at its height, with its grid line.
    struct ScaleMark: Encodable, Sendable, Equatable {
        var y: Int
        var label: String
    }

    struct Recent: Encodable, Sendable, Equatable {
        var time: String
        var guest: String
        var accessType: String
        var by: String
        var device: String
        var method: String
    }

    struct Device: Encodable, Sendable, Equatable {
        var device: String
        var user: String
        var lastContact: String
        var pending: Int
        /// Holds check-ins and has not been heard from for 5 minutes: someone should look.
        var attention: Bool
    }

    struct ZoneRow: Encodable, Sendable, Equatable {
        var name: String
        /// "12 of 40" (or "12" without a capacity).
        var inside: String
        var entries: Int
        var exits: Int
        var violations: Int
        /// Full, or an entry the server marked: someone should look.
        var attention: Bool
    }

    /// A door meshed while the server was out of reach.
    struct MeshRow: Encodable, Sendable, Equatable {
        var device: String
        var user: String
        /// "Door 2, d-91bc…" or "none" (it never reported: its admissions came through others).
        var met: String
        /// "12 (5 through other doors)".
        var admitted: String
        /// "14:02, holding 40 entries", or "never: its admissions came through other doors".
        var lastReport: String
        /// It never reported itself and others handed its admissions in: the door went dark
        /// offline (flat battery, broken, taken); someone should look for it.
        var attention: Bool
    }

    static let barWidth = 300
    static let barHeight = 28
    static let chartWidth = 600
    static let chartHeight = 120
    /// Room left of the columns for the scale, and under them for the times.
    static let plotLeft = 36
    static let chartOuterWidth = plotLeft + chartWidth + 12
    static let chartOuterHeight = chartHeight + 20

    var total: String
    var bars: [Bar]
    var barsHeight: Int
    var columns: [Column]
    var ticks: [Tick]
    var scale: [ScaleMark]
    var chartCaption: String
    var recent: [Recent]
    var devices: [Device]
    var zones: [ZoneRow]
    var mesh: [MeshRow]
    var updated: String

    init(_ dashboard: DoorDashboard, timeZone: String) {
        let minutes = WallClockFormat("HH:mm", zone: timeZone)
        let seconds = WallClockFormat("HH:mm:ss", zone: timeZone)
        func clock(_ date: Date, seconds withSeconds: Bool) -> String {
            (withSeconds ? seconds : minutes).string(date)
        }
        let stats = dashboard.stats
        total = "\(stats.checkedIn) of \(stats.guests) checked in"
        bars = stats.byAccessType.enumerated().map { index, type in
            let share = type.guests == 0 ? 0 : min(1, Double(type.checkedIn) / Double(type.guests))
            return Bar(
                name: type.name, label: "\(type.checkedIn) / \(type.guests)",
                width: Int((share * Double(Self.barWidth)).rounded()), rectY: index * Self.barHeight + 6,
                textY: index * Self.barHeight + 19)
        }
        barsHeight = max(Self.barHeight, bars.count * Self.barHeight)
        let peak = dashboard.perMinute.map(\.count).max() ?? 0
        let scale = max(peak, 1)
        let step = Self.chartWidth / max(dashboard.perMinute.count, 1)
        columns = dashboard.perMinute.enumerated().map { index, minute in
            let height = minute.count == 0 ? 0 : max(2, minute.count * (Self.chartHeight - 10) / scale)
            return Column(
                x: index * step, y: Self.chartHeight - height, height: height,
                title: "\(clock(minute.at, seconds: false)): \(minute.count)")
        }
        // Times every quarter of an hour and at the current minute; counts at 0, the top and
        // halfway (the columns' heights are out of `scale`, which is the top's).
        let last = dashboard.perMinute.count - 1
        var marked = Array(stride(from: 0, through: max(last, 0), by: 15))
        if last > 0, let previous = marked.last, last - previous >= 5 { marked.append(last) }
        ticks =
            dashboard.perMinute.isEmpty
            ? []
            : marked.map { index in
                Tick(
                    x: Self.plotLeft + index * step + 4, label: clock(dashboard.perMinute[index].at, seconds: false))
            }
        let plot = Self.chartHeight - 10
        var marks = [
            ScaleMark(y: Self.chartHeight, label: "0"), ScaleMark(y: Self.chartHeight - plot, label: "\(scale)"),
        ]
        if scale >= 2 {
            marks.insert(ScaleMark(y: Self.chartHeight - (scale / 2) * plot / scale, label: "\(scale / 2)"), at: 1)
        }
        self.scale = marks
        let inHour = dashboard.perMinute.reduce(0) { $0 + $1.count }
        chartCaption = "\(inHour) in the last hour, at most \(peak) a minute"
        recent = dashboard.recent.map {
            Recent(
                time: clock($0.at, seconds: true), guest: $0.guestName, accessType: $0.accessType, by: $0.byName,
                device: Self.deviceLabel($0.deviceId, name: $0.deviceName), method: $0.method)
        }
        devices = dashboard.devices.map {
            let minutes = Int(dashboard.serverTime.timeIntervalSince($0.lastContactAt) / 60)
            let ago = minutes < 1 ? "just now" : "\(minutes) min ago"
            return Device(
                device: Self.deviceLabel($0.deviceId, name: $0.name), user: $0.userName,
                lastContact: "\(clock($0.lastContactAt, seconds: false)) (\(ago))",
                pending: $0.pending, attention: $0.pending > 0 && minutes >= 5)
        }
        zones = dashboard.zones.map { zone in
            ZoneRow(
                name: zone.name, inside: "\(zone.inside)" + (zone.capacity.map { " of \($0)" } ?? ""),
                entries: zone.entries, exits: zone.exits, violations: zone.violations,
                attention: zone.violations > 0 || zone.capacity.map { zone.inside >= $0 } == true)
        }
        let labels = Dictionary(dashboard.mesh.map { ($0.deviceId, Self.deviceLabel($0.deviceId, name: $0.name)) }) {
            first, _ in first
        }
        mesh = dashboard.mesh.map { door in
            MeshRow(
                device: Self.deviceLabel(door.deviceId, name: door.name), user: door.userName,
                met: door.peers.isEmpty
                    ? "none reported"
                    : door.peers.map { labels[$0] ?? Self.deviceLabel($0, name: nil) }.joined(separator: ", "),
                admitted: "\(door.admitted)"
                    + (door.throughOthers > 0 ? " (\(door.throughOthers) through other doors)" : ""),
                lastReport: door.reportedAt.map {
                    "\(clock($0, seconds: false)), holding \(door.held ?? 0) entr\(door.held == 1 ? "y" : "ies")"
                } ?? "never: its admissions came through other doors",
                attention: door.reportedAt == nil && door.throughOthers > 0)
        }
        updated = clock(dashboard.serverTime, seconds: true)
    }

    /// The page's values (Mustache reads dictionaries).
    var values: [String: Any] {
        [
            "total": total, "barsHeight": barsHeight, "chartCaption": chartCaption, "updated": updated,
            "barWidth": Self.barWidth, "chartWidth": Self.chartWidth, "chartHeight": Self.chartHeight,
            "plotLeft": Self.plotLeft, "chartOuterWidth": Self.chartOuterWidth,
            "chartOuterHeight": Self.chartOuterHeight, "tickY": Self.chartOuterHeight - 4,
            "gridEnd": Self.plotLeft + Self.chartWidth,
            "ticks": ticks.map { ["x": $0.x, "label": $0.label] },
            "scale": scale.map { ["y": $0.y, "textY": $0.y + 4, "label": $0.label] },
            "bars": bars.map {
                ["name": $0.name, "label": $0.label, "width": $0.width, "rectY": $0.rectY, "textY": $0.textY]
            },
            "columns": columns.map { ["x": $0.x, "y": $0.y, "height": $0.height, "title": $0.title] },
            "recent": recent.map {
                [
                    "time": $0.time, "guest": $0.guest, "accessType": $0.accessType, "by": $0.by, "device": $0.device,
                    "method": $0.method,
                ]
            },
            "hasZones": !zones.isEmpty, "hasRecent": !recent.isEmpty, "hasDevices": !devices.isEmpty,
            "hasMesh": !mesh.isEmpty,
            "mesh": mesh.map {
                [
                    "device": $0.device, "user": $0.user, "met": $0.met, "admitted": $0.admitted,
                    "lastReport": $0.lastReport, "attention": $0.attention,
                ]
            },
            "zones": zones.map {
                [
                    "name": $0.name, "inside": $0.inside, "entries": $0.entries, "exits": $0.exits,
                    "violations": $0.violations, "attention": $0.attention,
                ]
            },
            "devices": devices.map {
                [
                    "device": $0.device, "user": $0.user, "lastContact": $0.lastContact, "pending": $0.pending,
                    "attention": $0.attention,
                ]
            },
        ]
    }

    /// How a device is shown: the name an organizer gave it, else its id (a long one cut to its
    /// first eight characters, enough to tell devices apart on one event's page).
    static func deviceLabel(_ id: String, name: String?) -> String {
        if let name, !name.isEmpty { return name }
        return id.count > 12 ? String(id.prefix(8)) + "…" : id
    }
}
