/// Whether ``ImageDownloader`` consults its image cache before it loads.
///
/// AFNetworking reads the request's `NSURLRequestCachePolicy` and looks in the image cache for
/// three of them ("use protocol policy", "return cache data else load", "return cache data don't
/// load"), never for the "reload" ones. Courier has no URL cache policy, so the downloader takes
/// this policy of its own and applies the same rule over it. Without a URL cache underneath,
/// ``useCache`` and ``returnCacheElseLoad`` behave alike; both names are kept so that code ported
/// from AFNetworking can say which policy it meant.
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
}
