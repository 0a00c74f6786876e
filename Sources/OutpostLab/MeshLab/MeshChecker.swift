import Foundation

/// The mesh soak's checker, in the manner of Jepsen's: given what happened (every admission
/// with its door, when its scan started and when it committed; when each door was up and which
/// pairs were cut), it classes each admission of a ticket already admitted elsewhere, and the
/// guarantee holds when no class is a violation. Pure: times are seconds on the lab's one kernel
/// clock (all namespaces share it), so times at different doors compare directly.
///
/// The guarantee: among doors connected (directly or through others) when a scan starts, a
/// ticket admitted at one is not admitted at another whose scan started more than `bound` after
/// that admission committed, once their path has been up for `settle` (a session to set up after
/// a heal or a restart). Inside the bound both admissions are a race, kept and flagged; across a
/// partition, a duplicate is the partition's, found when it heals.
package struct MeshChecker: Sendable {
    /// The propagation bound Δ.
    package var bound: Double
    /// How long a path must have been up before the guarantee covers it (a dead session noticed,
    /// a join again, the hello's exchange).
    package var settle: Double

    package init(bound: Double, settle: Double) {
        self.bound = bound
        self.settle = settle
    }

    package struct Admission: Sendable, Hashable, Codable {
        package var ticket: String
        package var door: Int
        package var started: Double
        package var committed: Double

        package init(ticket: String, door: Int, started: Double, committed: Double) {
            self.ticket = ticket
            self.door = door
            self.started = started
            self.committed = committed
        }
    }

    /// The LAN at one moment, from then until the next change: which doors run with their link
    /// up, which pairs are cut apart, and which pairs keep sessions at all (nil: every pair, a
    /// full mesh; else the pairs that join each other, entries relaying through the rest).
    package struct Topology: Sendable, Hashable, Codable {
        package var at: Double
        package var up: Set<Int>
        package var cuts: Set<[Int]>
        package var links: Set<[Int]>?

        package init(at: Double, up: Set<Int>, cuts: Set<[Int]>, links: Set<[Int]>? = nil) {
            self.at = at
            self.up = up
            self.cuts = cuts.map { $0.sorted() }.reduce(into: []) { $0.insert($1) }
            self.links = links.map { $0.map { $0.sorted() }.reduce(into: []) { $0.insert($1) } }
        }

        /// Whether `a` and `b` are connected, directly or through other doors that are up.
        package func connects(_ a: Int, _ b: Int) -> Bool {
            guard up.contains(a), up.contains(b) else { return false }
            var reached: Set<Int> = [a]
            var frontier = [a]
            while let door = frontier.popLast() {
                if door == b { return true }
                for next in up
                where !reached.contains(next) && !cuts.contains([door, next].sorted())
                    && links?.contains([door, next].sorted()) ?? true
                {
                    reached.insert(next)
                    frontier.append(next)
                }
            }
            return false
        }
    }

    package enum Class: String, Sendable, CaseIterable, Codable {
        /// The ticket's first admission.
        case first
        /// A second admission whose scan started within the bound of the first's commit.
        case race
        /// A second admission while the doors were apart (or their path too fresh to count).
        case partitioned
        /// A second admission the guarantee forbids.
        case violation
    }

    /// Each admission with its class, in the order given.
    package func classify(_ admissions: [Admission], history: [Topology]) -> [(Admission, Class)] {
        let ordered = history.sorted { $0.at < $1.at }
        var earlier: [String: [Admission]] = [:]
        var classes: [(Admission, Class)] = []
        for admission in admissions.sorted(by: { $0.started < $1.started }) {
            let before = earlier[admission.ticket, default: []]
            if before.isEmpty {
                classes.append((admission, .first))
            } else {
                // The worst class over the earlier admissions it could have known of.
                var worst = Class.race
                for first in before {
                    let kind = classOf(admission, after: first, history: ordered)
                    if kind == .violation {
                        worst = .violation
                    } else if kind == .partitioned, worst == .race {
                        worst = .partitioned
                    }
                }
                classes.append((admission, worst))
            }
            earlier[admission.ticket, default: []].append(admission)
        }
        return classes
    }

    /// The class of `second` given an earlier admission `first` of the same ticket.
    func classOf(_ second: Admission, after first: Admission, history: [Topology]) -> Class {
        let start = second.started
        if start <= first.committed + bound { return .race }
        // A door that admits twice knows its own admission: always a violation.
        if second.door == first.door { return .violation }
        guard let since = connectedSince(first.door, second.door, at: start, history: history) else {
            return .partitioned
        }
        return start > max(first.committed, since + settle) + bound ? .violation : .partitioned
    }

    /// The smallest bound under which none of `admissions` would be a violation: for each
    /// violation, how long after the earlier admission could first have reached its door (its
    /// commit, or its path's settling, whichever was later) its scan started. 0 when there is
    /// none; what a run reports beside its violations (Δ is measured, not assumed).
    package func neededBound(_ admissions: [Admission], history: [Topology]) -> Double {
        let ordered = history.sorted { $0.at < $1.at }
        var needed = 0.0
        for (second, kind) in classify(admissions, history: history) where kind == .violation {
            let late = admissions.filter {
                $0.ticket == second.ticket && $0.started < second.started
                    && classOf(second, after: $0, history: ordered) == .violation
            }.map { first -> Double in
                let since =
                    second.door == first.door
                    ? first.committed
                    : connectedSince(
                        first.door, second.door, at: second.started, history: ordered
                    ).map { $0 + settle } ?? first.committed
                return second.started - max(first.committed, since)
            }.min()
            needed = max(needed, late ?? 0)
        }
        return needed
    }

    /// When the current stretch of `a` and `b` being connected began (nil when they are not at `time`).
    func connectedSince(_ a: Int, _ b: Int, at time: Double, history: [Topology]) -> Double? {
        guard let index = history.lastIndex(where: { $0.at <= time }), history[index].connects(a, b) else {
            return nil
        }
        var since = history[index].at
        var cursor = index - 1
        while cursor >= 0, history[cursor].connects(a, b) {
            since = history[cursor].at
            cursor -= 1
        }
        return since
    }
}
