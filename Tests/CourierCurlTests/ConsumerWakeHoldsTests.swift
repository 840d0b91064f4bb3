import Testing

@testable import CourierCurl

/// When the loop holds a consumer's wake-up, what it keeps, and when it lets go.
@Suite struct ConsumerWakeHoldsTests {
    private typealias Holds = ConsumerWakeHolds<String, String>

    private let start = ContinuousClock.now

    @Test func aPassStartsAHoldOnlyWithEnoughBodyForAParkedConsumer() {
        let enough = Holds.minimumPassBytes
        #expect(Holds.startsHold(gatheredBytes: enough, consumerParked: true))
        #expect(!Holds.startsHold(gatheredBytes: enough - 1, consumerParked: true))
        #expect(!Holds.startsHold(gatheredBytes: enough * 4, consumerParked: false))
    }

    @Test func aSmallPassDoesNotAskWhetherTheConsumerIsParked() {
        var asked = false
        let starts = Holds.startsHold(
            gatheredBytes: 100,
            consumerParked: {
                asked = true
                return true
            }()
        )
        #expect(!starts)
        #expect(!asked)
    }

    @Test func aHoldIsDueAtHalfTheHighWaterMarkOrItsDeadline() {
        let deadline = start + Holds.maximumHold
        #expect(!Holds.isDue(heldBytes: 511 << 10, highWaterMark: 1 << 20, deadline: deadline, now: start))
        #expect(Holds.isDue(heldBytes: 512 << 10, highWaterMark: 1 << 20, deadline: deadline, now: start))
        #expect(Holds.isDue(heldBytes: 0, highWaterMark: 1 << 20, deadline: deadline, now: deadline))
        #expect(!Holds.isDue(heldBytes: 0, highWaterMark: 1 << 20, deadline: deadline, now: start + .microseconds(999)))
    }

    @Test func aHoldKeepsTheWakeUpOfItsTransferOnly() {
        var holds = Holds()
        holds.start(1, subject: "one", now: start)
        let keptForItsTransfer = holds.keep("wake one", for: 1)
        let keptForAnother = holds.keep("wake two", for: 2)
        #expect(keptForItsTransfer)
        #expect(!keptForAnother)
        #expect(holds.isHolding(1))
        #expect(!holds.isHolding(2))
        let ended = holds.end(1)
        #expect(ended?.wakeUp == "wake one")
        #expect(ended?.subject == "one")
        #expect(holds.isEmpty)
        let endedAgain = holds.end(1)
        #expect(endedAgain == nil)
    }

    @Test func startingTwiceKeepsTheFirstDeadline() {
        var holds = Holds()
        holds.start(1, subject: "one", now: start)
        holds.start(1, subject: "one again", now: start + .seconds(5))
        #expect(holds.count == 1)
        #expect(holds.earliestDeadline == start + Holds.maximumHold)
    }

    @Test func theEarliestDeadlineBoundsThePoll() {
        var holds = Holds()
        #expect(holds.earliestDeadline == nil)
        holds.start(1, subject: "late", now: start + .microseconds(500))
        holds.start(2, subject: "early", now: start)
        #expect(holds.earliestDeadline == start + Holds.maximumHold)
    }

    @Test func dueHoldsEndWithTheirWakeUpsAndTheRestStay() {
        var holds = Holds()
        holds.start(1, subject: "due", now: start)
        holds.start(2, subject: "kept", now: start)
        holds.start(3, subject: "due too", now: start)
        _ = holds.keep("wake three", for: 3)
        var ended: [Holds.Hold] = []
        holds.endHolds(where: { $0.subject.hasPrefix("due") }, into: &ended)
        #expect(ended.map { "\($0.subject): \($0.wakeUp ?? "none")" }.sorted() == ["due too: wake three", "due: none"])
        #expect(holds.count == 1)
        #expect(holds.isHolding(2))
        holds.endAll(into: &ended)
        #expect(ended.last?.subject == "kept")
        #expect(holds.isEmpty)
    }
}
