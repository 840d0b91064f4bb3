import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierTesting
import CourierTransport
import Foundation
import Testing

@testable import CourierSessionEngine

/// The task runner's steps, one at a time, over MockTransport and a ManualClock.
@Suite struct TaskRunnerStepTests {
    let url = URL(string: "https://api.test/items")!
    let clock = ManualClock()
    let transport = MockTransport()
    let events = EventLog()

    var configuration: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.clock = clock
        return configuration
    }

    func runner(
        interceptor: (any RequestInterceptor)? = nil,
        configuration: SessionConfiguration? = nil
    ) -> TaskRunner {
        let events = events
        let sink = EventSink(listeners: EventListeners(hasMonitors: true)) { event in
            events.record(event)
        }
        let task = SessionTask(
            identifier: 1,
            request: HTTPRequest(url: url),
            hooks: .init(start: { _ in nil }, report: sink, cancelBeforeStart: { _ in })
        )
        task.resume()
        return TaskRunner(
            task: task,
            transport: transport,
            options: TransferOptions(),
            interceptor: interceptor,
            redirectHandler: Redirector.follow,
            configuration: configuration ?? self.configuration,
            progress: .none,
            report: sink
        )
    }

    func progress(deadline: Duration? = nil) -> TaskRunner.Progress {
        let request = HTTPRequest(url: url)
        return TaskRunner.Progress(
            request: request,
            result: TaskRunner.Result(request: request),
            visited: [url],
            deadline: deadline.map { clock.now + $0 }
        )
    }

    var context: AttemptContext { AttemptContext(taskIdentifier: 1, retryCount: 0, redirectCount: 0) }

    // MARK: adapt

    @Test func adaptGivesTheAttemptTheDeadlinesRemainder() async throws {
        let deadline = clock.now + .seconds(10)
        clock.advance(by: .seconds(4))

        let adapted = try await runner().adapt(HTTPRequest(url: url), context: context, deadline: deadline).get()

        #expect(adapted.timeout == .seconds(6))
    }

    @Test func adaptEndsATaskPastItsDeadline() async {
        let deadline = clock.now + .seconds(1)
        clock.advance(by: .seconds(1))

        let result = await runner().adapt(HTTPRequest(url: url), context: context, deadline: deadline)

        #expect(result.failure?.kind == .deadlineExceeded)
    }

    @Test func adaptWrapsAnAdaptersError() async {
        let result = await runner(interceptor: Throwing()).adapt(HTTPRequest(url: url), context: context, deadline: nil)

        #expect(result.failure?.kind == .adaptationFailed)
        #expect(result.failure?.underlying is Throwing.Refusal)
    }

    // MARK: lookUp

    @Test func lookUpWithoutACacheSendsTheRequest() async {
        let lookup = await runner().lookUp(HTTPRequest(url: url), bypassing: false)

        guard case .send(let request, let stored) = lookup else {
            Issue.record("expected .send, got \(lookup)")
            return
        }
        #expect(request.url == url)
        #expect(stored == nil)
    }

    @Test func lookUpEndsACacheOnlyRequestThatNothingAnswers() async {
        var configuration = configuration
        configuration.cache = NothingStored()

        let lookup = await runner(configuration: configuration).lookUp(HTTPRequest(url: url), bypassing: false)
        let bypassed = await runner(configuration: configuration).lookUp(HTTPRequest(url: url), bypassing: true)

        guard case .failed(let error) = lookup, case .send = bypassed else {
            Issue.record("expected .failed and .send, got \(lookup) and \(bypassed)")
            return
        }
        #expect(error.kind == .notCached)
        #expect(error.urlErrorCode == -1008)
    }

    // MARK: send and receive

    @Test func sendReadsOneTransferToItsEnd() async throws {
        transport.stub(url: url.absoluteString, reply: .init(status: 201, body: Data("made".utf8)))
        let runner = runner()

        let outcome = try #require(await runner.send(HTTPRequest(url: url), progress: progress()))

        #expect(outcome.response?.status.code == 201)
        #expect(outcome.body == Data("made".utf8))
        #expect(transport.startedRequests.count == 1)
        #expect(events.kinds.starts(with: [.taskResumed, .requestStarted]))
    }

    @Test func receiveCallsATimeoutPastTheDeadlineTheDeadline() async {
        let timedOut = AttemptOutcome(transportError: TransportError(category: .timedOut, message: "slow"))
        let deadline = clock.now + .seconds(5)
        let runner = runner()

        let early = await runner.receive(timedOut, for: HTTPRequest(url: url), revalidating: nil, deadline: deadline)
        clock.advance(by: .seconds(5))
        let late = await runner.receive(timedOut, for: HTTPRequest(url: url), revalidating: nil, deadline: deadline)

        guard case .failed(.transport(let error)) = early, case .ended(let ended, _) = late else {
            Issue.record("expected a transport failure, then the deadline; got \(early) and \(late)")
            return
        }
        #expect(error.kind == .transport(.timedOut))
        #expect(ended.kind == .deadlineExceeded)
    }

    // MARK: judgement

    @Test func judgementRefusesAnUnacceptableStatusAsAValidationFailure() {
        let runner = runner()
        let judge = ResponseJudge.acceptableStatus.evaluate

        let refused = runner.judgement(
            of: HTTPResponse(status: HTTPStatus(code: 404)),
            body: nil,
            for: HTTPRequest(url: url),
            judging: judge
        )
        let accepted = runner.judgement(
            of: HTTPResponse(status: .ok),
            body: nil,
            for: HTTPRequest(url: url),
            judging: judge
        )

        guard case .validation(let error) = refused else {
            Issue.record("expected a validation failure, got \(String(describing: refused))")
            return
        }
        #expect(error.urlErrorCode == -1011)
        #expect(accepted == nil)
    }

    // MARK: retryOrFinish and wait

    @Test func retryOrFinishWaitsTheRetriersDelayOnTheSessionsClock() async throws {
        let runner = runner(interceptor: Retrying(delay: .seconds(2)))
        let failure = AttemptFailure.transport(.cancelled(url))
        let step = Task { [context] in
            var progress = progress()
            let step = await runner.retryOrFinish(
                after: failure,
                of: HTTPRequest(url: url),
                context: context,
                progress: &progress
            )
            return (step, progress.result.retryCount)
        }

        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(1_999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let (outcome, retryCount) = await step.value

        guard case .again = outcome else {
            Issue.record("expected .again, got \(outcome)")
            return
        }
        #expect(retryCount == 1)
        #expect(events.kinds == [.taskResumed, .retryScheduled])
    }

    @Test func waitRefusesADelayThatWouldPassTheDeadlineWithoutSleeping() async {
        let error = await runner().wait(.seconds(3), for: url, deadline: clock.now + .seconds(3))

        #expect(error?.kind == .deadlineExceeded)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledWaitEndsTheTask() async {
        let runner = runner()
        let waiting = Task { [url] in await runner.wait(.seconds(60), for: url, deadline: nil) }
        await clock.waitForSleepers(1)

        waiting.cancel()

        #expect(await waiting.value?.kind == .cancelled)
        #expect(clock.elapsed == .zero)
    }

    // MARK: resolve

    @Test func resolveListsTheVisitedURLsAtTheRedirectLimit() async throws {
        var configuration = configuration
        configuration.maximumRedirects = 2
        let visited = try [
            url, #require(URL(string: "https://api.test/b")), #require(URL(string: "https://api.test/c")),
        ]
        let target = try #require(URL(string: "https://api.test/d"))

        let resolution = await runner(configuration: configuration).resolve(
            redirect: HTTPResponse(status: HTTPStatus(code: 302)),
            to: target,
            from: HTTPRequest(url: visited[2]),
            followed: 2,
            visited: visited
        )

        guard case .fail(let error) = resolution else {
            Issue.record("expected a failure, got \(resolution)")
            return
        }
        #expect(error.kind == .redirect(.tooManyRedirects(limit: 2, visited: visited)))
        #expect(error.urlErrorCode == -1007)
        #expect(error.message.hasSuffix("https://api.test/c -> https://api.test/d"))
    }

    @Test func resolveAppliesTheRedirectRulesBeforeTheLimit() async throws {
        let target = try #require(URL(string: "ftp://api.test/file"))

        let resolution = await runner().resolve(
            redirect: HTTPResponse(status: HTTPStatus(code: 302)),
            to: target,
            from: HTTPRequest(url: url),
            followed: 0,
            visited: [url]
        )

        guard case .fail(let error) = resolution else {
            Issue.record("expected a failure, got \(resolution)")
            return
        }
        #expect(error.kind == .redirect(.disallowedScheme("ftp")))
    }

    // MARK: The steps together, through a session

    @Test func aRetryPolicysDelayIsWaitedOnTheSessionsClock() async throws {
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("ok".utf8)))
        transport.stub(url: url.absoluteString, reply: .init(status: 503), times: 1)
        /// The top of the jitter range, so the delay is the whole backoff.
        struct WholeDelay: RandomSource {
            func nextUnitInterval() -> Double { 1 }
        }
        var policy = RetryPolicy()
        policy.random = WholeDelay()
        let session = SessionManager(transport: transport, configuration: configuration, interceptor: policy)
        let call = Task { [url] in
            await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        }

        await clock.waitForSleepers(1)  // the 503 came back; 0.5 s of backoff
        #expect(transport.startedRequests.count == 1)
        clock.advance(by: .milliseconds(499))
        #expect(transport.startedRequests.count == 1)
        clock.advance(by: .milliseconds(1))
        let response = await call.value

        #expect(response.response?.status.code == 200)
        #expect(response.retryCount == 1)
        #expect(transport.startedRequests.count == 2)
        await session.shutdown()
    }

    @Test(.timeLimit(.minutes(1))) func invalidatingTheSessionEndsACallersRetryDelayAtOnce() async throws {
        // `response(for:)` runs its runner in the caller's task: the session's cancel cannot
        // cancel that task, so the delay's sleep must be reachable through the task itself.
        transport.stub(url: url.absoluteString, reply: .init(status: 503))
        let session = SessionManager(transport: transport, configuration: configuration, interceptor: RetryPolicy())
        let call = Task { [url] in
            await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        }
        await clock.waitForSleepers(1)

        await session.invalidate(cancelingTasks: true)
        let response = await call.value

        #expect(response.error?.kind == .cancelled)
        #expect(clock.elapsed == .zero)
        #expect(transport.startedRequests.count == 1)
        #expect(!call.isCancelled)
        await session.shutdown()
    }

    @Test func theCallerRunsItsOwnRequestsRunner() async throws {
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("ok".utf8)))
        /// Records which Swift task the adapter ran in.
        final class TaskRecorder: RequestInterceptor {
            let seen = Lock<Int?>(nil)
            func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
                let current = withUnsafeCurrentTask { $0?.hashValue }
                seen.withLock { $0 = current }
                return request
            }
        }
        let recorder = TaskRecorder()
        let session = SessionManager(transport: transport, configuration: configuration, interceptor: recorder)

        let caller = withUnsafeCurrentTask { $0?.hashValue }
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())

        #expect(response.value == Data("ok".utf8))
        #expect(caller != nil)
        #expect(recorder.seen.withLock { $0 } == caller)
        await session.shutdown()
    }

    @Test func theDeadlineAcrossRetriesIsMeasuredOnTheSessionsClock() async throws {
        transport.stub(url: url.absoluteString, reply: .init(status: 503))
        var configuration = configuration
        configuration.deadline = .seconds(10)
        let session = SessionManager(
            transport: transport,
            configuration: configuration,
            interceptor: Retrying(delay: .seconds(3))
        )
        let call = Task { [url] in
            await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        }

        for _ in 0..<3 {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(3))
        }
        let response = await call.value

        // At 9 s a fourth wait of 3 s would pass the 10 s deadline: the task ends without it.
        #expect(response.error?.kind == .deadlineExceeded)
        #expect(response.error?.urlErrorCode == -1001)
        #expect(transport.startedRequests.count == 4)
        #expect(clock.elapsed == .seconds(9))
        await session.shutdown()
    }

    @Test func theRedirectLimitListsTheVisitedURLsThroughASession() async throws {
        let second = try #require(URL(string: "https://api.test/second"))
        transport.stub(url: url.absoluteString, reply: .redirect(to: second))
        transport.stub(url: second.absoluteString, reply: .redirect(to: url))
        var configuration = configuration
        configuration.maximumRedirects = 3
        let session = SessionManager(transport: transport, configuration: configuration)

        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())

        #expect(response.error?.kind == .redirect(.tooManyRedirects(limit: 3, visited: [url, second, url, second])))
        #expect(transport.startedRequests.map(\.url) == [url, second, url, second])
        await session.shutdown()
    }
}

/// An adapter that refuses every request.
private struct Throwing: RequestInterceptor {
    struct Refusal: Error {}

    func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        throw Refusal()
    }
}

/// A retrier that always retries after `delay`.
private struct Retrying: RequestInterceptor {
    let delay: Duration

    func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async -> RetryDecision {
        .retryAfter(delay)
    }
}

/// A cache with nothing stored, which a cache-only request cannot use.
private struct NothingStored: ResponseCaching {
    func lookup(_ request: HTTPRequest) async -> CacheLookup { .notCached }

    func receive(
        _ response: HTTPResponse,
        body: Data,
        for request: HTTPRequest,
        revalidating stored: CachedResponse?,
        metrics: TransferMetrics?
    ) async -> CacheUpdate {
        .use(CachedResponse(response: response, body: body), .miss)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

/// The events a runner reported, in order.
final class EventLog: Sendable {
    private let events = Lock<[SessionEvent]>([])

    func record(_ event: SessionEvent) { events.withLock { $0.append(event) } }

    var kinds: [SessionEvent.Kind] { events.withLock { $0.map(\.kind) } }
}
