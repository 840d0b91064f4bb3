internal import CourierHTTP

/// Whether ``ImageDownloader`` consults its image cache before it loads.
///
/// AFNetworking reads the request's `NSURLRequestCachePolicy` and looks in the image cache for
/// three of them ("use protocol policy", "return cache data else load", "return cache data don't
/// load"), never for the "reload" ones; the same policy then governs the URL cache. Here the
/// downloader takes this policy of its own for its image cache and, for a request whose own
/// `HTTPRequest.cachePolicy` is left at the default, sets the matching HTTP cache policy, which
/// the session's HTTP cache (`SessionConfiguration.cache`) honours when it has one:
/// ``useCache`` → `useProtocolPolicy`, ``reloadIgnoringCache`` → `reloadIgnoringCache`,
/// ``returnCacheElseLoad`` → `returnCachedElseLoad`. An image-cache miss under ``cacheOnly`` fails
/// at once, without asking the HTTP cache: the downloader's fetcher cannot tell whether its
/// session has one, and a session without one would load. Without an HTTP cache,
/// ``useCache`` and ``returnCacheElseLoad`` behave alike.
///
/// Whatever the policy, a request for a URL already in flight joins that download first: the
/// merge is checked before the cache, as in AFNetworking.
///
/// ```swift
/// downloader.download(request, cachePolicy: .reloadIgnoringCache) { result in show(result) }
/// ```
public enum ImageDownloadCachePolicy: Sendable, Hashable {
    /// AFNetworking's "use protocol policy", the default: a cached image is returned, else it loads.
    case useCache
    /// The image cache is not consulted; the image is loaded and the cache updated.
    case reloadIgnoringCache
    /// AFNetworking's "return cache data else load": a cached image, else it loads.
    case returnCacheElseLoad
    /// AFNetworking's "return cache data don't load": a cached image, else an
    /// ``ImageDownloadError/Kind/notCached`` failure (-1008) with no transfer.
    case cacheOnly

    /// Whether the image cache is looked up first.
    var consultsCache: Bool { self != .reloadIgnoringCache }

    /// The HTTP cache policy the request is loaded with.
    var httpCachePolicy: HTTPCachePolicy {
        switch self {
        case .useCache: .useProtocolPolicy
        case .reloadIgnoringCache: .reloadIgnoringCache
        case .returnCacheElseLoad: .returnCachedElseLoad
        case .cacheOnly: .cacheOnly
        }
    }
}
