public import CourierHTTP
internal import CourierTransport

/// A retry policy that retries idempotent requests only when the connection was lost under them
/// (Alamofire's `ConnectionLostRetryPolicy`).
///
/// A reused keep-alive connection that the server closed as the request went out fails with a lost
/// connection (Apple's technical Q&A QA1941 describes the same race for URLSession); sending the
/// request again on a new connection almost always succeeds. This policy retries that failure and
/// nothing else: no status, no timeout, no name-resolution failure. It is a ``RetryPolicy`` whose
/// statuses are empty and whose only category is `connectionLost`, with
/// the same backoff, jitter, `Retry-After` handling and one-shot-body rule.
///
/// ```swift
/// let session = SessionManager(transport: transport, interceptor: ConnectionLostRetryPolicy())
/// ```
public struct ConnectionLostRetryPolicy: RequestInterceptor {
    /// The policy it applies.
    public let policy: RetryPolicy

    /// Creates the policy.
    ///
    /// ```swift
    /// let policy = ConnectionLostRetryPolicy(retryLimit: 1, retryableMethods: [.get])
    /// ```
    /// - Parameters:
    ///   - retryLimit: Retries after the first attempt; 2 by default.
    ///   - exponentialBackoffBase: The growth factor of the backoff; 2 by default.
    ///   - exponentialBackoffScale: The first retry's delay in seconds, before jitter; 0.5 by default.
    ///   - retryableMethods: The methods that are retried; the idempotent ones by default.
    ///   - clock: Where the wall-clock date for `Retry-After` dates comes from; the system's by default.
    ///   - random: Where the jitter comes from; the system's generator by default.
    public init(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Double = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableMethods,
        clock: any SessionClock = .system,
        random: any RandomSource = SystemRandomSource()
    ) {
        policy = RetryPolicy(
            retryLimit: retryLimit,
            exponentialBackoffBase: exponentialBackoffBase,
            exponentialBackoffScale: exponentialBackoffScale,
            retryableMethods: retryableMethods,
            retryableStatusCodes: [],
            retryableCategories: [.connectionLost],
            clock: clock,
            random: random
        )
    }

    /// Retries a lost connection, after the policy's backoff.
    ///
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - failure: What went wrong.
    ///   - attempt: Which attempt it was.
    /// - Returns: ``RetryDecision/retryAfter(_:)`` for a lost connection within the limit, else
    ///   ``RetryDecision/doNotRetry``.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        await policy.retry(request, dueTo: failure, attempt: attempt)
    }
}

extension RequestInterceptor where Self == ConnectionLostRetryPolicy {
    /// The default ``ConnectionLostRetryPolicy`` (Alamofire's `.connectionLostRetryPolicy`).
    ///
    /// ```swift
    /// let session = SessionManager(transport: transport, interceptor: .connectionLostRetryPolicy)
    /// ```
    public static var connectionLostRetryPolicy: ConnectionLostRetryPolicy { ConnectionLostRetryPolicy() }
}
