import CourierLocking
public import Testing

/// Fails a test when a trivial `Task` has to wait too long for a thread of the cooperative pool:
/// the sign of code that blocks the pool (a lock held across a wait, a blocking syscall, a spin).
///
/// While the test runs, a probe starts a trivial detached task every ``interval`` and measures how
/// long it waited to start, and how late the probe's own sleep ended. On an idle 2-core machine both
/// are well under a millisecond; under `ci/test`'s load they reach tens of milliseconds. The
/// threshold, 500 ms, is about ten times the worst seen under load, so a trip means a thread was
/// held, not that the machine was busy. Use it only on `.serialized` suites that run in a step of
/// their own: beside other suites, their legitimate CPU work would count against this one.
///
/// ```swift
/// @Suite(.serialized, StarvationCanary()) struct LoadTests { … }
/// ```
public struct StarvationCanary: SuiteTrait, TestTrait, TestScoping {
    /// The longest a trivial task may wait for a thread.
    public static let threshold: Duration = .milliseconds(500)

    /// How often the probe runs.
    public let interval: Duration
    /// Measures one wait; replaceable so that the canary's own verdict can be tested.
    let probe: @Sendable () async -> Duration

    /// A canary with the real probe.
    public init(interval: Duration = .milliseconds(50)) {
        self.interval = interval
        self.probe = { await Self.measureOnce(sleeping: interval) }
    }

    init(interval: Duration, probe: @escaping @Sendable () async -> Duration) {
        self.interval = interval
        self.probe = probe
    }

    /// Applies to each test of a suite, not once around the suite.
    public var isRecursive: Bool { true }

    @concurrent public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil || !test.isSuite else { return try await function() }
        let worst = try await Self.watch(probe: probe, while: function)
        if worst > Self.threshold {
            Issue.record(
                "a trivial task waited \(worst) for a thread (threshold \(Self.threshold)): something blocked the cooperative pool"
            )
        }
    }

    /// Runs `body` while the probe measures, and returns the longest wait it saw.
    static func watch(
        probe: @escaping @Sendable () async -> Duration,
        while body: @Sendable () async throws -> Void
    ) async throws -> Duration {
        let worst = Lock(Duration.zero)
        let watcher = Task.detached {
            while !Task.isCancelled {
                let wait = await probe()
                worst.withLock { $0 = max($0, wait) }
            }
        }
        defer { watcher.cancel() }
        try await body()
        watcher.cancel()
        _ = await watcher.value
        return worst.withLock { $0 }
    }

    /// Sleeps for `interval`, then starts a trivial task; the larger of the sleep's overshoot and
    /// the task's wait to start.
    static func measureOnce(sleeping interval: Duration) async -> Duration {
        let clock = ContinuousClock()
        let beforeSleep = clock.now
        try? await Task.sleep(for: interval)
        let overshoot = clock.now - beforeSleep - interval
        let created = clock.now
        let started = await Task.detached { clock.now }.value
        return max(overshoot, started - created)
    }
}
