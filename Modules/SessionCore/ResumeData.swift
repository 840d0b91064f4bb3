package import CourierHTTP
public import FoundationEssentials

/// What a download needs to go on where it stopped: the URL, the validators of the version it was
/// fetching, and the partial file.
///
/// Produced when a download task is cancelled, or fails after bytes arrived, from a response with a
/// strong `ETag` or a `Last-Modified` date. It is `Codable` (``encoded()`` and
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

    /// Resume data for a download that stopped after `offset` bytes, when `response` names a version
    /// that can be resumed safely (a strong `ETag`, or a `Last-Modified` date).
    package static func make(response: HTTPResponse?, url: URL, path: String, offset: Int64) -> ResumeData? {
        guard let response, offset > 0 else { return nil }
        return naming(response, url: url, path: path, offset: offset)
    }

    /// Resume data naming the version `response` starts to deliver, at any offset (a resume record
    /// is written before the first byte), or `nil` when it names none.
    package static func naming(_ response: HTTPResponse, url: URL, path: String, offset: Int64) -> ResumeData? {
        guard (200...299).contains(response.status.code) else { return nil }
        let entityTag = response.headers["ETag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        let lastModified = response.headers["Last-Modified"]
        guard entityTag != nil || lastModified != nil else { return nil }
        return ResumeData(
            url: url,
            entityTag: entityTag,
            lastModified: lastModified,
            partialFilePath: path,
            offset: offset
        )
    }
}
