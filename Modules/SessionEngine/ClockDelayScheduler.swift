public import CourierSessionCore

/// A `DelayScheduling` (from `CourierSessionCore`) that sleeps on a `Clock` in a task of its own.
///
/// `Task.sleep` suspends without holding a thread, so pending delays cost no thread of the
/// cooperative pool.
///
/// ```swift
/// let scheduler = ClockDelayScheduler(clock: SuspendingClock())
/// ```
public struct ClockDelayScheduler<C: Clock>: DelayScheduling where C.Duration == Duration {
    /// The clock the delays are measured on.
    public let clock: C

    /// A scheduler on `clock`.
    ///
    /// ```swift
    /// let scheduler = ClockDelayScheduler(clock: ContinuousClock())
    /// ```
    public init(clock: C) {
        self.clock = clock
    }

    /// Starts a task that sleeps for `delay` on ``clock`` and then runs `action`, unless cancelled.
    ///
    /// ```swift
    /// let pending = scheduler.schedule(after: .milliseconds(170)) { hide() }
    /// ```
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay {
        let clock = clock
        return TaskDelay(
            task: Task {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
                action()
            }
        )
    }
}

/// A delay running as a task: cancelling the task ends its sleep early with an error, so the
/// action never runs.
private struct TaskDelay: ScheduledDelay {
    let task: Task<Void, Never>

    func cancel() {
        task.cancel()
    }
}
