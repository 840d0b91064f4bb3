internal import CourierLocking
public import CourierSessionCore
public import FoundationEssentials

/// A clock whose time moves only when the test moves it: the session's `SessionClock` (retry
/// delays, deadlines, cache ages, cookie expiry, reconnection waits) and the timers of a
/// `NetworkActivityTracker` (`DelayScheduling`), without sleeping.
///
/// ``now`` is the instant the clock was made plus the time advanced; ``date`` is ``startDate`` plus
/// the same offset. A task that sleeps on the clock is resumed by ``advance(by:)`` or
/// ``advance(to:)`` once its deadline is passed, and a scheduled action runs then, on the thread
/// that advances, before `advance` returns; both go in deadline order (registration order for equal
/// deadlines). Cancelling a sleeping task ends its sleep at once with `CancellationError`.
///
/// A sleeper registers from its own task, some time after the test started it: call
/// ``waitForSleepers(_:)`` before advancing, so the advance cannot run before the sleep begins.
///
/// ```swift
/// let clock = ManualClock()
/// var configuration = SessionConfiguration()
/// configuration.clock = clock
/// let session = SessionManager(transport: transport, configuration: configuration)
/// let call = Task { try await session.data(for: request) }  // the retry policy asks for 2 s
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(2))  // the retry goes out now
/// ```
public final class ManualClock: SessionClock, DelayScheduling {
    private enum Sleep {
        /// The sleeping task has not suspended yet.
        case starting
        /// The task was cancelled before it suspended.
        case cancelled
        case suspended(CheckedContinuation<Void, any Error>)
    }

    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        var sleep: Sleep
    }

    private struct Timer {
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct Watcher {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var offset: Duration = .zero
        var startDate: Date
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var timers: [Int: Timer] = [:]
        var watchers: [Int: Watcher] = [:]

        var suspendedCount: Int {
            sleepers.values.count { if case .suspended = $0.sleep { true } else { false } }
        }

        mutating func makeID() -> Int {
            nextID += 1
            return nextID
        }

        /// Removes and returns the watchers whose count is reached.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = suspendedCount
            let due = watchers.filter { $0.value.count <= count }
            for id in due.keys { watchers[id] = nil }
            return due.values.map(\.continuation)
        }
    }

    /// What falls due on the way to an advance's target.
    private enum Due {
        case sleeper(CheckedContinuation<Void, any Error>)
        case timer(@Sendable () -> Void)
    }

    /// The real instant the clock stands for at offset zero: `ContinuousClock.Instant` has no
    /// public initialiser, so the clock counts from the moment it was made.
    private let base: ContinuousClock.Instant
    private let state: Lock<State>

    /// A clock at offset zero.
    ///
    /// ```swift
    /// let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_800_000_000))
    /// ```
    /// - Parameter startDate: What ``date`` says before any advance; 2027-01-15 08:00:00 UTC
    ///   (1,800,000,000 s after 1970) by default, so that runs repeat.
    public init(startDate: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        base = ContinuousClock.now
        state = Lock(State(startDate: startDate))
    }

    // MARK: SessionClock

    /// The instant the clock was made plus the time advanced since.
    public var now: ContinuousClock.Instant {
        base + state.withLock { $0.offset }
    }

    /// ``startDate`` plus the time advanced.
    public var date: Date {
        state.withLock { $0.startDate.addingTimeInterval(Self.seconds($0.offset)) }
    }

    /// The wall-clock date at offset zero; setting it moves ``date`` and leaves ``now`` alone, as
    /// the system's date can change under a monotonic clock.
    ///
    /// ```swift
    /// clock.startDate = Date(timeIntervalSince1970: 0)
    /// ```
    public var startDate: Date {
        get { state.withLock { $0.startDate } }
        set { state.withLock { $0.startDate = newValue } }
    }

    /// The time advanced since the clock was made.
    ///
    /// ```swift
    /// clock.advance(by: .seconds(3))
    /// assert(clock.elapsed == .seconds(3))
    /// ```
    public var elapsed: Duration {
        state.withLock { $0.offset }
    }

    /// Suspends until an advance reaches `deadline`; returns at once when it is already reached.
    ///
    /// ```swift
    /// try await clock.sleep(until: clock.now + .seconds(5))
    /// ```
    /// - Parameter deadline: When to resume.
    /// - Throws: `CancellationError` when the calling task is cancelled, before or during the sleep.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int? in
            guard base + state.offset < deadline else { return nil }
            let id = state.makeID()
            state.sleepers[id] = Sleeper(deadline: deadline, sleep: .starting)
            return id
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    guard let sleeper = state.sleepers[id] else { return (.success(()), []) }
                    if case .cancelled = sleeper.sleep {
                        state.sleepers[id] = nil
                        return (.failure(CancellationError()), [])
                    }
                    if base + state.offset >= sleeper.deadline {
                        state.sleepers[id] = nil
                        return (.success(()), [])
                    }
                    state.sleepers[id]?.sleep = .suspended(continuation)
                    return (nil, state.satisfiedWatchers())
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let suspended = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let sleeper = state.sleepers[id] else { return nil }
                switch sleeper.sleep {
                case .starting:
                    state.sleepers[id]?.sleep = .cancelled
                    return nil
                case .cancelled:
                    return nil
                case .suspended(let continuation):
                    state.sleepers[id] = nil
                    return continuation
                }
            }
            suspended?.resume(throwing: CancellationError())
        }
    }

    // MARK: DelayScheduling

    /// Schedules `action` for `delay` from ``now``: it runs on the thread of the advance that passes
    /// its deadline (a zero delay runs at the next advance, even `advance(by: .zero)`), never during
    /// this call.
    ///
    /// ```swift
    /// let tracker = NetworkActivityTracker(scheduler: clock) { visible in print(visible) }
    /// tracker.incrementActivityCount()
    /// clock.advance(by: .seconds(1))  // prints true
    /// ```
    /// - Parameters:
    ///   - delay: How long from now.
    ///   - action: What to run.
    /// - Returns: A handle whose `cancel()` removes the timer if it has not run.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay {
        state.withLock { state in
            let id = state.makeID()
            state.timers[id] = Timer(deadline: base + state.offset + max(delay, .zero), action: action)
            return TimerHandle(id: id, clock: self)
        }
    }

    // MARK: Moving time

    /// Moves time forward by `duration`, resuming the sleepers and running the timers that fall due,
    /// in deadline order; a negative duration moves nothing.
    ///
    /// ```swift
    /// clock.advance(by: .milliseconds(170))
    /// ```
    /// - Parameter duration: How far.
    public func advance(by duration: Duration) {
        advance(to: now + max(duration, .zero))
    }

    /// Moves time forward to `instant` (never back), resuming the sleepers and running the timers
    /// that fall due, in deadline order.
    ///
    /// ```swift
    /// clock.advance(to: deadline)
    /// ```
    /// - Parameter instant: Where time stops; an instant already passed moves nothing but still
    ///   runs what is due (a zero-delay timer).
    public func advance(to instant: ContinuousClock.Instant) {
        while let due = nextDue(until: instant) {
            switch due {
            case .sleeper(let continuation): continuation.resume()
            case .timer(let action): action()
            }
        }
    }

    /// Takes the earliest sleeper or timer due by `target` and moves time to its deadline; when
    /// none is left, moves time to `target` and returns `nil`.
    private func nextDue(until target: ContinuousClock.Instant) -> Due? {
        state.withLock { state -> Due? in
            var earliest: (deadline: ContinuousClock.Instant, id: Int)?
            func consider(_ deadline: ContinuousClock.Instant, _ id: Int) {
                guard deadline <= target else { return }
                if let current = earliest, (current.deadline, current.id) <= (deadline, id) { return }
                earliest = (deadline, id)
            }
            for (id, sleeper) in state.sleepers {
                if case .suspended = sleeper.sleep { consider(sleeper.deadline, id) }
            }
            for (id, timer) in state.timers { consider(timer.deadline, id) }
            guard let earliest else {
                state.offset = max(state.offset, base.duration(to: target))
                return nil
            }
            state.offset = max(state.offset, base.duration(to: earliest.deadline))
            if let timer = state.timers.removeValue(forKey: earliest.id) { return .timer(timer.action) }
            guard case .suspended(let continuation) = state.sleepers.removeValue(forKey: earliest.id)?.sleep
            else { return nil }
            return .sleeper(continuation)
        }
    }

    // MARK: Waiting for sleepers

    /// How many tasks are suspended in ``sleep(until:)``.
    ///
    /// ```swift
    /// #expect(clock.sleeperCount == 0)
    /// ```
    public var sleeperCount: Int {
        state.withLock { $0.suspendedCount }
    }

    /// How many scheduled actions have neither run nor been cancelled.
    ///
    /// ```swift
    /// tracker.decrementActivityCount()
    /// #expect(clock.timerCount == 1)
    /// ```
    public var timerCount: Int {
        state.withLock { $0.timers.count }
    }

    /// Suspends until at least `count` tasks are suspended in ``sleep(until:)``, so that the next
    /// advance finds them; returns early when the calling task is cancelled.
    ///
    /// ```swift
    /// let waiter = Task { try await clock.sleep(for: .seconds(1)) }
    /// await clock.waitForSleepers(1)
    /// clock.advance(by: .seconds(1))
    /// try await waiter.value
    /// ```
    /// - Parameter count: How many sleepers to wait for.
    public func waitForSleepers(_ count: Int) async {
        let id = state.withLock { $0.makeID() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if Task.isCancelled || state.suspendedCount >= count { return true }
                    state.watchers[id] = Watcher(count: count, continuation: continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    fileprivate func cancelTimer(_ id: Int) {
        _ = state.withLock { $0.timers.removeValue(forKey: id) }
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

/// The handle of a ``ManualClock`` timer.
private struct TimerHandle: ScheduledDelay {
    let id: Int
    let clock: ManualClock

    func cancel() {
        clock.cancelTimer(id)
    }
}
