internal import CourierHTTP
internal import CourierSerialization
internal import CourierSessionCore

extension MockSession {
    /// The outcome of one answered attempt, and the failure a retrier would be asked about.
    struct AnsweredAttempt<Response: Sendable>: Sendable {
        var response: Response
        var failure: AttemptFailure?
    }

    /// Runs `attempt` as a session runs a request with a per-request interceptor: adapted before
    /// each attempt, and its retrier asked about each failure, so that an app's code that passes
    /// `RequestOptions.interceptor` sees the same adapter calls and retries in its tests. Delays
    /// that a retrier asks for are not waited: a double answers at once.
    ///
    /// - Returns: The last attempt's response, or `failed`'s when an adapter threw or a retrier
    ///   ended the call with its own error.
    func intercepted<Response: Sendable>(
        _ request: HTTPRequest,
        interceptor: (any RequestInterceptor)?,
        attempt: (HTTPRequest) async -> AnsweredAttempt<Response>,
        failed: (HTTPRequest, SessionError) -> Response
    ) async -> Response {
        guard let interceptor else { return await attempt(request).response }
        var retryCount = 0
        while true {
            let context = AttemptContext(taskIdentifier: 0, retryCount: retryCount, redirectCount: 0)
            let adapted: HTTPRequest
            do {
                adapted = try await interceptor.adapt(request, for: context)
            } catch {
                let failure = SessionError.adaptationFailed(error, url: request.url)
                return failed(request, failure)
            }
            let answered = await attempt(adapted)
            guard let failure = answered.failure else { return answered.response }
            switch await interceptor.retry(adapted, dueTo: failure, attempt: context) {
            case .doNotRetry:
                return answered.response
            case .doNotRetryWithError(let error):
                let ended = SessionError.retryFailed(error, url: adapted.url, after: failure)
                return failed(adapted, ended)
            case .retry, .retryAfter:
                retryCount += 1
            }
        }
    }
}
