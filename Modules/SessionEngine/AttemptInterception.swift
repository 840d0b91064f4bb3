internal import CourierHTTP
internal import CourierSessionCore
internal import FoundationEssentials

/// The interceptor's steps around one attempt, shared by a task's runner and a WebSocket's
/// handshake: adapt the request (then give it the deadline's share of the timeout), and after a
/// failure ask the retriers.
struct AttemptInterception: Sendable {
    /// The interceptor composed for this task or handshake, when any.
    let interceptor: (any RequestInterceptor)?
    /// The session's clock and whole-call deadline: all of its configuration the steps read, so
    /// that making one does not copy the rest.
    let clock: any SessionClock
    let deadline: Duration?

    init(interceptor: (any RequestInterceptor)?, configuration: SessionConfiguration) {
        self.interceptor = interceptor
        clock = configuration.clock
        deadline = configuration.deadline
    }

    /// What the retriers decided about a failed attempt.
    enum Verdict: Sendable {
        /// Send the request again after this delay (zero for at once).
        case retry(after: Duration)
        /// The attempt's outcome stands.
        case finish
        /// End with this error (a retrier's own).
        case fail(SessionError)
    }

    /// The deadline of a call starting now, when the session has one.
    func deadlineFromNow() -> ContinuousClock.Instant? {
        deadline.map { clock.now + $0 }
    }

    /// The adapters' request, with a timeout that ends by the deadline.
    func adapt(
        _ request: HTTPRequest,
        context: AttemptContext,
        deadline: ContinuousClock.Instant?
    ) async -> Result<HTTPRequest, SessionError> {
        var adapted: HTTPRequest
        do {
            adapted = try await interceptor?.adapt(request, for: context) ?? request
        } catch {
            return .failure(.adaptationFailed(error, url: request.url))
        }
        if let deadline {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return .failure(Self.deadlineExceeded(request.url)) }
            adapted.timeout = min(adapted.timeout ?? remaining, remaining)
        }
        return .success(adapted)
    }

    /// Asks the retriers about `failure` (Alamofire's order: the first that does not answer
    /// `doNotRetry` decides). The caller waits the delay its own way (a task on its own sleep).
    func retry(
        _ request: HTTPRequest,
        dueTo failure: AttemptFailure,
        context: AttemptContext
    ) async -> Verdict {
        let decision = await interceptor?.retry(request, dueTo: failure, attempt: context) ?? .doNotRetry
        switch decision {
        case .doNotRetry:
            return .finish
        case .doNotRetryWithError(let error):
            return .fail(.retryFailed(error, url: request.url, after: failure))
        case .retry, .retryAfter:
            return .retry(after: decision.delay ?? .zero)
        }
    }

    /// Waits before a retry on the session's clock, in the calling task (a WebSocket's handshake:
    /// cancelling the caller ends the wait); the error that ends the call instead, if any.
    func wait(_ delay: Duration, for url: URL, deadline: ContinuousClock.Instant?) async -> SessionError? {
        if let deadline, clock.now + delay >= deadline { return Self.deadlineExceeded(url) }
        guard delay > .zero else { return nil }
        do {
            try await clock.sleep(for: delay)
        } catch {
            return .cancelled(url)
        }
        return nil
    }

    static func deadlineExceeded(_ url: URL) -> SessionError {
        SessionError(kind: .deadlineExceeded, message: "the call passed its deadline", failingURL: url)
    }
}
