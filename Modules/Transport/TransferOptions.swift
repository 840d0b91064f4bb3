/// How one transfer delivers its response body: where it goes and how much may be buffered.
///
/// Every per-request policy (timeouts, cookie handling, the largest body, credentials) lives on
/// `HTTPRequest`, where an adapter can change it; these options only say how the bytes arrive.
///
/// ```swift
/// var options = TransferOptions()
/// options.destination = .file(path: "/var/tmp/video.mp4", resume: nil)
/// options.highWaterMark = 4 << 20
/// ```
public struct TransferOptions: Sendable {
    /// Where the response body goes.
    public enum Destination: Sendable, Hashable {
        /// Body chunks arrive as ``TransferEvent/body(_:)`` events, with backpressure.
        case stream
        /// The body is written to a file; only progress events arrive.
        ///
        /// With `resume`, the transfer asks for the rest of a partial download (`Range` plus
        /// `If-Range` with the saved validator) and appends to the file; see ``ResumeValidator``.
        case file(path: String, resume: ResumeValidator?)
    }

    /// Where the response body goes; ``Destination/stream`` by default.
    public var destination: Destination = .stream
    /// Buffered body bytes at which the transport stops reading from the network.
    public var highWaterMark: Int = 1 << 20
    /// Buffered body bytes at which reading resumes.
    public var lowWaterMark: Int = 256 << 10

    /// Creates default options.
    public init() {}
}

/// What a partial download needs to resume safely: how much is on disk and the validator that
/// names the version it came from.
///
/// The transport sends `Range: bytes=<offset>-` with `If-Range: <validator>`; a server whose file
/// changed answers 200 with the whole new file, which replaces the partial one (a clean restart),
/// so two versions are never spliced together.
///
/// ```swift
/// let resume = ResumeValidator(offset: 4_194_304, entityTag: "\"5f1a-9c\"", lastModified: nil)
/// ```
public struct ResumeValidator: Sendable, Hashable {
    /// Bytes already on disk.
    public var offset: Int64
    /// The strong `ETag` of the partial download, preferred as the validator.
    public var entityTag: String?
    /// The `Last-Modified` of the partial download, used when there is no strong `ETag`.
    public var lastModified: String?

    /// Creates a validator.
    public init(offset: Int64, entityTag: String?, lastModified: String?) {
        self.offset = offset
        self.entityTag = entityTag
        self.lastModified = lastModified
    }

    /// The `If-Range` value: the strong entity tag, else the date; `nil` when there is neither, in
    /// which case resuming is unsafe and the download starts over.
    public var ifRangeValue: String? {
        if let entityTag, !entityTag.hasPrefix("W/") { return entityTag }
        return lastModified
    }
}
