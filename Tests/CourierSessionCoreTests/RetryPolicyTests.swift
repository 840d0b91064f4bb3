import CourierHTTP
import CourierSessionCore
import CourierTransport
import Foundation
import Testing

/// The same fraction every time, so that a delay is exact.
struct FixedRandomSource: RandomSource {
    let value: Double
    func nextUnitInterval() -> Double { value }
}

/// A clock stopped at one moment; it never sleeps.
struct StoppedClock: SessionClock {
    let now: ContinuousClock.Instant
    let date: Date
    func sleep(until deadline: ContinuousClock.Instant) async throws {}
}

/// The failures a retrier is asked about, built as the session builds them.
enum Failures {
    static let url = URL(string: "https://api.example.com/items")!

    static func transport(_ category: TransportError.Category, response: HTTPResponse? = nil) -> AttemptFailure {
        .transport(
            SessionError(
                kind: .transport(category),
                message: "failed",
                failingURL: url,
                response: response,
                underlying: TransportError(category: category, message: "failed")
            )
        )
    }

    static func refused(_ status: Int, headers: [(String, String)] = []) -> AttemptFailure {
        var response = HTTPResponse(status: HTTPStatus(code: status))
        for (name, value) in headers { try? response.headers.set(name: name, value: value) }
        return .validation(SessionError(kind: .serialization, message: "refused", failingURL: url, response: response))
    }

    static func attempt(retries: Int) -> AttemptContext {
        AttemptContext(taskIdentifier: 1, retryCount: retries, redirectCount: 0)
    }
}

@Suite struct RetryPolicyTests {
    private let get = HTTPRequest(url: Failures.url)

    private func decision(
        _ policy: RetryPolicy,
        _ failure: AttemptFailure,
        request: HTTPRequest? = nil,
        retries: Int = 0
    ) async -> RetryDecision {
        await policy.retry(request ?? get, dueTo: failure, attempt: Failures.attempt(retries: retries))
    }

    @Test func theDefaultsAreAlamofires() {
        let policy = RetryPolicy()
        #expect(policy.retryLimit == 2)
        #expect(policy.exponentialBackoffBase == 2)
        #expect(policy.exponentialBackoffScale == 0.5)
        #expect(policy.retryableMethods == [.get, .head, .put, .delete, .options, .trace])
        #expect(policy.retryableStatusCodes == [408, 500, 502, 503, 504])
        #expect(
            policy.retryableCategories == [
                .timedOut, .nameResolutionFailed, .cannotConnect, .proxyFailed, .connectionLost, .protocolViolation,
            ]
        )
        #expect(policy.maximumRetryAfter == .seconds(60))
    }

    @Test func theExponentIsTheRetriesSoFarAndTheLimitStopsThem() async {
        // Alamofire's table: scale × base^retryCount with retryCount 0 for the first retry.
        let lowest = RetryPolicy(retryLimit: 4, random: FixedRandomSource(value: 0))
        let middle = RetryPolicy(retryLimit: 4, random: FixedRandomSource(value: 0.5))
        var lows: [Duration?] = []
        var middles: [Duration?] = []
        for retries in 0...4 {
            lows.append(await decision(lowest, Failures.refused(503), retries: retries).delay)
            middles.append(await decision(middle, Failures.refused(503), retries: retries).delay)
        }
        #expect(lows == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), nil])
        #expect(middles == [.milliseconds(375), .milliseconds(750), .milliseconds(1500), .seconds(3), nil])
    }

    @Test func equalJitterKeepsHalfTheDelayAndASeedRepeatsIt() {
        let first = RetryPolicy(random: SeededRandomSource(seed: 42))
        let second = RetryPolicy(random: SeededRandomSource(seed: 42))
        let delays = (0..<50).map { _ in first.backoff(afterRetries: 2) }
        #expect(delays == (0..<50).map { _ in second.backoff(afterRetries: 2) })
        #expect(delays.allSatisfy { $0 >= .seconds(1) && $0 < .seconds(2) })
        #expect(Set(delays).count > 1)
    }

    @Test(arguments: [HTTPMethod.get, .head, .put, .delete, .options, .trace, .post, .patch, .connect])
    func onlyIdempotentMethodsAreRetried(method: HTTPMethod) async {
        let request = HTTPRequest(method: method, url: Failures.url)
        let retried = await decision(RetryPolicy(), Failures.refused(503), request: request).retryRequired
        #expect(retried == ![HTTPMethod.post, .patch, .connect].contains(method))
    }

    @Test func onlyAlamofiresStatusesAreRetried() async {
        var retried: [Int] = []
        for status in 100...599 where await decision(RetryPolicy(), Failures.refused(status)).retryRequired {
            retried.append(status)
        }
        #expect(retried == [408, 500, 502, 503, 504])
    }

    @Test(
        arguments: [
            (TransportError.Category.timedOut, true), (.nameResolutionFailed, true), (.cannotConnect, true),
            (.proxyFailed, true), (.connectionLost, true), (.protocolViolation, true), (.tlsFailed, false),
            (.serverTrustFailed, false), (.cancelled, false), (.limitExceeded, false),
            (.contentDecodingFailed, false), (.requestBodyFailed, false), (.invalidRequest, false),
            (.configuration, false), (.shutDown, false), (.other, false),
        ]
    )
    func transportFailuresAreRetriedAsAlamofireRetriesTheirURLErrors(
        category: TransportError.Category,
        retried: Bool
    ) async {
        #expect(await decision(RetryPolicy(), Failures.transport(category)).retryRequired == retried)
    }

    @Test func aRetryableStatusDecidesBeforeTheFailureThatFollowedIt() async {
        let unavailable = HTTPResponse(status: HTTPStatus(code: 503))
        let cutOff = Failures.transport(.tlsFailed, response: unavailable)
        #expect(await decision(RetryPolicy(), cutOff).retryRequired)
        let fine = Failures.transport(.tlsFailed, response: HTTPResponse(status: .ok))
        #expect(await decision(RetryPolicy(), fine).retryRequired == false)
    }

    @Test func aSerializationFailureIsNotRetried() async {
        let failure = AttemptFailure.serialization(
            SessionError(
                kind: .serialization,
                message: "bad JSON",
                failingURL: Failures.url,
                response: HTTPResponse(status: .ok)
            )
        )
        #expect(await decision(RetryPolicy(), failure).retryRequired == false)
    }

    @Test func aOneShotBodyIsNeverSentTwice() async {
        let request = HTTPRequest(
            method: .put,
            url: Failures.url,
            body: HTTPBody(length: nil, producer: AsyncThrowingStream<Data, any Error> { $0.finish() })
        )
        #expect(await decision(RetryPolicy(), Failures.refused(503), request: request).retryRequired == false)
    }

    @Test func retryAfterReplacesTheBackoffUpToItsCapMeasuredFromTheClocksDate() async {
        let now = Date(timeIntervalSince1970: 1_000_000_000)  // Sun, 09 Sep 2001 01:46:40 GMT
        let policy = RetryPolicy(clock: StoppedClock(now: .now, date: now))
        #expect(await decision(policy, Failures.refused(503, headers: [("Retry-After", "7")])).delay == .seconds(7))
        #expect(await decision(policy, Failures.refused(503, headers: [("Retry-After", "120")])).delay == nil)
        let inThirty = [("Retry-After", "Sun, 09 Sep 2001 01:47:10 GMT")]
        #expect(await decision(policy, Failures.refused(503, headers: inThirty)).delay == .seconds(30))
        let past = [("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]
        #expect(await decision(policy, Failures.refused(503, headers: past)).delay == .zero)
        let tooFar = [("Retry-After", "Sun, 09 Sep 2001 01:48:41 GMT")]
        #expect(await decision(policy, Failures.refused(503, headers: tooFar)).delay == nil)
    }

    @Test func theStaticMemberIsTheDefaultPolicy() async {
        let interceptor: any RequestInterceptor = .retryPolicy
        let decision = await interceptor.retry(get, dueTo: Failures.refused(503), attempt: Failures.attempt(retries: 1))
        #expect(decision.retryRequired)
        let exhausted = await interceptor.retry(
            get,
            dueTo: Failures.refused(503),
            attempt: Failures.attempt(retries: 2)
        )
        #expect(exhausted.retryRequired == false)
    }
}

@Suite struct ConnectionLostRetryPolicyTests {
    @Test func itRetriesALostConnectionAndNothingElse() async {
        let policy = ConnectionLostRetryPolicy(random: FixedRandomSource(value: 0))
        let request = HTTPRequest(url: Failures.url)
        func decision(_ failure: AttemptFailure) async -> RetryDecision {
            await policy.retry(request, dueTo: failure, attempt: Failures.attempt(retries: 0))
        }
        #expect(await decision(Failures.transport(.connectionLost)).delay == .milliseconds(250))
        for category in [TransportError.Category.timedOut, .cannotConnect, .nameResolutionFailed, .protocolViolation] {
            #expect(await decision(Failures.transport(category)).retryRequired == false, "\(category)")
        }
        for status in [408, 500, 503] {
            #expect(await decision(Failures.refused(status)).retryRequired == false, "\(status)")
        }
        let post = HTTPRequest(method: .post, url: Failures.url)
        let postDecision = await policy.retry(
            post,
            dueTo: Failures.transport(.connectionLost),
            attempt: Failures.attempt(retries: 0)
        )
        #expect(postDecision.retryRequired == false)
    }

    @Test func itsDefaultsAreAlamofiresAndItTakesCustomValues() {
        let preset = ConnectionLostRetryPolicy.connectionLostRetryPolicy.policy
        #expect(preset.retryLimit == 2)
        #expect(preset.exponentialBackoffBase == 2)
        #expect(preset.exponentialBackoffScale == 0.5)
        #expect(preset.retryableMethods == RetryPolicy.defaultRetryableMethods)
        #expect(preset.retryableStatusCodes.isEmpty)
        #expect(preset.retryableCategories == [.connectionLost])

        let custom = ConnectionLostRetryPolicy(
            retryLimit: 3,
            exponentialBackoffBase: 4,
            exponentialBackoffScale: 0.25,
            retryableMethods: [.delete, .get]
        ).policy
        #expect(custom.retryLimit == 3)
        #expect(custom.exponentialBackoffBase == 4)
        #expect(custom.exponentialBackoffScale == 0.25)
        #expect(custom.retryableMethods == [.delete, .get])
        #expect(custom.retryableCategories == [.connectionLost])
    }

    @Test func theRetryLimitStopsIt() async {
        let policy = ConnectionLostRetryPolicy(retryLimit: 1)
        let request = HTTPRequest(url: Failures.url)
        let second = await policy.retry(
            request,
            dueTo: Failures.transport(.connectionLost),
            attempt: Failures.attempt(retries: 1)
        )
        #expect(second.retryRequired == false)
    }
}
