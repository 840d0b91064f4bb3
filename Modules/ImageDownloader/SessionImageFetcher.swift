public import CourierHTTP
internal import CourierImageCache
public import CourierImageDecoding
internal import CourierLocking
public import CourierSessionCore
internal import FoundationEssentials

/// Fetches images through any `HTTPSession`, decoding them with an `ImageResponseSerializer`:
/// the session manager of AFNetworking's downloader, whose response serializer is the image one.
///
/// The serializer decodes on the fetch's own task, off the transport's thread. A validation or
/// decoding error fails the fetch even when an image was decoded (a 404 with a picture, say), as
/// AFNetworking's downloader calls its failure block whenever there is an error.
///
/// ```swift
/// let client = try CourierClient()
/// let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: client.session))
/// ```
public struct SessionImageFetcher: ImageFetching {
    /// The session every fetch goes through.
    public let session: any HTTPSession
    /// Validates and decodes each response.
    public let serializer: ImageResponseSerializer

    /// A fetcher over `session`.
    ///
    /// ```swift
    /// let fetcher = SessionImageFetcher(session: session, serializer: ImageResponseSerializer(scale: 2))
    /// ```
    /// - Parameters:
    ///   - session: The session: the engine's `SessionManager` in an app, `MockSession` in its tests.
    ///   - serializer: The image serializer; AFNetworking's acceptable types and WebP by default.
    public init(session: any HTTPSession, serializer: ImageResponseSerializer = ImageResponseSerializer()) {
        self.session = session
        self.serializer = serializer
    }

    /// A fetch that has not started: ``ImageFetch/start()`` sends the request, and
    /// ``ImageFetch/cancel()`` before that completes it at once with a cancellation error.
    ///
    /// ```swift
    /// let fetch = fetcher.makeFetch(for: request) { result in print(result.outcome) }
    /// fetch.start()
    /// ```
    /// - Parameters:
    ///   - request: The request, sent as given.
    ///   - completion: Called once, on the fetch's task (or on the caller of an early cancel).
    /// - Returns: The fetch.
    public func makeFetch(
        for request: HTTPRequest,
        completion: @escaping @Sendable (ImageFetchResult) -> Void
    ) -> any ImageFetch {
        let session = session
        let serializer = serializer
        return SessionImageFetch(url: request.url, completion: completion) {
            let response = await session.response(for: request, serializer: serializer, options: RequestOptions())
            return ImageFetchResult(response: response.response, outcome: Self.outcome(of: response, for: request))
        }
    }

    private static func outcome(
        of response: DataResponse<PixelImage>,
        for request: HTTPRequest
    ) -> Result<PixelImage, SessionError> {
        if let error = response.error { return .failure(error) }
        if let image = response.value { return .success(image) }
        return .failure(
            SessionError(
                kind: .serialization,
                message: "The response had no image",
                failingURL: request.url,
                response: response.response
            )
        )
    }
}

/// One fetch through a session: a Swift task started on demand, cancelled by cancelling it, with
/// its completion called exactly once whichever comes first.
final class SessionImageFetch: ImageFetch {
    private enum Phase {
        case waiting
        case running(Task<Void, Never>)
        case finished
    }

    private let phase = Lock(Phase.waiting)
    private let url: URL
    private let completion: @Sendable (ImageFetchResult) -> Void
    private let fetch: @Sendable () async -> ImageFetchResult

    init(
        url: URL,
        completion: @escaping @Sendable (ImageFetchResult) -> Void,
        fetch: @escaping @Sendable () async -> ImageFetchResult
    ) {
        self.url = url
        self.completion = completion
        self.fetch = fetch
    }

    func start() {
        phase.withLock { phase in
            guard case .waiting = phase else { return }
            phase = .running(Task { [fetch, completion] in completion(await fetch()) })
        }
    }

    func cancel() {
        // Cancelling before the start completes the fetch here, as a suspended session task's
        // cancel does; cancelling a running one lets its task complete with the session's error.
        let running: Task<Void, Never>?
        let cancelledFirst: Bool
        (running, cancelledFirst) = phase.withLock { phase in
            switch phase {
            case .waiting:
                phase = .finished
                return (nil, true)
            case .running(let task):
                return (task, false)
            case .finished:
                return (nil, false)
            }
        }
        running?.cancel()
        if cancelledFirst {
            completion(ImageFetchResult(response: nil, outcome: .failure(.cancelled(url))))
        }
    }
}
