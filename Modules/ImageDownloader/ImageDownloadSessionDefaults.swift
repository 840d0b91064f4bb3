internal import CourierHTTP

/// AFNetworking's `AFImageDownloader.defaultURLSessionConfiguration`, as Courier applies it.
///
/// AFNetworking builds its downloader's own session with a 60-second request timeout, cookies on,
/// the protocol's cache policy, and a URL cache of 20 MiB in memory and 150 MiB on disk. A Courier
/// ``ImageDownloader`` fetches through a session it is given, so it sets the per-request fields on
/// each request that leaves them unset (a request's own value wins):
///
/// - ``idleTimeout``, 60 s: URLSession's `timeoutIntervalForRequest` is the longest wait for more
///   data, restarted by every byte, which is `HTTPRequest.idleTimeout` (`HTTPRequest.timeout`
///   bounds the whole transfer, which URLSession's request timeout never did);
/// - ``handlesCookies``, `true`: `HTTPShouldSetCookies`;
/// - `HTTPRequest.cachePolicy` stays at `useProtocolPolicy` unless the download's
///   ``ImageDownloadCachePolicy`` says otherwise.
///
/// The URL cache belongs to the session: give the session that an image downloader uses an HTTP
/// cache of ``urlCacheMemoryCapacity`` and ``urlCacheDiskCapacity`` to have AFNetworking's.
/// Pipelining (off in AFNetworking) is never used by Courier's transport.
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.cache = HTTPCache(store: MemoryCacheStore(capacity: ImageDownloadSessionDefaults.urlCacheMemoryCapacity))
/// let downloader = ImageDownloader(session: SessionManager(transport: transport, configuration: configuration))
/// ```
public enum ImageDownloadSessionDefaults {
    /// AFNetworking's `timeoutIntervalForRequest`: 60 s without data.
    public static let idleTimeout: Duration = .seconds(60)
    /// AFNetworking's `HTTPShouldSetCookies`: cookies are sent and stored.
    public static let handlesCookies = true
    /// AFNetworking's URL cache in memory: 20 MiB.
    public static let urlCacheMemoryCapacity = 20 * 1024 * 1024
    /// AFNetworking's URL cache on disk: 150 MiB.
    public static let urlCacheDiskCapacity = 150 * 1024 * 1024

    /// `request` with the defaults in the fields it leaves unset.
    static func applied(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        if request.idleTimeout == nil { request.idleTimeout = idleTimeout }
        if request.handlesCookies == nil { request.handlesCookies = handlesCookies }
        return request
    }
}
