import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Testing

@Suite struct NetworkActivityTrackerTests {
    let scheduler = ManualClock()
    let log = VisibilityLog()

    func makeTracker(_ scheduler: (any DelayScheduling)? = nil) -> NetworkActivityTracker {
        let log = log
        return NetworkActivityTracker(scheduler: scheduler ?? self.scheduler) { log.record($0) }
    }

    @Test func defaultsAreAFNetworkings() {
        let tracker = NetworkActivityTracker { _ in }

        #expect(tracker.activationDelay == .seconds(1))
        #expect(tracker.completionDelay == .milliseconds(170))
        #expect(tracker.isEnabled)
        #expect(tracker.state == .notActive)
        #expect(!tracker.isActivityIndicatorVisible)
    }

    @Test func showsNoSoonerThanTheActivationDelay() {
        let tracker = makeTracker()

        tracker.incrementActivityCount()
        #expect(tracker.state == .delayingStart)
        scheduler.advance(by: .milliseconds(999))
        #expect(log.calls == [])

        scheduler.advance(by: .milliseconds(1))
        #expect(tracker.state == .active)
        #expect(tracker.isActivityIndicatorVisible)
        #expect(log.calls == [true])
    }

    @Test func hidesNoSoonerThanTheCompletionDelay() {
        let tracker = makeTracker()
        tracker.incrementActivityCount()
        scheduler.advance(by: .seconds(1))

        tracker.decrementActivityCount()
        #expect(tracker.state == .delayingEnd)
        scheduler.advance(by: .milliseconds(169))
        #expect(log.calls == [true])

        scheduler.advance(by: .milliseconds(1))
        #expect(tracker.state == .notActive)
        #expect(log.calls == [true, false])
        #expect(scheduler.timerCount == 0)
    }

    @Test func activityShorterThanTheActivationDelayIsNeverShown() {
        let tracker = makeTracker()

        tracker.incrementActivityCount()
        scheduler.advance(by: .milliseconds(500))
        tracker.decrementActivityCount()
        scheduler.advance(by: .seconds(5))

        #expect(tracker.state == .notActive)
        #expect(log.calls == [])
    }

    @Test func theDelayingStartStateIgnoresCountChanges() {
        let tracker = makeTracker()

        tracker.incrementActivityCount()
        tracker.decrementActivityCount()
        tracker.incrementActivityCount()
        #expect(tracker.state == .delayingStart)
        #expect(scheduler.timerCount == 1)

        scheduler.advance(by: .seconds(1))
        #expect(tracker.state == .active)
        #expect(log.calls == [true])
    }

    @Test func overlappingActivityGivesOneShowAndOneHide() {
        let tracker = makeTracker()

        tracker.incrementActivityCount()
        scheduler.advance(by: .milliseconds(300))
        tracker.incrementActivityCount()
        scheduler.advance(by: .milliseconds(900))
        tracker.decrementActivityCount()
        tracker.incrementActivityCount()
        scheduler.advance(by: .milliseconds(100))
        tracker.decrementActivityCount()
        tracker.decrementActivityCount()
        scheduler.advance(by: .seconds(1))

        #expect(log.calls == [true, false])
        #expect(tracker.activityCount == 0)
    }

    @Test func newActivityWhileDelayingTheEndKeepsItVisibleWithoutAnAction() {
        let tracker = makeTracker()
        tracker.incrementActivityCount()
        scheduler.advance(by: .seconds(1))
        tracker.decrementActivityCount()
        scheduler.advance(by: .milliseconds(100))

        tracker.incrementActivityCount()
        #expect(tracker.state == .active)
        #expect(scheduler.timerCount == 0)  // the completion timer is cancelled
        scheduler.advance(by: .seconds(10))

        #expect(tracker.isActivityIndicatorVisible)
        #expect(log.calls == [true])
    }

    @Test func aCompletionTimerThatFiresAfterBeingReplacedDoesNothing() {
        let scheduler = ManualClock()
        let tracker = makeTracker(CancellationIgnoringScheduler(clock: scheduler))
        tracker.incrementActivityCount()
        scheduler.advance(by: .seconds(1))
        tracker.decrementActivityCount()  // completion timer 1, due at 1.17 s
        scheduler.advance(by: .milliseconds(100))
        tracker.incrementActivityCount()  // cancels it (the scheduler will run it anyway)
        scheduler.advance(by: .milliseconds(50))
        tracker.decrementActivityCount()  // completion timer 2, due at 1.32 s

        scheduler.advance(by: .milliseconds(100))  // 1.25 s: timer 1 runs
        #expect(tracker.state == .delayingEnd)
        #expect(log.calls == [true])

        scheduler.advance(by: .milliseconds(70))  // 1.32 s: timer 2
        #expect(log.calls == [true, false])
    }

    @Test func disablingHidesAtOnceAndStopsTheTimers() {
        let tracker = makeTracker()
        tracker.incrementActivityCount()
        scheduler.advance(by: .seconds(1))
        tracker.decrementActivityCount()

        tracker.isEnabled = false

        #expect(tracker.state == .notActive)
        #expect(log.calls == [true, false])
        #expect(scheduler.timerCount == 0)
    }

    @Test func whileDisabledTheCountIsKeptAndEnablingActsOnIt() {
        let tracker = makeTracker()
        tracker.isEnabled = false

        tracker.incrementActivityCount()
        #expect(tracker.state == .notActive)
        #expect(scheduler.timerCount == 0)
        #expect(tracker.activityCount == 1)

        tracker.isEnabled = true
        #expect(tracker.state == .delayingStart)
        scheduler.advance(by: .seconds(1))
        #expect(log.calls == [true])
    }

    @Test func theCountNeverGoesBelowZero() {
        let tracker = makeTracker()

        tracker.decrementActivityCount()
        #expect(tracker.activityCount == 0)
        tracker.incrementActivityCount()
        #expect(tracker.activityCount == 1)
        #expect(tracker.state == .delayingStart)
    }

    @Test func anActionMayCallTheTracker() {
        let seen = Lock<[Int]>([])
        let box = Lock<NetworkActivityTracker?>(nil)
        let tracker = NetworkActivityTracker(scheduler: scheduler) { _ in
            let count = box.withLock { $0?.activityCount } ?? -1
            seen.withLock { $0.append(count) }
        }
        box.withLock { $0 = tracker }
        tracker.incrementActivityCount()

        scheduler.advance(by: .seconds(1))

        #expect(seen.withLock { $0 } == [1])
    }

    @Test func theClockSchedulerRunsTheActionAfterItsDelay() async {
        let scheduler = ClockDelayScheduler(clock: ContinuousClock())
        let start = ContinuousClock.now

        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = scheduler.schedule(after: .milliseconds(20)) { continuation.resume() }
        }

        #expect(ContinuousClock.now - start >= .milliseconds(20))
    }

    @Test func theClockSchedulerDropsACancelledAction() async {
        let scheduler = ClockDelayScheduler(clock: ContinuousClock())
        let ran = Lock(false)

        let cancelled = scheduler.schedule(after: .milliseconds(10)) { ran.withLock { $0 = true } }
        cancelled.cancel()
        // A later action on the same clock: once it has run, the cancelled one's time has passed.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            _ = scheduler.schedule(after: .milliseconds(30)) { continuation.resume() }
        }

        #expect(ran.withLock { $0 } == false)
    }
}

/// Schedules on a `ManualClock` and ignores `cancel()`, so that a test can check that a stale timer
/// does no harm.
private struct CancellationIgnoringScheduler: DelayScheduling {
    let clock: ManualClock

    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay {
        _ = clock.schedule(after: delay, action)
        return Ignored()
    }

    private struct Ignored: ScheduledDelay {
        func cancel() {}
    }
}
