import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct SessionRetryTests {
    private let url = URL(string: "https://api.example.com/flaky")!

    /// The default policy with zero delays, so tests never wait.
    private var immediate: RetryPolicy { RetryPolicy(exponentialBackoffScale: 0) }

    @Test func aServiceUnavailableIsRetriedUntilItSucceeds() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("ok".utf8)))
        transport.stub(url: url.absoluteString, reply: .init(status: 503), times: 1)
        let monitor = RecordingMonitor()
        let session = SessionManager(transport: transport, interceptor: immediate, eventMonitors: [monitor])

        let response = try await session.data(for: HTTPRequest(url: url))

        #expect(response.data == Data("ok".utf8))
        #expect(response.retryCount == 1)
        #expect(response.metrics.count == 2)
        #expect(transport.requests.count == 2)
        #expect(await monitor.kinds(until: .taskCompleted).contains(.retryScheduled))
    }

    @Test func retriesStopAtTheLimitWithTheLastOutcome() async {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .connectionLost, message: "reset"))
        )
        let response = await SessionManager(transport: transport, interceptor: immediate)
            .response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .transport(.connectionLost))
        #expect(response.retryCount == 2)
        #expect(transport.requests.count == 3)
    }

    @Test func neitherPostsNorTrustFailuresNorOneShotBodiesAreRetried() async {
        let cases: [(HTTPRequest, MockTransport.Reply)] = [
            (HTTPRequest(method: .post, url: url, body: HTTPBody(Data("x".utf8))), .init(status: 503)),
            (HTTPRequest(url: url), .init(error: TransportError(category: .serverTrustFailed, message: "pin"))),
            (
                HTTPRequest(
                    method: .put,
                    url: url,
                    body: HTTPBody(length: nil, producer: AsyncThrowingStream<Data, any Error> { $0.finish() })
                ),
                .init(status: 503)
            ),
        ]
        for (request, reply) in cases {
            let transport = MockTransport()
            transport.stub(url: url.absoluteString, reply: reply)
            let response = await SessionManager(transport: transport, interceptor: immediate)
                .response(for: request, serializer: DataResponseSerializer())
            #expect(response.retryCount == 0, "\(request.method) \(reply.steps)")
            #expect(transport.requests.count == 1)
        }
    }

    @Test func adaptersRunForEveryAttemptAndTheirFailureEndsTheTask() async throws {
        final class Counting: RequestAdapter {
            let count = Lock(0)
            func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
                var request = request
                try request.headers.set(name: "X-Attempt", value: String(attempt.retryCount))
                count.withLock { $0 += 1 }
                return request
            }
        }
        struct Failing: RequestAdapter {
            struct Expired: Error {}
            func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
                throw Expired()
            }
        }
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200))
        transport.stub(url: url.absoluteString, reply: .init(status: 503), times: 1)
        let counting = Counting()
        let interceptor = Interceptor(adapters: [counting], retriers: [immediate])
        _ = try await SessionManager(transport: transport, interceptor: interceptor).data(for: HTTPRequest(url: url))
        #expect(transport.requests.map { $0.request.headers["X-Attempt"] } == ["0", "1"])
        #expect(counting.count.withLock { $0 } == 2)

        let failed = await SessionManager(transport: transport, interceptor: Interceptor(adapters: [Failing()]))
            .response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(failed.error?.kind == .adaptationFailed)
        #expect(failed.error?.underlying is Failing.Expired)
    }

    @Test func aRetrierCanEndTheTaskWithItsOwnTypedErrorAndTheRefusalIntact() async {
        struct AccountLocked: Error {}
        struct GiveUp: RequestRetrier {
            func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
                -> RetryDecision
            { .doNotRetryWithError(AccountLocked()) }
        }
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 423))
        let response = await SessionManager(transport: transport, interceptor: Interceptor(retriers: [GiveUp()]))
            .response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .retryFailed)
        #expect(response.error?.underlying is AccountLocked)
        #expect(response.error?.originalError?.serialization?.contains(.unacceptableStatusCode) == true)
        #expect(response.response?.status.code == 423)
    }

    @Test func theWholeCallStopsAtItsDeadlineAcrossRetries() async {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 503))
        // A backoff of 30 to 60 s.
        let policy = RetryPolicy(exponentialBackoffScale: 60)
        var configuration = SessionConfiguration()
        configuration.deadline = .seconds(2)
        let started = ContinuousClock.now
        let response = await SessionManager(transport: transport, configuration: configuration, interceptor: policy)
            .response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .deadlineExceeded)
        #expect(response.error?.urlErrorCode == -1001)
        // Promptness is the behaviour: the 30 s backoff past the 2 s deadline must not be waited out.
        // The bound sits well below 30 s so that a loaded machine cannot fail it.
        #expect(started.duration(to: .now) < .seconds(20))
        #expect(transport.requests.first?.request.timeout.map { $0 <= .seconds(2) } == true)
    }
}
