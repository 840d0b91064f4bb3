/// Runs a closure once after a delay, cancellably: the timers of ``NetworkActivityTracker``.
///
/// The tracker takes one so that its delays come from a clock the caller chooses: the
/// ``ClockDelayScheduler`` on `ContinuousClock` by default, or a manual scheduler in tests that
/// advances time without sleeping.
///
/// ```swift
/// let scheduler = ClockDelayScheduler(clock: ContinuousClock())
/// let pending = scheduler.schedule(after: .seconds(1)) { print("a second later") }
/// pending.cancel()
/// ```
///
/// - Important: `schedule` must return before it runs `action`, even for a zero delay: the tracker
///   schedules while it holds its lock. A run that slips past ``ScheduledDelay/cancel()`` is
///   harmless: the tracker checks that a timer is still current when it fires.
public protocol DelayScheduling: Sendable {
    /// Runs `action` once, `delay` from now.
    ///
    /// - Returns: A handle that cancels the run.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any ScheduledDelay
}

/// A run that ``DelayScheduling/schedule(after:_:)`` has scheduled.
public protocol ScheduledDelay: Sendable {
    /// Cancels the run if it has not started.
    func cancel()
}
