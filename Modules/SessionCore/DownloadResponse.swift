public import CourierHTTP
public import CourierTransport

/// Where a finished download's file goes, and how.
///
/// ```swift
/// let destination: DownloadDestination.Choose = { _, response in
///     DownloadDestination(path: "/var/tmp/report-\(response.status.code).pdf", replacesExistingFile: true)
/// }
/// ```
public struct DownloadDestination: Sendable, Hashable {
    /// Picks the destination from the temporary file and the response, AFNetworking's
    /// `(temporaryLocation, response) -> finalURL` block.
    public typealias Choose = @Sendable (_ temporaryPath: String, _ response: HTTPResponse) -> DownloadDestination

    /// The final path.
    public var path: String
    /// Whether a file already at ``path`` is replaced; when `false`, it makes the move fail.
    public var replacesExistingFile: Bool
    /// Whether missing folders on the way to ``path`` are created.
    public var createsIntermediateDirectories: Bool

    /// Creates a destination.
    ///
    /// - Parameters:
    ///   - path: The final path.
    ///   - replacesExistingFile: Whether an existing file there is replaced.
    ///   - createsIntermediateDirectories: Whether missing folders are created.
    public init(path: String, replacesExistingFile: Bool = false, createsIntermediateDirectories: Bool = false) {
        self.path = path
        self.replacesExistingFile = replacesExistingFile
        self.createsIntermediateDirectories = createsIntermediateDirectories
    }
}

/// What a download task ended with: the final file, or the error and, when the download can go on
/// later, its resume data.
///
/// The combinations a session gives:
/// - ``filePath`` and no ``error``: the body passed validation and is at the destination.
/// - ``filePath`` and ``error``: the body arrived whole but validation refused the response (a
///   `404` page, say); the body is at the destination all the same, as AFNetworking's download
///   tasks and Alamofire's `DownloadRequest` leave it. ``response`` has the status.
/// - ``error`` and ``resumeData``: the transfer stopped part-way (or a resumed download met an
///   error status) and the partial file is kept to go on later.
/// - ``error`` alone: nothing was kept (the partial file could not be resumed, or the move to the
///   destination failed and the file is still at its temporary path, which the error names).
///
/// ```swift
/// let response = await session.download(for: request, to: { _, _ in DownloadDestination(path: "/var/tmp/a.iso") })
/// switch (response.filePath, response.error) {
/// case (let path?, nil): print("saved to \(path)")
/// case (let path?, let error?): print("HTTP error \(error.urlErrorCode); its body is at \(path)")
/// case (nil, let error): print("failed: \(String(describing: error))")
/// }
/// ```
public struct DownloadResponse: Sendable {
    /// The last request sent (adapted, after redirects).
    public let request: HTTPRequest
    /// The final response head, when one arrived.
    public let response: HTTPResponse?
    /// Where the file is now: the destination, also when validation refused the response (the
    /// body, an error page say, is there beside ``error``); `nil` when there was no destination
    /// (the temporary file is then deleted, as AFNetworking's platform does), the transfer did not
    /// complete, or the move failed.
    public let filePath: String?
    /// What a later download needs to go on, when this one stopped after bytes arrived and can be
    /// resumed (``ResumeData/make(for:response:path:offset:)``: a `GET` whose response had a strong
    /// `ETag` or a `Last-Modified` date); never for a body that arrived whole.
    public let resumeData: ResumeData?
    /// The error, when the transfer, validation or the move to the destination failed. A
    /// validation error can come with ``filePath``: the body is at the destination all the same.
    public let error: SessionError?
    /// The metrics of each transfer: one per attempt and per redirect hop.
    public let metrics: [TransferMetrics]

    /// Creates a download response: a session makes them, and so do doubles of one (`MockSession`)
    /// and the tests of code that receives them.
    ///
    /// ```swift
    /// let saved = DownloadResponse(request: request, response: head, filePath: "/var/tmp/a.iso")
    /// ```
    /// - Parameters:
    ///   - request: The last request sent.
    ///   - response: The final response head.
    ///   - filePath: Where the file is now.
    ///   - resumeData: What a later download needs to go on.
    ///   - error: The error.
    ///   - metrics: The metrics of each transfer.
    public init(
        request: HTTPRequest,
        response: HTTPResponse?,
        filePath: String?,
        resumeData: ResumeData? = nil,
        error: SessionError? = nil,
        metrics: [TransferMetrics] = []
    ) {
        self.request = request
        self.response = response
        self.filePath = filePath
        self.resumeData = resumeData
        self.error = error
        self.metrics = metrics
    }
}
