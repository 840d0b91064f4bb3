public import CourierHTTP
public import CourierTransport
internal import FoundationEssentials

/// The default retrier: a few retries of idempotent requests after transient failures, with
/// exponential backoff and jitter, honouring `Retry-After`.
///
/// Defaults: 2 retries; delays of `scale × base^retry` (0.5 s, then 1 s) with equal jitter (half
/// the delay fixed, half random); only idempotent methods (RFC 9110 §9.2.2); the statuses 408, 500,
/// 502, 503 and 504; and the transport failures timed out, cannot connect, connection lost and name
/// resolution. Trust and TLS failures, cancellations and limits are never retried, nor is a request
/// whose body is one-shot. A `Retry-After` delay is honoured up to ``maximumRetryAfter`` (60 s);
/// a longer one means no retry.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.retryLimit = 4
/// policy.retryableMethods.insert(.post)  // the server deduplicates by Idempotency-Key
/// let session = SessionManager(transport: transport, interceptor: policy)
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// Retries after the first attempt.
    public var retryLimit = 2
    /// The growth factor of the backoff.
    public var exponentialBackoffBase = 2.0
    /// The first retry's delay, in seconds.
    public var exponentialBackoffScale = 0.5
    /// The methods that are retried.
    public var retryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
    /// The response statuses that are retried.
    public var retryableStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// The transport failures that are retried.
    public var retryableCategories: Set<TransportError.Category> = TransportError.Category.transient
    /// The longest `Retry-After` honoured; a longer one means no retry.
    public var maximumRetryAfter: Duration = .seconds(60)
    /// Spreads a delay so that many clients do not retry at once; the default keeps half of it and
    /// randomises the other half. Replace it in tests to make delays exact.
    public var jitter: @Sendable (Duration) -> Duration = { delay in
        delay / 2 + delay / 2 * Double.random(in: 0...1)
    }

    /// Creates the default policy.
    public init() {}

    /// Whether to retry, and after how long.
    ///
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - failure: The transport error or the response.
    ///   - attempt: Which attempt it was.
    /// - Returns: ``RetryDecision/retryAfter(_:)`` with the backoff or `Retry-After` delay, or
    ///   ``RetryDecision/doNotRetry``.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        guard attempt.retryCount < retryLimit, retryableMethods.contains(request.method), request.body.isReplayable,
            isRetryable(failure)
        else { return .doNotRetry }
        if let response = failure.response, let asked = RetryAfter.delay(in: response, now: Date()) {
            return asked <= maximumRetryAfter ? .retryAfter(asked) : .doNotRetry
        }
        var seconds = exponentialBackoffScale
        for _ in 0..<attempt.retryCount { seconds *= exponentialBackoffBase }
        return .retryAfter(jitter(.milliseconds(Int64(seconds * 1000))))
    }

    /// Alamofire's order: a retryable status decides first, whatever failed after it arrived (a
    /// `503` whose body was cut off is still a `503`); then the transport failure's category.
    private func isRetryable(_ failure: AttemptFailure) -> Bool {
        if let status = failure.response?.status.code, retryableStatusCodes.contains(status) { return true }
        guard case .transport(let error) = failure, let category = error.transportError?.category else { return false }
        return retryableCategories.contains(category)
    }
}
