import Foundation
import OutpostCore
import OutpostDevice
import OutpostDrawing

/// A worker's month on one A4 landscape page, from the month screen's typed model alone (its
/// minutes and marks, never its words parsed back), so the page says what the screen says: the 42-cell grid (shift dots in their colours,
/// a rose dot for tracked time, vacation and sick days, ✓ with the overtime on confirmed days,
/// ? on days still to confirm), the month's days as side-by-side bars (planned green, tracked
/// rose) on an axis of 12, 16 or 24 hours, and the totals of the footer. Pure.
public enum MonthReport {
    public static let width = 842.0
    public static let height = 595.0
    static let margin = 36.0

    public static let white = ReportColor(0xFFFFFF)
    public static let ink = ReportColor(0x1F2933)
    public static let muted = ReportColor(0x7B8794)
    public static let rule = ReportColor(0xD9DEE3)
    public static let outside = ReportColor(0xF1F3F5)
    public static let confirmedTint = ReportColor(0xE3F4F1)
    public static let teal = ReportColor(0x0F9488)
    public static let plannedColour = ReportColor(0x22A559)
    public static let trackedColour = ReportColor(0xE11D63)
    public static let vacation = ReportColor(0x0EA5E9)
    public static let sick = ReportColor(0xF59E0B)
    public static let overtimePlus = ReportColor(0x15803D)
    public static let overtimeMinus = ReportColor(0xB91C1C)

    /// The seed's shift palette.
    public static func colour(_ color: ShiftColor) -> ReportColor {
        switch color {
        case .teal: ReportColor(0x14B8A6)
        case .blue: ReportColor(0x3B82F6)
        case .green: ReportColor(0x22C55E)
        case .amber: ReportColor(0xF59E0B)
        case .rose: ReportColor(0xF43F5E)
        case .purple: ReportColor(0xA855F7)
        case .cyan: ReportColor(0x06B6D4)
        }
    }

    public enum ReportError: Error, CustomStringConvertible {
        case notAMonth

        public var description: String { "The month screen is not shown; nothing to draw." }
    }

    /// The page for what is `shown` (the month screen, with the demo's banner when it is the
    /// demo month), with `worker` under the title.
    public static func page(_ shown: ShownScreen, worker: String?) throws -> ReportPage {
        guard let month = shown.part(MonthScreen.self) else { throw ReportError.notAMonth }
        return page(month, demo: shown.tree.contains(UIIdentifier.trackDemoBanner), worker: worker)
    }

    static func page(_ month: MonthScreen, demo: Bool, worker: String?) -> ReportPage {
        var shapes: [ReportShape] = [
            .rect(ReportRect(x: 0, y: 0, width: width, height: height), fill: white, stroke: nil, name: "page"),
            .text(month.title, x: margin, y: 52, size: 20, colour: ink, bold: true, align: .left),
        ]
        if let worker {
            shapes.append(.text(worker, x: width - margin, y: 52, size: 11, colour: muted, bold: false, align: .right))
        }
        // The demo month says so on the page: it is never a record of anyone's work.
        if demo {
            shapes.append(
                .text(
                    "Demo month: invented hours, not a record of work", x: width - margin, y: 68, size: 11,
                    colour: trackedColour, bold: true, align: .right))
        }
        shapes += grid(month.cells, weekdays: month.weekdays)
        shapes += bars(month.days.map(\.hours), tracked: month.copy.trackedLabel, planned: month.copy.plannedLabel)
        shapes += totals(month.footer)
        return ReportPage(width: width, height: height, shapes: shapes)
    }

    static let gridRect = ReportRect(x: margin, y: 96, width: 448, height: 444)

    static func grid(_ cells: [MonthScreen.Cell], weekdays: [String]) -> [ReportShape] {
        var shapes: [ReportShape] = []
        let cellWidth = gridRect.width / 7
        let cellHeight = gridRect.height / 6
        for (index, name) in weekdays.prefix(7).enumerated() {
            shapes.append(
                .text(
                    name, x: gridRect.x + (Double(index) + 0.5) * cellWidth, y: gridRect.y - 8, size: 10,
                    colour: muted, bold: true, align: .center))
        }
        for (index, cell) in cells.enumerated() {
            let date = cell.hours.day
            let inMonth = cell.inMonth
            let status = cell.mark
            let box = ReportRect(
                x: gridRect.x + Double(index % 7) * cellWidth, y: gridRect.y + Double(index / 7) * cellHeight,
                width: cellWidth, height: cellHeight)
            let fill = !inMonth ? outside : status == .confirmed ? confirmedTint : white
            shapes.append(.rect(box, fill: fill, stroke: rule, name: "cell-\(date)"))
            if cell.isToday {
                shapes.append(
                    .rect(
                        ReportRect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2), fill: nil,
                        stroke: ink, name: "today"))
            }
            let textColour = inMonth ? ink : muted
            shapes.append(
                .text(
                    String(Int(date.suffix(2)) ?? 0), x: box.x + 6, y: box.y + 15, size: 11, colour: textColour,
                    bold: inMonth, align: .left))
            switch status {
            case .confirmed:
                shapes.append(
                    .text(
                        "✓", x: box.x + box.width - 6, y: box.y + 15, size: 11, colour: teal, bold: true, align: .right)
                )
            case .unconfirmed:
                shapes.append(
                    .text(
                        "?", x: box.x + box.width - 6, y: box.y + 15, size: 11, colour: muted, bold: true, align: .right
                    ))
            case .planned, .empty: break
            }
            var dotX = box.x + 9
            for shift in cell.shiftColors {
                shapes.append(.circle(x: dotX, y: box.y + 30, radius: 3.5, fill: inMonth ? colour(shift) : rule))
                dotX += 10
            }
            if cell.hours.grossSeconds > 0 {
                shapes.append(
                    .circle(x: dotX + (dotX > box.x + 9 ? 4 : 0), y: box.y + 30, radius: 3.5, fill: trackedColour))
            }
            var absenceY = box.y + 48
            for absence in cell.absences {
                let isSick = absence == .sick
                shapes.append(
                    .rect(
                        ReportRect(x: box.x + 5, y: absenceY - 9, width: box.width - 10, height: 12),
                        fill: isSick ? sick : vacation, stroke: nil, name: "absence-\(date)"))
                shapes.append(
                    .text(
                        isSick ? "✚" : "☀", x: box.x + 9, y: absenceY, size: 9, colour: white, bold: true, align: .left)
                )
                absenceY += 14
            }
            if let minutes = cell.hours.overtimeMinutes {
                shapes.append(
                    .text(
                        overtime(minutes), x: box.x + box.width - 6, y: box.y + box.height - 7, size: 9,
                        colour: minutes > 0 ? overtimePlus : minutes < 0 ? overtimeMinus : muted, bold: false,
                        align: .right))
            }
        }
        return shapes
    }

    static func overtime(_ minutes: Int) -> String {
        let value = abs(minutes)
        return (minutes > 0 ? "+" : minutes < 0 ? "−" : "±") + "\(value / 60):" + String(format: "%02d", value % 60)
    }

    static let chartRect = ReportRect(x: 520, y: 96, width: 286, height: 220)

    /// The month's days as pairs of bars, planned then tracked, on 12, 16 or 24 hours.
    static func bars(_ days: [DayHours], tracked: String, planned: String) -> [ReportShape] {
        var shapes: [ReportShape] = []
        let most = days.map { max($0.plannedMinutes, $0.trackedMinutes) }.max() ?? 0
        let axis = most <= 12 * 60 ? 12 : most <= 16 * 60 ? 16 : 24
        let chart = chartRect
        for hour in stride(from: 0, through: axis, by: 4) {
            let y = chart.y + chart.height - chart.height * Double(hour) / Double(axis)
            shapes.append(.line(x1: chart.x, y1: y, x2: chart.x + chart.width, y2: y, colour: rule, width: 0.5))
            shapes.append(
                .text("\(hour) h", x: chart.x - 4, y: y + 3, size: 8, colour: muted, bold: false, align: .right))
        }
        let slot = chart.width / Double(max(1, days.count))
        let barWidth = max(1, (slot - 2) / 2)
        for (index, day) in days.enumerated() {
            let date = day.day
            let x = chart.x + Double(index) * slot + 1
            for (offset, minutes, fill, name) in [
                (0.0, Double(day.plannedMinutes), plannedColour, "planned"),
                (barWidth, Double(day.trackedMinutes), trackedColour, "tracked"),
            ] {
                guard minutes > 0 else { continue }
                let barHeight = chart.height * min(1, minutes / 60 / Double(axis))
                shapes.append(
                    .rect(
                        ReportRect(
                            x: x + offset, y: chart.y + chart.height - barHeight, width: barWidth, height: barHeight),
                        fill: fill, stroke: nil, name: "bar-\(name)-\(date)"))
            }
            let number = Int(date.suffix(2)) ?? 0
            if number == 1 || number % 5 == 0 {
                shapes.append(
                    .text(
                        String(number), x: x + barWidth, y: chart.y + chart.height + 11, size: 8, colour: muted,
                        bold: false, align: .center))
            }
        }
        let legendY = chart.y + chart.height + 28
        shapes.append(
            .rect(
                ReportRect(x: chart.x, y: legendY - 8, width: 9, height: 9), fill: plannedColour, stroke: nil, name: nil
            ))
        shapes.append(.text(planned, x: chart.x + 13, y: legendY, size: 9, colour: ink, bold: false, align: .left))
        shapes.append(
            .rect(
                ReportRect(x: chart.x + 90, y: legendY - 8, width: 9, height: 9), fill: trackedColour, stroke: nil,
                name: nil
            ))
        shapes.append(.text(tracked, x: chart.x + 103, y: legendY, size: 9, colour: ink, bold: false, align: .left))
        return shapes
    }

    /// The footer's parts, a line each; "(X confirmed)" stays with the last.
    static func totals(_ parts: [String]) -> [ReportShape] {
        var shapes: [ReportShape] = []
        var y = chartRect.y + chartRect.height + 62
        for (index, part) in parts.enumerated() where !part.isEmpty {
            shapes.append(
                .text(part, x: chartRect.x, y: y, size: index < 3 ? 13 : 11, colour: ink, bold: index < 3, align: .left)
            )
            y += index < 3 ? 20 : 17
        }
        return shapes
    }
}
