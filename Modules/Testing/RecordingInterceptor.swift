public import CourierHTTP
internal import CourierLocking
public import CourierSessionCore

/// A request interceptor that records what the session asked it and answers from a script.
///
/// It adapts with the given closure (no change by default) and answers retry questions with the
/// scripted `retryDecisions` in order, then `.doNotRetry`. Pass it as the session's interceptor (or
/// inside an `Interceptor`, beside the app's own) to see each attempt the real session pipeline
/// makes over a ``MockTransport``.
///
/// ```swift
/// let interceptor = RecordingInterceptor(retryDecisions: [.retry])
/// let session = SessionManager(transport: transport, interceptor: interceptor)
/// _ = await session.data(for: request)
/// #expect(interceptor.adaptations.map(\.attempt.retryCount) == [0, 1])
/// #expect(interceptor.retryQuestions.first?.failure.response?.status.code == 503)
/// ```
public final class RecordingInterceptor: RequestInterceptor {
    /// One call of ``adapt(_:for:)``.
    public struct Adaptation: Sendable {
        /// The request the session handed in, before adapting.
        public let request: HTTPRequest
        /// Which task, attempt and redirect hop.
        public let attempt: AttemptContext
    }

    /// One call of ``retry(_:dueTo:attempt:)``.
    public struct RetryQuestion: Sendable {
        /// The request of the attempt that failed.
        public let request: HTTPRequest
        /// What went wrong.
        public let failure: AttemptFailure
        /// Which task and attempt.
        public let attempt: AttemptContext
        /// What the interceptor answered.
        public let decision: RetryDecision
    }

    /// Changes a request for an attempt.
    public typealias Adapt = @Sendable (HTTPRequest, AttemptContext) async throws -> HTTPRequest

    private struct State {
        var retryDecisions: [RetryDecision]
        var adaptations: [Adaptation] = []
        var retryQuestions: [RetryQuestion] = []
    }

    private let state: Lock<State>
    private let adaptRequest: Adapt?

    /// Creates an interceptor.
    ///
    /// ```swift
    /// let signing = RecordingInterceptor { request, _ in
    ///     var request = request
    ///     try request.headers.set(name: "Authorization", value: "Bearer t0k3n")
    ///     return request
    /// }
    /// ```
    /// - Parameters:
    ///   - retryDecisions: The answers to the first retry questions, in order; `.doNotRetry` after.
    ///   - adapt: Changes each request; `nil` sends it unchanged. A thrown error ends the task.
    public init(retryDecisions: [RetryDecision] = [], adapt: Adapt? = nil) {
        state = Lock(State(retryDecisions: retryDecisions))
        adaptRequest = adapt
    }

    /// Every adaptation asked for, in order.
    public var adaptations: [Adaptation] { state.withLock { $0.adaptations } }

    /// Every retry question asked, in order, with the answers given.
    public var retryQuestions: [RetryQuestion] { state.withLock { $0.retryQuestions } }

    /// Records the call, then adapts with the closure given at creation.
    ///
    /// - Parameters:
    ///   - request: The request as the session would send it.
    ///   - attempt: Which task, attempt and hop.
    /// - Returns: The request to send.
    /// - Throws: What the closure throws.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        state.withLock { $0.adaptations.append(Adaptation(request: request, attempt: attempt)) }
        return try await adaptRequest?(request, attempt) ?? request
    }

    /// Records the question and answers with the next scripted decision, else `.doNotRetry`.
    ///
    /// - Parameters:
    ///   - request: The request of the failed attempt.
    ///   - failure: What went wrong.
    ///   - attempt: Which task and attempt.
    /// - Returns: The decision.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        state.withLock { state in
            let decision = state.retryDecisions.isEmpty ? .doNotRetry : state.retryDecisions.removeFirst()
            state.retryQuestions.append(
                RetryQuestion(request: request, failure: failure, attempt: attempt, decision: decision)
            )
            return decision
        }
    }
}
