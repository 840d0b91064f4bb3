public import FoundationEssentials

/// Where the session layer reads the time: monotonic time for delays, deadlines and refresh
/// windows, wall-clock time for `Retry-After` dates and cookie or cache ages.
///
/// Everything in Courier that waits or compares times takes one, so that a test can drive it with
/// `ManualClock` from `CourierTesting` instead of sleeping; ``SystemSessionClock`` is the default.
///
/// ```swift
/// let clock: any SessionClock = .system
/// let deadline = clock.now + .seconds(30)
/// try await clock.sleep(for: .milliseconds(500))
/// print(clock.now < deadline, clock.date)
/// ```
public protocol SessionClock: Sendable {
    /// The monotonic time now: never goes back, unaffected by changes to the system's date.
    var now: ContinuousClock.Instant { get }
    /// The wall-clock date now, for HTTP dates (`Retry-After`, `Expires`, cookie expiry).
    var date: Date { get }
    /// Suspends until `deadline` on the monotonic time.
    ///
    /// - Parameter deadline: When to resume.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension SessionClock {
    /// Suspends for `duration` on the monotonic time.
    ///
    /// ```swift
    /// try await clock.sleep(for: .seconds(1))
    /// ```
    /// - Parameter duration: How long.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// The system's clocks: `ContinuousClock` and the system date.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.clock = .system
/// ```
public struct SystemSessionClock: SessionClock {
    /// The system's clocks.
    public init() {}

    /// `ContinuousClock.now`.
    public var now: ContinuousClock.Instant { ContinuousClock.now }

    /// The system's date.
    public var date: Date { Date() }

    /// Sleeps on `ContinuousClock`.
    ///
    /// - Parameter deadline: When to resume.
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await ContinuousClock().sleep(until: deadline, tolerance: nil)
    }
}

extension SessionClock where Self == SystemSessionClock {
    /// The system's clocks.
    ///
    /// ```swift
    /// let policy = RetryPolicy(clock: .system)
    /// ```
    public static var system: SystemSessionClock { SystemSessionClock() }
}
