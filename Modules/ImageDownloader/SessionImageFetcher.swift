public import CourierHTTP
internal import CourierImageCache
public import CourierImageDecoding
public import CourierSessionCore
public import CourierTransport

/// Fetches images through a `SessionManager`, decoding them with an `ImageResponseSerializer`:
/// the session manager of AFNetworking's downloader, whose response serializer is the image one.
///
/// The serializer decodes on the session's task, off the transport's thread. A validation or
/// decoding error fails the fetch even when an image was decoded (a 404 with a picture, say), as
/// AFNetworking's downloader calls its failure block whenever there is an error.
///
/// ```swift
/// let session = SessionManager(transport: CurlTransport())
/// let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: session))
/// ```
public struct SessionImageFetcher: ImageFetching {
    /// The session every fetch goes through.
    public let session: SessionManager
    /// Validates and decodes each response.
    public let serializer: ImageResponseSerializer

    /// A fetcher over `session`.
    ///
    /// ```swift
    /// let fetcher = SessionImageFetcher(session: session, serializer: ImageResponseSerializer(scale: 2))
    /// ```
    /// - Parameters:
    ///   - session: The session.
    ///   - serializer: The image serializer; AFNetworking's acceptable types and WebP by default.
    public init(session: SessionManager, serializer: ImageResponseSerializer = ImageResponseSerializer()) {
        self.session = session
        self.serializer = serializer
    }

    /// A fetcher over a new session on `transport`.
    ///
    /// ```swift
    /// let fetcher = SessionImageFetcher(transport: MockTransport())
    /// ```
    /// - Parameters:
    ///   - transport: The transport.
    ///   - serializer: The image serializer.
    public init(transport: any HTTPTransport, serializer: ImageResponseSerializer = ImageResponseSerializer()) {
        self.init(session: SessionManager(transport: transport), serializer: serializer)
    }

    /// A suspended data task with the image serializer.
    ///
    /// ```swift
    /// let fetch = fetcher.makeFetch(for: request) { result in print(result.outcome) }
    /// fetch.start()
    /// ```
    /// - Parameters:
    ///   - request: The request, sent as given.
    ///   - completion: Called once on the session's completion queue.
    /// - Returns: The task.
    public func makeFetch(
        for request: HTTPRequest,
        completion: @escaping @Sendable (ImageFetchResult) -> Void
    ) -> any ImageFetch {
        session.dataTask(with: request, serializer: serializer) { response in
            let outcome: Result<PixelImage, SessionError>
            if let error = response.error {
                outcome = .failure(error)
            } else if let image = response.value {
                outcome = .success(image)
            } else {
                outcome = .failure(
                    SessionError(
                        kind: .serialization,
                        message: "The response had no image",
                        failingURL: request.url,
                        response: response.response
                    )
                )
            }
            completion(ImageFetchResult(response: response.response, outcome: outcome))
        }
    }
}
