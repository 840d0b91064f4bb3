public import CourierHTTP
public import CourierImageCache
public import CourierSessionCore

/// What fetches an image for ``ImageDownloader``: a session over any transport
/// (``SessionImageFetcher``), or a double in tests.
///
/// The downloader calls ``makeFetch(for:completion:)`` when a download gets a slot, then starts
/// the fetch at once; it cancels the fetch when the download's last receipt is cancelled.
///
/// ```swift
/// let downloader = ImageDownloader(fetcher: SessionImageFetcher(transport: MockTransport()))
/// ```
public protocol ImageFetching: Sendable {
    /// Makes a fetch of `request` that has not started.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - completion: Called exactly once, from any thread, also after a cancel.
    /// - Returns: The fetch.
    func makeFetch(
        for request: HTTPRequest,
        completion: @escaping @Sendable (ImageFetchResult) -> Void
    ) -> any ImageFetch
}

/// One fetch made by an ``ImageFetching``: a `SessionTask` is one.
///
/// ```swift
/// let fetch = fetcher.makeFetch(for: request) { result in print(result.image as Any) }
/// fetch.start()
/// ```
public protocol ImageFetch: Sendable {
    /// Starts the transfer.
    func start()
    /// Cancels it; the completion still runs, with an error.
    func cancel()
}

/// How a fetch ended: the response, if any, and the image or the error.
///
/// ```swift
/// let result = ImageFetchResult(response: HTTPResponse(status: .ok), outcome: .success(image))
/// ```
public struct ImageFetchResult: Sendable {
    /// The response, when one arrived.
    public let response: HTTPResponse?
    /// The decoded image, or why there is none.
    public let outcome: Result<PixelImage, SessionError>

    /// Creates a result.
    ///
    /// ```swift
    /// let failed = ImageFetchResult(response: nil, outcome: .failure(error))
    /// ```
    /// - Parameters:
    ///   - response: The response, when one arrived.
    ///   - outcome: The image, or the error.
    public init(response: HTTPResponse?, outcome: Result<PixelImage, SessionError>) {
        self.response = response
        self.outcome = outcome
    }
}
