import CourierLocking
import CourierSessionCore
import CourierTesting
import FoundationEssentials
import Testing

@Suite struct ManualClockTests {
    let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_000))

    @Test func nowAndDateMoveTogetherOnlyWhenAdvanced() {
        let start = clock.now

        #expect(clock.now == start)
        #expect(clock.date == Date(timeIntervalSince1970: 1_000))
        clock.advance(by: .milliseconds(1_500))

        #expect(clock.now - start == .milliseconds(1_500))
        #expect(clock.elapsed == .milliseconds(1_500))
        #expect(clock.date == Date(timeIntervalSince1970: 1_001.5))
    }

    @Test func settingTheStartDateMovesTheDateButNotTheMonotonicTime() {
        clock.advance(by: .seconds(10))
        let now = clock.now

        clock.startDate = Date(timeIntervalSince1970: 5_000)

        #expect(clock.date == Date(timeIntervalSince1970: 5_010))
        #expect(clock.now == now)
    }

    @Test func timeNeverGoesBack() {
        clock.advance(by: .seconds(2))
        let now = clock.now

        clock.advance(by: .seconds(-1))
        clock.advance(to: now - .seconds(1))

        #expect(clock.now == now)
    }

    @Test func aSleeperWakesOnlyOnceItsDeadlineIsPassed() async throws {
        let woke = Lock(false)
        let sleeper = Task {
            try await clock.sleep(for: .seconds(3))
            woke.withLock { $0 = true }
        }
        await clock.waitForSleepers(1)

        clock.advance(by: .milliseconds(2_999))
        #expect(clock.sleeperCount == 1)
        #expect(woke.withLock { $0 } == false)

        clock.advance(by: .milliseconds(1))
        try await sleeper.value
        #expect(woke.withLock { $0 })
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        try await clock.sleep(until: clock.now)
        try await clock.sleep(for: .zero)

        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperThrowsPromptlyWithoutAnAdvance() async {
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)

        sleeper.cancel()
        let result = await sleeper.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aTaskCancelledBeforeItSleepsThrows() async {
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }

        let result = await sleeper.result

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperCount == 0)
    }

    @Test func sleepersAndTimersRunInDeadlineOrder() async throws {
        let order = Lock<[String]>([])
        let late = Task {
            try await clock.sleep(for: .seconds(3))
            order.withLock { $0.append("sleeper at 3 s") }
        }
        await clock.waitForSleepers(1)
        _ = clock.schedule(after: .seconds(1)) { order.withLock { $0.append("timer at 1 s") } }
        _ = clock.schedule(after: .seconds(5)) { order.withLock { $0.append("timer at 5 s") } }
        let times = Lock<[Duration]>([])
        _ = clock.schedule(after: .seconds(2)) { [clock] in times.withLock { $0.append(clock.elapsed) } }

        clock.advance(by: .seconds(4))
        try await late.value
        order.withLock { $0.append("after the advance") }
        clock.advance(by: .seconds(1))

        #expect(order.withLock { $0 } == ["timer at 1 s", "sleeper at 3 s", "after the advance", "timer at 5 s"])
        #expect(times.withLock { $0 } == [.seconds(2)])  // a timer sees the clock at its own deadline
        #expect(clock.elapsed == .seconds(5))
    }

    @Test func aCancelledTimerNeverRuns() {
        let ran = Lock(false)
        let pending = clock.schedule(after: .seconds(1)) { ran.withLock { $0 = true } }
        #expect(clock.timerCount == 1)

        pending.cancel()
        clock.advance(by: .seconds(2))

        #expect(ran.withLock { $0 } == false)
        #expect(clock.timerCount == 0)
    }

    @Test func aZeroDelayTimerWaitsForTheNextAdvance() {
        let ran = Lock(false)
        _ = clock.schedule(after: .zero) { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 } == false)

        clock.advance(by: .zero)

        #expect(ran.withLock { $0 })
    }

    @Test func aTimerScheduledByATimerRunsInTheSameAdvanceWhenDue() {
        let ran = Lock<[Duration]>([])
        _ = clock.schedule(after: .seconds(1)) { [clock] in
            ran.withLock { $0.append(clock.elapsed) }
            _ = clock.schedule(after: .seconds(1)) { ran.withLock { $0.append(clock.elapsed) } }
        }

        clock.advance(by: .seconds(3))

        #expect(ran.withLock { $0 } == [.seconds(1), .seconds(2)])
    }

    @Test func waitingForSleepersReturnsOnceEnoughAreSuspended() async throws {
        let first = Task { try await clock.sleep(for: .seconds(1)) }
        let second = Task { try await clock.sleep(for: .seconds(2)) }

        await clock.waitForSleepers(2)
        #expect(clock.sleeperCount == 2)

        clock.advance(by: .seconds(2))
        try await first.value
        try await second.value
    }

    @Test func waitingForSleepersEndsWhenTheWaiterIsCancelled() async {
        let waiter = Task { await clock.waitForSleepers(1) }

        waiter.cancel()
        await waiter.value

        #expect(clock.sleeperCount == 0)
    }

    @Test func aSessionClockSleepForUsesTheManualTime() async throws {
        let session: any SessionClock = clock
        let sleeper = Task { try await session.sleep(for: .milliseconds(250)) }
        await clock.waitForSleepers(1)

        clock.advance(by: .milliseconds(250))

        try await sleeper.value
        #expect(session.now - (clock.now - clock.elapsed) == .milliseconds(250))
    }
}
