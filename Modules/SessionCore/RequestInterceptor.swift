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
/// The session asks after a failure only: the transport's, or the serializer's refusal of a response
/// (so a retrier can retry a `503`), never after a response the serializer accepted;
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
    ///   - failure: What went wrong: a transport error, or a response the serializer refused.
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

/// Why an attempt failed, as the session asks its retriers (Alamofire passes the same errors to
/// `retry(_:for:dueTo:completion:)`).
///
/// The session asks only about failures: a response its serializer accepts is never offered to a
/// retrier. A response is validated first, so a `503` the serializer refuses arrives as
/// ``validation(_:)`` with the serializer's error intact, and an attempt whose head arrived before
/// the connection failed arrives as ``transport(_:)`` with that response.
///
/// ```swift
/// struct RetryUnavailable: RequestRetrier {
///     func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async -> RetryDecision {
///         failure.response?.status.code == 503 && attempt.retryCount < 2 ? .retry : .doNotRetry
///     }
/// }
/// ```
public enum AttemptFailure: Sendable {
    /// The transport failed; the error carries the response and body that arrived before the
    /// failure, if any.
    case transport(SessionError)
    /// A complete response that the serializer's validation refused (an unacceptable status or
    /// content type); the error's ``SessionError/serialization`` says which.
    case validation(SessionError)
    /// A complete, acceptable response whose body the serializer could not decode.
    case serialization(SessionError)

    /// The error, as the task would end with it if no retrier retries.
    public var error: SessionError {
        switch self {
        case .transport(let error), .validation(let error), .serialization(let error): error
        }
    }

    /// The response, when one arrived.
    public var response: HTTPResponse? { error.response }

    /// The body that arrived, when any.
    public var body: Data? { error.data }
}

/// A retrier's answer: Alamofire's `RetryResult`.
///
/// ```swift
/// switch await policy.retry(request, dueTo: failure, attempt: attempt) {
/// case .retry, .retryAfter: print("sent again")
/// case .doNotRetry: print("the attempt's outcome stands")
/// case .doNotRetryWithError(let error): print("ends with", error)
/// }
/// ```
public enum RetryDecision: Sendable {
    /// Send the request again now.
    case retry
    /// Send the request again after this delay.
    case retryAfter(Duration)
    /// Do not retry; the attempt's outcome stands.
    case doNotRetry
    /// Do not retry; end the task with ``SessionError/Kind/retryFailed`` whose
    /// ``SessionError/underlying`` is this error, as the retrier threw it (an app can switch on it).
    case doNotRetryWithError(any Error)

    /// Whether the request is sent again (Alamofire's `retryRequired`).
    public var retryRequired: Bool {
        switch self {
        case .retry, .retryAfter: true
        case .doNotRetry, .doNotRetryWithError: false
        }
    }

    /// The delay before the next attempt: zero for ``retry``, `nil` when there is none.
    public var delay: Duration? {
        switch self {
        case .retry: .zero
        case .retryAfter(let delay): delay
        case .doNotRetry, .doNotRetryWithError: nil
        }
    }

    /// The retrier's error, for ``doNotRetryWithError(_:)``.
    public var error: (any Error)? {
        if case .doNotRetryWithError(let error) = self { return error }
        return nil
    }
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
            if case .doNotRetry = decision { continue }
            return decision
        }
        return .doNotRetry
    }
}
