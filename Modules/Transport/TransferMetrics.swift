public import CourierHTTP
public import FoundationEssentials

/// Timings and counts of one transfer (one hop: a redirect starts a new transfer).
///
/// Phase times are offsets from the start of the transfer (``startDate``), as libcurl reports them;
/// a reused connection has zero name-lookup, connect and TLS times. A session reports one metrics
/// value per attempt and per redirect hop, each with its own ``startDate``.
///
/// ```swift
/// if case .completed(let metrics) = event {
///     print("TTFB \(metrics.firstByte), reused: \(metrics.reusedConnection)")
/// }
/// ```
public struct TransferMetrics: Sendable, Hashable {
    /// When the transport handed the transfer to the network (wall clock); the phase times count
    /// from here. Nil when the transfer never started.
    public var startDate: Date?
    /// When the name lookup finished.
    public var nameLookup: Duration = .zero
    /// When the TCP (or Unix socket) connection was established.
    public var connect: Duration = .zero
    /// When the TLS handshake finished; zero for plain HTTP.
    public var tlsHandshake: Duration = .zero
    /// When the request was about to be sent.
    public var requestStart: Duration = .zero
    /// When the first response byte arrived.
    public var firstByte: Duration = .zero
    /// When the transfer ended.
    public var total: Duration = .zero
    /// Bytes of request headers sent.
    public var requestHeaderBytes: Int64 = 0
    /// Bytes of request body sent.
    public var requestBodyBytes: Int64 = 0
    /// Bytes of response headers received.
    public var responseHeaderBytes: Int64 = 0
    /// Bytes of response body received on the wire (before decoding).
    public var responseBodyBytes: Int64 = 0
    /// Bytes of response body delivered after content decoding.
    public var decodedBodyBytes: Int64 = 0
    /// The protocol spoken, when a response arrived.
    public var protocolVersion: HTTPResponse.Version?
    /// The peer's address, when connected.
    public var remoteAddress: String?
    /// The peer's port, when connected over TCP.
    public var remotePort: Int?
    /// The local address, when connected.
    public var localAddress: String?
    /// The local port, when connected over TCP.
    public var localPort: Int?
    /// Whether an existing connection carried the transfer.
    public var reusedConnection: Bool = false
    /// Why the server was trusted or rejected, on the transfer that opened the connection while a
    /// trust evaluator was configured; nil on a reused connection, on further HTTP/2 streams of a
    /// connection, on plain HTTP and without an evaluator.
    ///
    /// ```swift
    /// if let trust = metrics.trustEvaluation { print(trust.leafSubject ?? "-", trust.decision) }
    /// ```
    public var trustEvaluation: TrustEvaluationRecord?

    /// Creates empty metrics; transports fill them in.
    public init() {}
}
