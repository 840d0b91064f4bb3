public import CourierHTTP
public import CourierSerialization
public import CourierTransport
public import FoundationEssentials

/// Why a session task failed: the transport, the response serializer, a redirect, a retry or an
/// interceptor, with the failing URL, the response and body when there were any, and the error
/// underneath.
///
/// ``urlErrorCode`` gives AFNetworking's `NSURLErrorDomain` code (see ``Kind`` for the table), so
/// code ported from AFNetworking can keep switching on `-1001` and `-999`.
///
/// ```swift
/// do {
///     let response = try await session.data(for: request)
/// } catch let error where error.kind == .transport(.timedOut) {
///     print(error.urlErrorCode)  // -1001
/// }
/// ```
public struct SessionError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The transport failed; AF's code follows the category (see ``SessionError/urlErrorCode``).
        case transport(TransportError.Category)
        /// The response serializer (validation or decoding) failed; ``SessionError/serialization``
        /// has AFNetworking's code and text.
        case serialization
        /// A redirect could not be followed: ``RedirectFailure`` says why.
        case redirect(RedirectFailure)
        /// A request adapter threw; the adapter's error is ``SessionError/underlying``.
        case adaptationFailed
        /// A retrier ended the task with its own error, ``SessionError/underlying``; the attempt's
        /// own failure is ``SessionError/originalError`` (Alamofire's `requestRetryFailed`).
        case retryFailed
        /// The task was cancelled (AF's -999).
        case cancelled
        /// The session was invalidated or shut down before the task could run.
        case sessionInvalidated
        /// The whole call, across retries and redirects, passed its deadline.
        case deadlineExceeded
        /// A finished download could not be moved to its destination (AFNetworking only posts a
        /// notification then; Courier fails the task so the caller knows the file is not there).
        case fileMoveFailed
        /// A reset was asked of a session that cannot make a new transport, or making it failed.
        case resetUnavailable
        /// A Server-Sent Events stream failed for good (`EventSource`).
        case eventStream(EventStreamFailure)
        /// The request's cache policy allows only a stored response and none is usable
        /// (URLSession's -1008, "resource unavailable"); nothing was sent.
        case notCached
        /// A WebSocket's handshake was refused, redirected or invalid, or its connection broke the
        /// protocol: ``SessionError/webSocketError`` is the error (``SessionError/underlying``), and
        /// ``SessionError/response`` the handshake's response when the server answered. A failure
        /// of the connection underneath has a ``transport(_:)`` kind instead.
        case webSocket
        /// The session cannot open WebSockets (no connector was configured, or the session has no
        /// WebSocket support); nothing was sent.
        case webSocketUnavailable
    }

    /// Why an `EventSource` stopped with an error rather than reconnecting.
    public enum EventStreamFailure: Error, Sendable, Hashable {
        /// The response was not a `200` with `text/event-stream` (the WHATWG "fail the connection").
        case notAnEventStream
        /// A line passed the configured limit, in bytes.
        case lineTooLong(limit: Int)
        /// An event's data passed the configured limit, in bytes.
        case eventTooLarge(limit: Int)
    }

    /// Why a redirect was not followed.
    public enum RedirectFailure: Error, Sendable, Hashable {
        /// More redirects than the session allows; `visited` lists the chain's URLs in order, the
        /// first request's included, so that a loop is plain to see. Redirects are counted, never
        /// guessed: a server may send a client back to a URL it visited (after setting a cookie, say).
        case tooManyRedirects(limit: Int, visited: [URL])
        /// The target's scheme is not http or https, or goes from https to http without permission.
        case disallowedScheme(String)
        /// A 307 or 308 must send the body again and the body is one-shot.
        case bodyNotReplayable
    }

    /// What failed.
    public let kind: Kind
    /// What went wrong, in words.
    public let message: String
    /// The URL of the request that failed.
    public let failingURL: URL?
    /// The response, when one arrived.
    public let response: HTTPResponse?
    /// The response body received before the failure, when any.
    public let data: Data?
    /// The error underneath: a `TransportError`, a `SerializationError`, or an interceptor's error.
    public let underlying: (any Error)?
    /// For ``Kind/retryFailed``: the failure the retrier was asked about (a transport, validation
    /// or serialization error), intact.
    ///
    /// ```swift
    /// if error.kind == .retryFailed, let refused = error.originalError?.response {
    ///     print("the refresh failed after a \(refused.status.code)")
    /// }
    /// ```
    public var originalError: SessionError? { original as? SessionError }
    /// Stored as an existential: a struct cannot hold a value of its own type directly.
    private let original: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - kind: What failed.
    ///   - message: What went wrong.
    ///   - failingURL: The URL of the request that failed.
    ///   - response: The response, when one arrived.
    ///   - data: The body received, when any.
    ///   - underlying: The error underneath.
    ///   - originalError: For a retry failure, the failure the retrier was asked about.
    public init(
        kind: Kind,
        message: String,
        failingURL: URL?,
        response: HTTPResponse? = nil,
        data: Data? = nil,
        underlying: (any Error)? = nil,
        originalError: SessionError? = nil
    ) {
        self.kind = kind
        self.message = message
        self.failingURL = failingURL
        self.response = response
        self.data = data
        self.underlying = underlying
        self.original = originalError
    }

    /// The transport's error, when the transport failed.
    public var transportError: TransportError? { underlying as? TransportError }

    /// The serializer's error (AF's `com.alamofire.error.serialization.response` domain), when the
    /// serializer failed.
    public var serialization: SerializationError? { underlying as? SerializationError }

    /// What the transport's trust evaluation saw and decided when the server was rejected
    /// (AFNetworking's peer trust in the -1202 error's user info); `nil` when there was none, such
    /// as a rejection by libcurl's own verification without a trust evaluator.
    ///
    /// ```swift
    /// if let trust = error.serverTrust { print(trust.host ?? "-", trust.decision) }
    /// ```
    public var serverTrust: TrustEvaluationRecord? { transportError?.metrics?.trustEvaluation }

    /// `"transport(timedOut): Operation timed out after 1000 milliseconds [https://example.com/slow]"`;
    /// a trust failure adds the transport's reason after AFNetworking's text.
    public var description: String {
        var text = "\(kind): \(message)"
        if kind == .transport(.serverTrustFailed), let reason = transportError?.message { text += " (\(reason))" }
        if let failingURL { text += " [\(failingURL.absoluteString)]" }
        return text
    }

    /// AFNetworking's description of its -1202 server-trust error, curly quotes included.
    ///
    /// ```swift
    /// SessionError.serverTrustDescription(host: "api.test")
    /// // "The certificate for this server is invalid. You might be connecting to a server that is pretending to be “api.test” which could put your confidential information at risk."
    /// ```
    /// - Parameter host: The host the task connected to.
    /// - Returns: The text.
    public static func serverTrustDescription(host: String) -> String {
        "The certificate for this server is invalid. You might be connecting to a server that is pretending to be \u{201C}\(host)\u{201D} which could put your confidential information at risk."
    }
}

extension SessionError {
    /// A transport failure, as a session reports it: a cancelled transfer becomes
    /// ``Kind/cancelled``, a rejected certificate gets AFNetworking's -1202 description
    /// (``serverTrustDescription(host:)``), and anything else keeps the transport's message. The
    /// response and body that arrived before the failure are kept.
    ///
    /// ```swift
    /// let error = SessionError.transport(
    ///     TransportError(category: .timedOut, code: 28, message: "Operation timed out"),
    ///     url: URL(string: "https://api.example.com/slow")!
    /// )
    /// assert(error.urlErrorCode == -1001)
    /// ```
    /// - Parameters:
    ///   - error: The transport's error.
    ///   - url: The URL of the request that failed.
    ///   - response: The response head, when one arrived before the failure.
    ///   - data: The body received before the failure, when any.
    /// - Returns: The error a session completes the task with.
    public static func transport(
        _ error: TransportError,
        url: URL,
        response: HTTPResponse? = nil,
        data: Data? = nil
    ) -> SessionError {
        if error.category == .cancelled {
            return SessionError(
                kind: .cancelled,
                message: error.message,
                failingURL: url,
                response: response,
                data: data,
                underlying: error
            )
        }
        if error.category == .serverTrustFailed {
            return SessionError(
                kind: .transport(error.category),
                message: serverTrustDescription(host: url.host() ?? ""),
                failingURL: url,
                response: response,
                data: data,
                underlying: error
            )
        }
        return SessionError(
            kind: .transport(error.category),
            message: error.message,
            failingURL: url,
            response: response,
            data: data,
            underlying: error
        )
    }

    /// The server-trust failure a session reports when the server's certificate is rejected:
    /// AFNetworking's -1202 (`NSURLErrorServerCertificateUntrusted`) with its description, as
    /// ``transport(_:url:response:data:)`` makes it from a `TransportError` of category
    /// `serverTrustFailed`. For the tests of an app that handles it.
    ///
    /// ```swift
    /// let error = SessionError.serverTrustFailure(url: URL(string: "https://api.example.com/me")!)
    /// assert(error.urlErrorCode == -1202)
    /// print(error.message)  // "The certificate for this server is invalid. You might be connecting to a server that is pretending to be “api.example.com” …"
    /// ```
    /// - Parameters:
    ///   - url: The URL of the request; its host goes in the description.
    ///   - reason: The transport's reason (libcurl's or the trust evaluator's words), kept as the
    ///     underlying `TransportError`'s message and shown by ``description``.
    ///   - metrics: The transfer's metrics, with the trust evaluation that ``serverTrust`` reads.
    /// - Returns: An error of kind `.transport(.serverTrustFailed)`.
    public static func serverTrustFailure(
        url: URL,
        reason: String = "the server's certificate was not trusted",
        metrics: TransferMetrics? = nil
    ) -> SessionError {
        transport(TransportError(category: .serverTrustFailed, message: reason, url: url, metrics: metrics), url: url)
    }

    /// A serializer's (or validator's) failure for the response to `request`: kind
    /// ``Kind/serialization``, with the serializer's text as the message and its AFNetworking code
    /// as ``urlErrorCode``.
    ///
    /// ```swift
    /// // failure: what a validator or a serializer threw for `response`
    /// let error = SessionError.serialization(failure, request: request, response: response, data: body)
    /// print(error.urlErrorCode)  // -1011 for an unacceptable status
    /// ```
    /// - Parameters:
    ///   - failure: The serializer's error.
    ///   - request: The request the response answers.
    ///   - response: The response, when there is one.
    ///   - data: The response's body, when any.
    /// - Returns: The error a session completes the task with.
    public static func serialization(
        _ failure: SerializationError,
        request: HTTPRequest,
        response: HTTPResponse?,
        data: Data?
    ) -> SessionError {
        SessionError(
            kind: .serialization,
            message: failure.description,
            failingURL: request.url,
            response: response,
            data: data,
            underlying: failure
        )
    }

    /// The task was cancelled by its owner (AFNetworking's -999).
    ///
    /// ```swift
    /// let error = SessionError.cancelled(URL(string: "https://api.example.com/items")!)
    /// assert(error.kind == .cancelled && error.urlErrorCode == -999)
    /// ```
    /// - Parameter url: The URL of the cancelled request.
    /// - Returns: An error of kind ``Kind/cancelled``.
    public static func cancelled(_ url: URL) -> SessionError {
        SessionError(kind: .cancelled, message: "the task was cancelled", failingURL: url)
    }
}
