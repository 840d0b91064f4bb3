internal import CCourierZlib
public import CourierHTTP
public import CourierSessionCore
internal import FoundationEssentials

/// Compresses request bodies with zlib before they are sent (Alamofire's `DeflateRequestCompressor`,
/// with gzip too), as a session request adapter.
///
/// A body of at least ``minimumBodySize`` bytes is compressed and `Content-Encoding` is set:
/// bytes in memory at once (the request keeps a `Content-Length`), a file or a replayable stream as
/// it is read (sent chunked; a retry or redirect compresses it again from the start). A one-shot
/// producer body is sent as it is: a compressed copy could not be replayed either, and compressing
/// it would hide that. The server must accept the coding; many do not, which is why this is opt-in.
///
/// ```swift
/// let session = SessionManager(
///     transport: transport,
///     interceptor: Interceptor(adapters: [RequestCompressor(encoding: .gzip)], retriers: [RetryPolicy()])
/// )
/// ```
public struct RequestCompressor: RequestAdapter {
    /// The content coding applied.
    public enum Encoding: String, Sendable, Hashable {
        /// `deflate`: the zlib format (RFC 1950), as RFC 9110 §8.4.1.2 defines the coding.
        case deflate
        /// `gzip` (RFC 1952).
        case gzip
    }

    /// What to do when the request already has a `Content-Encoding` (Alamofire's
    /// `DuplicateHeaderBehavior`).
    public enum DuplicateHeaderBehavior: Sendable, Hashable {
        /// Fail the request with ``RequestCompressionError/contentEncodingAlreadySet(_:)``.
        case error
        /// Compress anyway and replace the header (the body must not be encoded already).
        case replace
        /// Leave the request as it is.
        case skip
    }

    /// The coding; `deflate` by default, as Alamofire's.
    public var encoding: Encoding
    /// Bodies shorter than this are sent as they are (compression rarely pays below about a KiB);
    /// a body of unknown length is compressed.
    public var minimumBodySize: Int
    /// zlib's level, 1 (fastest) to 9 (smallest); 6, zlib's default.
    public var level: Int
    /// What to do with a request that already has a `Content-Encoding`.
    public var duplicateHeaderBehavior: DuplicateHeaderBehavior
    /// Bodies held in memory up to this size are compressed at once and keep a known length;
    /// larger ones and files are compressed as they are sent.
    public var inMemoryLimit = 4 << 20

    /// Creates a compressor.
    ///
    /// ```swift
    /// let compressor = RequestCompressor(encoding: .gzip, minimumBodySize: 4096)
    /// ```
    /// - Parameters:
    ///   - encoding: The coding.
    ///   - minimumBodySize: The smallest body compressed, in bytes.
    ///   - level: zlib's compression level, 1 to 9.
    ///   - duplicateHeaderBehavior: What to do with a request that has a `Content-Encoding`.
    public init(
        encoding: Encoding = .deflate,
        minimumBodySize: Int = 1024,
        level: Int = 6,
        duplicateHeaderBehavior: DuplicateHeaderBehavior = .error
    ) {
        self.encoding = encoding
        self.minimumBodySize = minimumBodySize
        self.level = min(9, max(1, level))
        self.duplicateHeaderBehavior = duplicateHeaderBehavior
    }

    /// Returns `request` with its body compressed and `Content-Encoding` set, or unchanged.
    ///
    /// ```swift
    /// let sent = try await compressor.adapt(request, for: AttemptContext(taskIdentifier: 0, retryCount: 0, redirectCount: 0))
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - attempt: Which attempt this is (unused: every attempt is compressed the same way).
    /// - Returns: The request to send.
    /// - Throws: ``RequestCompressionError``.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        let body = request.body
        guard body.kind != .empty, body.isReplayable else { return request }
        if let length = body.length, length < Int64(minimumBodySize) { return request }
        if let existing = request.headers["Content-Encoding"] {
            // A redirect hop starts from the request as it was sent: already compressed, by us.
            if attempt.redirectCount > 0 && existing == encoding.rawValue { return request }
            switch duplicateHeaderBehavior {
            case .error: throw RequestCompressionError.contentEncodingAlreadySet(existing)
            case .skip: return request
            case .replace: break
            }
        }
        let format: Deflater.Format = encoding == .gzip ? .gzip : .zlib
        var compressed = request
        do {
            if let bytes = body.bytes, bytes.count <= inMemoryLimit {
                compressed.body = HTTPBody(
                    try CompressedBodySource.compress(bytes, format: format, level: Int32(level))
                )
            } else {
                compressed.body = HTTPBody(
                    source: CompressedBodySource(original: body, format: format, level: Int32(level))
                )
            }
        } catch let failure as Deflater.Failure {
            throw RequestCompressionError.zlib(code: failure.code, operation: failure.operation)
        }
        try compressed.headers.set(name: "Content-Encoding", value: encoding.rawValue)
        compressed.headers.remove(name: "Content-Length")
        return compressed
    }
}
