public import CourierHTTP
public import FoundationEssentials

/// Changes a request before each attempt: adds a token, signs it, rewrites its URL.
///
/// Adapters run for every attempt (a retry is adapted again) and every redirect hop, in the order
/// they were composed. A thrown error ends the task with ``SessionError/Kind/adaptationFailed``.
///
/// ```swift
/// struct BearerToken: RequestAdapter {
///     let token: String
///     func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
///         var request = request
///         try request.headers.set(name: "Authorization", value: "Bearer \(token)")
///         return request
///     }
/// }
/// ```
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt.
    ///
    /// - Parameters:
    ///   - request: The request as the session would send it.
    ///   - attempt: Which task, attempt and hop this is.
    /// - Throws: Any error, which ends the task.
    func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest
}

/// Decides whether a failed attempt is tried again.
///
/// The session asks after a transport failure and after a response (so a retrier can retry a `503`);
/// ``RetryPolicy`` is the default. Retriers are asked in the order they were composed; the first that
/// does not answer ``RetryDecision/doNotRetry`` decides.
///
/// ```swift
/// struct RetryOnce: RequestRetrier {
///     func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async -> RetryDecision {
///         attempt.retryCount == 0 ? .retry : .doNotRetry
///     }
/// }
/// ```
public protocol RequestRetrier: Sendable {
    /// Whether to send `request` again.
    ///
    /// - Parameters:
    ///   - request: The request of the attempt that failed, as adapted.
    ///   - failure: What went wrong: a transport error, or a response the retrier may not accept.
    ///   - attempt: Which task and attempt this was.
    /// - Returns: The decision.
    func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async -> RetryDecision
}

/// Both halves: an adapter and a retrier, as Alamofire's `RequestInterceptor`.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestAdapter {
    /// Adapts nothing.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest { request }
}

extension RequestRetrier {
    /// Retries nothing.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    { .doNotRetry }
}

/// Which attempt of which task an interceptor is looking at.
public struct AttemptContext: Sendable, Hashable {
    /// The task's identifier in its session.
    public let taskIdentifier: Int
    /// Retries made before this attempt (0 for the first attempt).
    public let retryCount: Int
    /// Redirects followed before this hop (0 for the first request).
    public let redirectCount: Int

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - taskIdentifier: The task's identifier.
    ///   - retryCount: Retries made so far.
    ///   - redirectCount: Redirects followed so far.
    public init(taskIdentifier: Int, retryCount: Int, redirectCount: Int) {
        self.taskIdentifier = taskIdentifier
        self.retryCount = retryCount
        self.redirectCount = redirectCount
    }
}

/// What made an attempt a candidate for a retry.
public enum AttemptFailure: Sendable {
    /// The transport failed; the response and body arrived before the failure, if any.
    case transport(SessionError)
    /// A complete response arrived; a retrier may judge its status or headers.
    case response(HTTPResponse, body: Data)

    /// The response, when one arrived.
    public var response: HTTPResponse? {
        switch self {
        case .transport(let error): error.response
        case .response(let response, _): response
        }
    }
}

/// A retrier's answer.
public enum RetryDecision: Sendable, Hashable {
    /// Send the request again now.
    case retry
    /// Send the request again after this delay.
    case retryAfter(Duration)
    /// Do not retry; the attempt's outcome stands.
    case doNotRetry
    /// Do not retry; end the task with ``SessionError/Kind/retryFailed`` and this message.
    case doNotRetryWithError(String)
}

/// Adapters and retriers composed in order: Alamofire's `Interceptor`.
///
/// ```swift
/// let interceptor = Interceptor(adapters: [BearerToken(token: token)], retriers: [RetryPolicy()])
/// ```
public struct Interceptor: RequestInterceptor {
    /// The adapters, applied in order.
    public var adapters: [any RequestAdapter]
    /// The retriers, asked in order.
    public var retriers: [any RequestRetrier]

    /// Composes adapters and retriers.
    ///
    /// - Parameters:
    ///   - adapters: The adapters, applied in order.
    ///   - retriers: The retriers, asked in order.
    public init(adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = []) {
        self.adapters = adapters
        self.retriers = retriers
    }

    /// Composes interceptors: each adapts and is asked to retry, in order.
    ///
    /// - Parameter interceptors: The interceptors.
    public init(interceptors: [any RequestInterceptor]) {
        adapters = interceptors
        retriers = interceptors
    }

    /// Applies every adapter in order.
    ///
    /// - Throws: The first adapter's error.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        var request = request
        for adapter in adapters {
            request = try await adapter.adapt(request, for: attempt)
        }
        return request
    }

    /// The first decision other than ``RetryDecision/doNotRetry``, else `.doNotRetry`.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        for retrier in retriers {
            let decision = await retrier.retry(request, dueTo: failure, attempt: attempt)
            if decision != .doNotRetry { return decision }
        }
        return .doNotRetry
    }
}
