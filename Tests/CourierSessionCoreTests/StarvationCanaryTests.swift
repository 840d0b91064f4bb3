import CourierTestSupport
import Testing

@testable import CourierTestSupport

/// The canary's verdict, with a probe that reports a chosen wait (the real one cannot be made to
/// trip without blocking the pool that other tests share).
@Suite struct StarvationCanaryTests {
    @Test func aWaitOverTheThresholdFailsTheTest() async throws {
        let canary = StarvationCanary(interval: .milliseconds(1)) {
            try? await Task.sleep(for: .milliseconds(1))  // a probe waits between measurements
            return .milliseconds(700)
        }
        try await withKnownIssue("the canary must trip") {
            try await canary.provideScope(
                for: Test.current!,
                testCase: Test.Case.current,
                performing: {
                    try await Task.sleep(for: .milliseconds(20))
                }
            )
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("blocked the cooperative pool") }
        }
    }

    @Test func waitsUnderTheThresholdPass() async throws {
        let canary = StarvationCanary(interval: .milliseconds(1)) {
            try? await Task.sleep(for: .milliseconds(1))
            return .milliseconds(40)
        }
        try await canary.provideScope(
            for: Test.current!,
            testCase: Test.Case.current,
            performing: {
                try await Task.sleep(for: .milliseconds(20))
            }
        )
    }

    // The real probe runs in the load-test step (SessionConcurrencyOverCurlTests carries the
    // canary): beside the parallel unit tests, their own CPU work on the pool would count against it.
}
