public import CourierHTTP
public import CourierSessionCore
internal import FoundationEssentials

/// Why an image download failed, with AFNetworking's URL error code.
///
/// ```swift
/// downloader.download(request) { result in
///     if case .failure(let error) = result, error.urlErrorCode != -999 { showBrokenImage() }
/// }
/// ```
public struct ImageDownloadError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The receipt was cancelled (AFNetworking's -999).
        case cancelled
        /// ``ImageDownloadCachePolicy/cacheOnly`` found no cached image (-1008, "resource unavailable").
        case notCached
        /// The transfer, the validation or the decoding failed: ``ImageDownloadError/underlying`` says how.
        case fetchFailed
    }

    /// What failed.
    public let kind: Kind
    /// The request, as the caller gave it.
    public let request: HTTPRequest
    /// The response, when one arrived.
    public let response: HTTPResponse?
    /// AFNetworking's failure reason, such as `ImageDownloader cancelled URL request: <url>`.
    public let failureReason: String
    /// The fetcher's error, for ``Kind/fetchFailed``.
    public let underlying: SessionError?

    /// Creates an error.
    ///
    /// ```swift
    /// let error = ImageDownloadError(kind: .fetchFailed, request: request, failureReason: "offline", underlying: nil)
    /// ```
    /// - Parameters:
    ///   - kind: What failed.
    ///   - request: The request.
    ///   - response: The response, when one arrived.
    ///   - failureReason: Why, in words.
    ///   - underlying: The fetcher's error.
    public init(
        kind: Kind,
        request: HTTPRequest,
        response: HTTPResponse? = nil,
        failureReason: String,
        underlying: SessionError? = nil
    ) {
        self.kind = kind
        self.request = request
        self.response = response
        self.failureReason = failureReason
        self.underlying = underlying
    }

    /// AFNetworking's `NSURLErrorDomain` code: -999 when cancelled, -1008 when a cache-only request
    /// missed, otherwise the session error's (-1016 for an image that cannot be decoded, say).
    public var urlErrorCode: Int {
        switch kind {
        case .cancelled: -999
        case .notCached: -1008
        case .fetchFailed: underlying?.urlErrorCode ?? -1
        }
    }

    /// `"cancelled (-999): ImageDownloader cancelled URL request: https://x.test/a.png"`.
    public var description: String { "\(kind) (\(urlErrorCode)): \(failureReason)" }

    static func cancelled(_ request: HTTPRequest) -> ImageDownloadError {
        ImageDownloadError(
            kind: .cancelled,
            request: request,
            failureReason: "ImageDownloader cancelled URL request: \(request.url.absoluteString)"
        )
    }

    static func fetchFailed(_ request: HTTPRequest, _ error: SessionError) -> ImageDownloadError {
        ImageDownloadError(
            kind: .fetchFailed,
            request: request,
            response: error.response,
            failureReason: error.description,
            underlying: error
        )
    }
}
