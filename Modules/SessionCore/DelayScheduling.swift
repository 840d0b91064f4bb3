/// Runs a closure once after a delay, cancellably: the timers of `NetworkActivityTracker`.
///
/// The tracker takes one so that its delays come from a clock the caller chooses:
/// `ClockDelayScheduler` (in `CourierSessionEngine`) on `ContinuousClock` by default, or
/// `ManualClock` (in `CourierTesting`) in tests, which advances time without sleeping.
///
/// ```swift
/// struct Immediately: DelayScheduling {
///     func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay {
///         let task = Task { action() }
///         return Handle(task: task)
///     }
///     struct Handle: ScheduledDelay {
///         let task: Task<Void, Never>
///         func cancel() { task.cancel() }
///     }
/// }
/// ```
///
/// - Important: `schedule` must return before it runs `action`, even for a zero delay: the tracker
///   schedules while it holds its lock. A run that slips past ``ScheduledDelay/cancel()`` is
///   harmless: the tracker checks that a timer is still current when it fires.
public protocol DelayScheduling: Sendable {
    /// Runs `action` once, `delay` from now.
    ///
    /// - Parameters:
    ///   - delay: How long from now.
    ///   - action: What to run.
    /// - Returns: A handle that cancels the run.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay
}

/// A run that ``DelayScheduling/schedule(after:_:)`` has scheduled.
public protocol ScheduledDelay: Sendable {
    /// Cancels the run if it has not started.
    func cancel()
}
