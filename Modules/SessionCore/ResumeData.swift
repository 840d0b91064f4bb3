public import CourierHTTP
public import FoundationEssentials

/// What a download needs to go on where it stopped: the URL, the validators of the version it was
/// fetching, and the partial file.
///
/// Produced when a download task is cancelled, or its transfer fails, after bytes of a `GET`'s `2xx`
/// response with a strong `ETag` or a `Last-Modified` date arrived
/// (``make(for:response:path:offset:)`` is the rule). A download whose body arrived whole but
/// failed validation has none: its body is at the destination. It is `Codable` (``encoded()`` and
/// ``init(encoded:)``), so it survives a process restart; resuming sends `Range` with `If-Range`,
/// so a file that changed on the server restarts cleanly instead of being spliced. After a crash,
/// `recover(fromRecordAt:)` (module `CourierSessionEngine`) reads it back from the resume record a task with
/// ``DownloadOptions/persistsResumeRecord`` kept.
///
/// ```swift
/// let stopped = await session.download(for: request, to: destination)
/// if let resumeData = stopped.resumeData {
///     try resumeData.encoded().write(to: sidecar)
///     // later, maybe in another process:
///     let resumed = await session.download(resumingWith: try ResumeData(encoded: Data(contentsOf: sidecar)), to: destination)
/// }
/// ```
public struct ResumeData: Codable, Sendable, Hashable {
    /// The URL the bytes came from (the last redirect hop's).
    public var url: URL
    /// The strong entity tag of the partial download, when the server sent one.
    public var entityTag: String?
    /// The `Last-Modified` date of the partial download, when the server sent one.
    public var lastModified: String?
    /// The partial file.
    public var partialFilePath: String
    /// Bytes of the download in the partial file.
    public var offset: Int64

    /// Creates resume data.
    ///
    /// - Parameters:
    ///   - url: The URL to resume from.
    ///   - entityTag: The strong entity tag, if any.
    ///   - lastModified: The `Last-Modified` date, if any.
    ///   - partialFilePath: The partial file.
    ///   - offset: Bytes already in the file.
    public init(url: URL, entityTag: String?, lastModified: String?, partialFilePath: String, offset: Int64) {
        self.url = url
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.partialFilePath = partialFilePath
        self.offset = offset
    }

    /// The resume data as JSON bytes.
    ///
    /// - Throws: An encoding error (none is expected for these fields).
    public func encoded() throws -> Data {
        try JSONEncoder().encode(self)
    }

    /// Resume data from ``encoded()``'s bytes.
    ///
    /// - Parameter data: The bytes.
    /// - Throws: A decoding error when the bytes are not resume data.
    public init(encoded data: Data) throws {
        self = try JSONDecoder().decode(ResumeData.self, from: data)
    }

    /// Resume data for a download of `request` that stopped after `offset` bytes of `response`'s
    /// body, or `nil` when the download cannot go on safely from them.
    ///
    /// This is the rule the session applies when a download task is cancelled or its transfer fails;
    /// call it to learn what a given exchange would leave. A download can be resumed only when:
    /// - `request` is a `GET`: a resumed download sends a `GET` with `Range`, and repeating any other
    ///   method is neither safe nor asking for the same representation (URLSession, and so Alamofire
    ///   and AFNetworking, give resume data for `GET` only);
    /// - `response` is a `2xx` (its body is the resource, not an error page);
    /// - `response` names the version its bytes belong to with a validator `If-Range` can carry
    ///   (RFC 9110 §13.1.5): a strong `ETag` (a weak `W/` one never qualifies) or a `Last-Modified`
    ///   date. Without one, a resumed request could splice two versions of the file together;
    /// - `offset` is more than zero: with no bytes there is nothing to resume.
    ///
    /// The URL is `request`'s, so pass the last request sent (after redirects): a `POST` answered by
    /// a `303` is resumed as the `GET` that followed.
    ///
    /// ```swift
    /// var head = HTTPResponse(status: .ok)
    /// try head.headers.set(name: "ETag", value: "\"v1\"")
    /// let resumeData = ResumeData.make(for: HTTPRequest(url: url), response: head, path: "/var/tmp/a.part", offset: 4096)
    /// // resumeData?.entityTag == "\"v1\""; the same call with a POST request gives nil
    /// ```
    /// - Parameters:
    ///   - request: The last request sent; only a `GET` can be resumed.
    ///   - response: The final response head, when one arrived; `nil` gives `nil`.
    ///   - path: The partial file holding the bytes.
    ///   - offset: Bytes of the body in the partial file.
    /// - Returns: The resume data, or `nil` when the download cannot be resumed.
    public static func make(for request: HTTPRequest, response: HTTPResponse?, path: String, offset: Int64)
        -> ResumeData?
    {
        guard let response, offset > 0 else { return nil }
        return naming(response, for: request, path: path, offset: offset)
    }

    /// Resume data naming the version `response` starts to deliver for `request`, at any offset (a
    /// resume record is written before the first byte), or `nil` when ``make(for:response:path:offset:)``'s
    /// rule refuses the exchange.
    package static func naming(_ response: HTTPResponse, for request: HTTPRequest, path: String, offset: Int64)
        -> ResumeData?
    {
        guard request.method == .get, (200...299).contains(response.status.code) else { return nil }
        let entityTag = response.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let lastModified = response.headers["Last-Modified"]
        guard entityTag != nil || lastModified != nil else { return nil }
        return ResumeData(
            url: request.url,
            entityTag: entityTag,
            lastModified: lastModified,
            partialFilePath: path,
            offset: offset
        )
    }
}
