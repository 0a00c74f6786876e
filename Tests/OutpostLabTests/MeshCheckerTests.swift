import OutpostLab
import Testing

/// The mesh soak's checker on histories written by hand: it must find a violation where there is
/// one (a checker that cannot fail proves nothing), and excuse only races and partitions.
@Suite("Mesh checker")
struct MeshCheckerTests {
    let checker = MeshChecker(bound: 1, settle: 5)

    func admission(_ ticket: String, door: Int, started: Double, committed: Double? = nil) -> MeshChecker.Admission {
        .init(ticket: ticket, door: door, started: started, committed: committed ?? started + 0.05)
    }

    func classes(_ admissions: [MeshChecker.Admission], _ history: [MeshChecker.Topology]) -> [MeshChecker.Class] {
        checker.classify(admissions, history: history).map(\.1)
    }

    @Test(
        "mesh-checker-classes: on a connected LAN a second admission within the bound is a race and after it a violation; across a cut, an isolated or killed door, or a path healed under the settling time it is the partition's; a path through a third door counts as connected; one door admitting twice is always a violation"
    )
    func classesOfAdmissions() {
        let all = MeshChecker.Topology(at: 0, up: [0, 1, 2], cuts: [])
        // Connected throughout.
        #expect(
            classes(
                [admission("t", door: 0, started: 10), admission("t", door: 1, started: 10.5)], [all])
                == [.first, .race])
        #expect(
            classes(
                [admission("t", door: 0, started: 10), admission("t", door: 1, started: 11.5)], [all])
                == [.first, .violation])
        // Cut apart directly but joined through door 2: still connected.
        let throughTwo = MeshChecker.Topology(at: 0, up: [0, 1, 2], cuts: [[0, 1]])
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 1, started: 12)], [throughTwo])
                == [.first, .violation])
        // Door 2 down as well: apart.
        let apart = MeshChecker.Topology(at: 0, up: [0, 1], cuts: [[1, 0]])
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 1, started: 12)], [apart])
                == [.first, .partitioned])
        // Healed at 20: inside the settling time it is the partition's, after it a violation.
        let healed = MeshChecker.Topology(at: 20, up: [0, 1], cuts: [])
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 1, started: 24)], [apart, healed])
                == [.first, .partitioned])
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 1, started: 26.5)], [apart, healed])
                == [.first, .violation])
        // A door killed at 11 and back at 13 (its path new again at 13).
        let killed = MeshChecker.Topology(at: 11, up: [1, 2], cuts: [])
        let back = MeshChecker.Topology(at: 13, up: [0, 1, 2], cuts: [])
        #expect(
            classes(
                [admission("t", door: 0, started: 10), admission("t", door: 1, started: 15)], [all, killed, back])
                == [.first, .partitioned])
        #expect(
            classes(
                [admission("t", door: 0, started: 10), admission("t", door: 1, started: 19.5)], [all, killed, back])
                == [.first, .violation])
        // The same door twice, even apart from everyone.
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 0, started: 12)], [apart])
                == [.first, .violation])
        // Other tickets do not interfere; three admissions take the worst class.
        #expect(
            classes(
                [
                    admission("t", door: 0, started: 10), admission("u", door: 1, started: 10.2),
                    admission("t", door: 2, started: 10.4), admission("t", door: 1, started: 13),
                ], [all]) == [.first, .first, .race, .violation])
    }

    @Test(
        "mesh-checker-relay: in a relay mesh (doors joined only to some others, entries passed on) doors are connected through the joined pairs only: a cut of the one link between two halves parts them, a cut of a pair that never joined changes nothing"
    )
    func relay() {
        // 0 - 1 - 2 - 3, a line of joins.
        let links: Set<[Int]> = [[0, 1], [1, 2], [2, 3]]
        let line = MeshChecker.Topology(at: 0, up: [0, 1, 2, 3], cuts: [], links: links)
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 3, started: 12)], [line])
                == [.first, .violation])
        let unjoinedCut = MeshChecker.Topology(at: 0, up: [0, 1, 2, 3], cuts: [[0, 3]], links: links)
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 3, started: 12)], [unjoinedCut])
                == [.first, .violation])
        let halved = MeshChecker.Topology(at: 0, up: [0, 1, 2, 3], cuts: [[1, 2]], links: links)
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 3, started: 12)], [halved])
                == [.first, .partitioned])
        // Door 1 down: 0 is alone, though 0 and 2 never had a cut.
        let middleDown = MeshChecker.Topology(at: 0, up: [0, 2, 3], cuts: [], links: links)
        #expect(
            classes([admission("t", door: 0, started: 10), admission("t", door: 2, started: 12)], [middleDown])
                == [.first, .partitioned])
    }

    @Test(
        "mesh-checker-needed-bound: beside its violations a run reports the bound under which there would have been none: how long after the first admission could reach its door the latest second scan started"
    )
    func neededBound() {
        let all = MeshChecker.Topology(at: 0, up: [0, 1, 2], cuts: [])
        #expect(
            checker.neededBound(
                [admission("t", door: 0, started: 10), admission("t", door: 1, started: 10.5)], history: [all]) == 0)
        let late = [
            admission("t", door: 0, started: 10, committed: 10), admission("t", door: 1, started: 12.5),
            admission("u", door: 2, started: 20, committed: 20), admission("u", door: 0, started: 21.75),
        ]
        #expect(checker.neededBound(late, history: [all]) == 2.5)
        // A path healed at 30: the second door could know from 35 (the settling time) on.
        let apart = MeshChecker.Topology(at: 0, up: [0, 1], cuts: [[0, 1]])
        let healed = MeshChecker.Topology(at: 30, up: [0, 1], cuts: [])
        let afterHeal = [admission("t", door: 0, started: 10, committed: 10), admission("t", door: 1, started: 37)]
        #expect(checker.neededBound(afterHeal, history: [apart, healed]) == 2)
    }
}
