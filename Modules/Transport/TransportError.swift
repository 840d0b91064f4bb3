public import CourierHTTP
public import FoundationEssentials

/// A typed transport failure that keeps the backend's own code and message.
///
/// The ``category`` is what the session layer acts on (retry a timeout, report a trust failure);
/// ``code`` and ``message`` keep what the backend said (libcurl's `CURLcode` and error buffer).
///
/// ```swift
/// if case .failed(let error) = event, error.category == .timedOut {
///     retry()
/// }
/// ```
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Category: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The transfer was cancelled by its owner.
        public static let cancelled = Category("cancelled")
        /// A connect, idle or total timeout expired.
        public static let timedOut = Category("timedOut")
        /// The host name could not be resolved.
        public static let nameResolutionFailed = Category("nameResolutionFailed")
        /// No connection could be made (refused, unreachable).
        public static let cannotConnect = Category("cannotConnect")
        /// The connection broke after it was made (reset, closed early, send or receive failure).
        public static let connectionLost = Category("connectionLost")
        /// The server's certificate was not trusted (chain, host name or the trust evaluator).
        public static let serverTrustFailed = Category("serverTrustFailed")
        /// Another TLS failure: handshake, client certificate, cipher, CA file.
        public static let tlsFailed = Category("tlsFailed")
        /// The server broke HTTP: bad framing, conflicting lengths, malformed or endless heads, bad
        /// HTTP/2 frames or streams.
        public static let protocolViolation = Category("protocolViolation")
        /// The response broke a configured limit: header size or decoded body size.
        public static let limitExceeded = Category("limitExceeded")
        /// The response body could not be decoded (bad gzip, brotli or zstd data).
        public static let contentDecodingFailed = Category("contentDecodingFailed")
        /// The request body could not be read (file vanished, producer failed, length mismatch).
        public static let requestBodyFailed = Category("requestBodyFailed")
        /// The request's body is one-shot (an async producer) and was already sent by an earlier
        /// transfer (a retry, a redirect, an adapter's copy): sending it again would lose data.
        public static let requestBodyAlreadyConsumed = Category("requestBodyAlreadyConsumed")
        /// The download file could not be written or resumed.
        public static let fileFailed = Category("fileFailed")
        /// A resumed download could not be continued safely.
        public static let resumeFailed = Category("resumeFailed")
        /// The proxy refused or failed.
        public static let proxyFailed = Category("proxyFailed")
        /// The request cannot be sent as given (bad URL, unsupported scheme, bad header).
        public static let invalidRequest = Category("invalidRequest")
        /// The transport is misconfigured or lacks a needed capability.
        public static let configuration = Category("configuration")
        /// The transfer's events were already iterated: a transfer has one consumer, and a second
        /// iterator gets this failure instead of the events.
        public static let alreadyConsumed = Category("alreadyConsumed")
        /// The transport was shut down.
        public static let shutDown = Category("shutDown")
        /// Anything else; ``TransportError/code`` and ``TransportError/message`` say more.
        public static let other = Category("other")

        /// The category's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let category: Category
    /// The backend's numeric code (libcurl's `CURLcode`), when there is one.
    public let code: Int?
    /// What went wrong, in the backend's words where it gave any.
    public let message: String
    /// The URL of the transfer.
    public let url: URL?
    /// The metrics gathered before the failure.
    public let metrics: TransferMetrics?
    /// The error underneath (a body reader's error, say).
    public let underlying: (any Error)?
    /// The response head that the failure refused, when the transport read one before failing: the
    /// `416` that answers a resumed download's `Range` (its `Content-Range: bytes */N` names the
    /// full length, RFC 9110 §15.5.17). No ``TransferEvent/response(_:)`` announces such a head, so
    /// the session treats the transfer as one that got no response (a resumed download keeps its
    /// partial file) and the head is found here, through `SessionError.transportError`.
    ///
    /// ```swift
    /// if let refused = error.response, refused.status.code == 416 {
    ///     print(refused.headers["Content-Range"] ?? "no length")  // "bytes */10240"
    /// }
    /// ```
    public let response: HTTPResponse?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - category: The kind of failure.
    ///   - code: The backend's numeric code.
    ///   - message: What went wrong.
    ///   - url: The URL of the transfer.
    ///   - metrics: The metrics gathered before the failure.
    ///   - underlying: The error underneath.
    ///   - response: The response head the failure refused, when one was read.
    public init(
        category: Category,
        code: Int? = nil,
        message: String,
        url: URL? = nil,
        metrics: TransferMetrics? = nil,
        underlying: (any Error)? = nil,
        response: HTTPResponse? = nil
    ) {
        self.category = category
        self.code = code
        self.message = message
        self.url = url
        self.metrics = metrics
        self.underlying = underlying
        self.response = response
    }

    /// `"timedOut (code 28): Operation timed out after 1001 milliseconds [http://127.0.0.1:8080/slow]"`
    public var description: String {
        var text = "\(category)"
        if let code { text += " (code \(code))" }
        text += ": \(message)"
        if let url { text += " [\(url.absoluteString)]" }
        if let underlying { text += " <- \(underlying)" }
        return text
    }
}

extension TransportError {
    /// The failure of a transfer whose one-shot body was already read by an earlier transfer.
    ///
    /// ```swift
    /// do { chunks = try producer.claim() } catch {
    ///     source.yield(.failed(.requestBodyAlreadyConsumed(error, url: request.url)))
    /// }
    /// ```
    /// - Parameters:
    ///   - error: The body's refusal to be read again.
    ///   - url: The URL of the transfer.
    /// - Returns: An error of category ``Category/requestBodyAlreadyConsumed``.
    public static func requestBodyAlreadyConsumed(_ error: HTTPValueError, url: URL) -> TransportError {
        TransportError(
            category: .requestBodyAlreadyConsumed,
            message: "the request body was already sent once and cannot be replayed (a one-shot producer)",
            url: url,
            underlying: error
        )
    }
}
