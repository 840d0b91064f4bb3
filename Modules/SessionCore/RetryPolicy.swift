public import CourierHTTP
public import CourierTransport
internal import FoundationEssentials

/// The default retrier: a few retries of idempotent requests after transient failures, with
/// exponential backoff, honouring `Retry-After` (Alamofire's `RetryPolicy`).
///
/// Alamofire's defaults: 2 retries; the delay before retry *n* (counting from 0, the request's
/// retries so far) is `scale × base^n`, so 0.5 s then 1 s; only idempotent methods (RFC 9110
/// §9.2.2: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`); the statuses 408, 500, 502, 503
/// and 504, judged first, whatever failed after the response arrived; and the transport failures
/// that Alamofire's `defaultRetryableURLErrorCodes` retry, where Courier's categories can say them
/// (``defaultRetryableCategories``).
///
/// What Courier does differently, on purpose:
/// - **Equal jitter**: the delay is half fixed and half drawn from ``random`` (so 0.25–0.5 s, then
///   0.5–1 s), so that many clients that failed together do not retry together. Alamofire waits
///   the exact backoff. A ``SeededRandomSource`` makes the delays repeatable.
/// - **`Retry-After`** (RFC 9110 §10.2.3) on a response replaces the backoff, up to
///   ``maximumRetryAfter`` (60 s); a longer one means no retry. A date is measured from
///   ``clock``'s wall-clock `date`. Alamofire ignores the field.
/// - **A one-shot body** (an async producer) is never sent twice, whatever the method.
/// - **TLS failures are not retried**: Alamofire retries `secureConnectionFailed` and the two
///   certificate-date errors; Courier's `tlsFailed` also covers a bad CA
///   file, client certificate or cipher list, which a retry cannot fix, and
///   `serverTrustFailed` is never retried, so that a rejected
///   certificate is reported at once. Add them to ``retryableCategories`` to retry them.
///
/// ```swift
/// var policy = RetryPolicy(retryLimit: 4)
/// policy.retryableMethods.insert(.post)  // the server deduplicates by Idempotency-Key
/// let session = SessionManager(transport: transport, interceptor: policy)
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// Alamofire's `defaultRetryLimit`: 2.
    public static let defaultRetryLimit = 2
    /// Alamofire's `defaultExponentialBackoffBase`: 2.
    public static let defaultExponentialBackoffBase = 2.0
    /// Alamofire's `defaultExponentialBackoffScale`: 0.5 s.
    public static let defaultExponentialBackoffScale = 0.5
    /// Alamofire's `defaultRetryableHTTPMethods`: the idempotent methods of RFC 9110 §9.2.2.
    public static let defaultRetryableMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
    /// Alamofire's `defaultRetryableHTTPStatusCodes`: 408, 500, 502, 503 and 504.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// Alamofire's `defaultRetryableURLErrorCodes` in Courier's categories.
    ///
    /// | Alamofire's `URLError` | Courier's category |
    /// | --- | --- |
    /// | `timedOut` | `timedOut` |
    /// | `cannotFindHost`, `dnsLookupFailed` | `nameResolutionFailed` |
    /// | `cannotConnectToHost`, `notConnectedToInternet` | `cannotConnect`, `proxyFailed` (both -1004) |
    /// | `networkConnectionLost` | `connectionLost` |
    /// | `badServerResponse` | `protocolViolation` (-1011) |
    ///
    /// Not retried: `secureConnectionFailed`, `serverCertificateHasBadDate` and
    /// `serverCertificateNotYetValid` (see the type's discussion); `cannotLoadFromNetwork`, because
    /// Courier's cache-only miss (`SessionError.Kind.notCached`) is the cache's answer, not a
    /// transport failure, and asking the same cache again half a second later answers the same;
    /// `downloadDecodingFailedMidStream` and `downloadDecodingFailedToComplete`, because Courier's
    /// `contentDecodingFailed` is also Alamofire's `cannotDecodeContentData`,
    /// which Alamofire does not retry; and the Apple platform codes (`callIsActive`,
    /// `dataNotAllowed`, `internationalRoamingOff`, the background-session codes), which Linux
    /// never reports.
    public static let defaultRetryableCategories: Set<TransportError.Category> = TransportError.Category.transient
        .union([.proxyFailed, .protocolViolation])

    /// Retries after the first attempt.
    public var retryLimit: Int
    /// The growth factor of the backoff.
    public var exponentialBackoffBase: Double
    /// The first retry's delay, in seconds, before jitter.
    public var exponentialBackoffScale: Double
    /// The methods that are retried.
    public var retryableMethods: Set<HTTPMethod>
    /// The response statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried.
    public var retryableCategories: Set<TransportError.Category>
    /// The longest `Retry-After` honoured; a longer one means no retry.
    public var maximumRetryAfter: Duration
    /// Where the policy reads the date that a `Retry-After` date is measured from.
    public var clock: any SessionClock
    /// Where the jitter comes from.
    public var random: any RandomSource

    /// Creates a policy; the defaults are Alamofire's, with equal jitter and `Retry-After`.
    ///
    /// ```swift
    /// let policy = RetryPolicy(retryLimit: 3, random: SeededRandomSource(seed: 1))
    /// ```
    /// - Parameters:
    ///   - retryLimit: Retries after the first attempt; 2 by default.
    ///   - exponentialBackoffBase: The growth factor of the backoff; 2 by default.
    ///   - exponentialBackoffScale: The first retry's delay in seconds, before jitter; 0.5 by default.
    ///   - retryableMethods: The methods that are retried; the idempotent ones by default.
    ///   - retryableStatusCodes: The statuses that are retried; 408, 500, 502, 503, 504 by default.
    ///   - retryableCategories: The transport failures that are retried;
    ///     ``defaultRetryableCategories`` by default.
    ///   - maximumRetryAfter: The longest `Retry-After` honoured; 60 s by default.
    ///   - clock: Where the wall-clock date for `Retry-After` dates comes from; the system's by default.
    ///   - random: Where the jitter comes from; the system's generator by default.
    public init(
        retryLimit: Int = RetryPolicy.defaultRetryLimit,
        exponentialBackoffBase: Double = RetryPolicy.defaultExponentialBackoffBase,
        exponentialBackoffScale: Double = RetryPolicy.defaultExponentialBackoffScale,
        retryableMethods: Set<HTTPMethod> = RetryPolicy.defaultRetryableMethods,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
        retryableCategories: Set<TransportError.Category> = RetryPolicy.defaultRetryableCategories,
        maximumRetryAfter: Duration = .seconds(60),
        clock: any SessionClock = .system,
        random: any RandomSource = SystemRandomSource()
    ) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableCategories = retryableCategories
        self.maximumRetryAfter = maximumRetryAfter
        self.clock = clock
        self.random = random
    }

    /// Whether to retry, and after how long.
    ///
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - failure: The transport error or the refused response.
    ///   - attempt: Which attempt it was.
    /// - Returns: ``RetryDecision/retryAfter(_:)`` with the backoff or `Retry-After` delay, or
    ///   ``RetryDecision/doNotRetry``.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        guard attempt.retryCount < retryLimit, retryableMethods.contains(request.method), request.body.isReplayable,
            isRetryable(failure)
        else { return .doNotRetry }
        if let response = failure.response, let asked = RetryAfter.delay(in: response, now: clock.date) {
            return asked <= maximumRetryAfter ? .retryAfter(asked) : .doNotRetry
        }
        return .retryAfter(backoff(afterRetries: attempt.retryCount))
    }

    /// The delay before the retry that follows `retries` earlier ones: `scale × base^retries`
    /// (Alamofire's), half of it fixed and half drawn from ``random``.
    ///
    /// ```swift
    /// let policy = RetryPolicy(random: SeededRandomSource(seed: 1))
    /// print(policy.backoff(afterRetries: 0))  // between 0.25 s and 0.5 s
    /// ```
    /// - Parameter retries: The retries made so far (0 before the first retry).
    /// - Returns: The delay.
    public func backoff(afterRetries retries: Int) -> Duration {
        var seconds = exponentialBackoffScale
        for _ in 0..<max(0, retries) { seconds *= exponentialBackoffBase }
        let full = Duration.milliseconds(Int64(seconds * 1000))
        return full / 2 + full / 2 * random.nextUnitInterval()
    }

    /// Alamofire's order: a retryable status decides first, whatever failed after it arrived (a
    /// `503` whose body was cut off is still a `503`); then the transport failure's category.
    private func isRetryable(_ failure: AttemptFailure) -> Bool {
        if let status = failure.response?.status.code, retryableStatusCodes.contains(status) { return true }
        guard case .transport(let error) = failure, let category = error.transportError?.category else { return false }
        return retryableCategories.contains(category)
    }
}

extension RequestInterceptor where Self == RetryPolicy {
    /// The default ``RetryPolicy`` (Alamofire's `.retryPolicy`).
    ///
    /// ```swift
    /// let session = SessionManager(transport: transport, interceptor: .retryPolicy)
    /// ```
    public static var retryPolicy: RetryPolicy { RetryPolicy() }
}
