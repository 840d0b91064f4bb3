/// How a session's HTTP cache treats one request (URLSession's `NSURLRequest.CachePolicy`, without
/// the kinds it never implemented).
///
/// It matters only to a session that has a cache (`SessionConfiguration.cache` in
/// `CourierSessionCore`); without one every request goes to the network.
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://example.com/feed")!)
/// request.cachePolicy = .returnCachedElseLoad
/// ```
public enum HTTPCachePolicy: Sendable, Hashable {
    /// The rules of RFC 9111: a fresh stored response is used, a stale one is revalidated, and the
    /// response is stored when its headers allow it. The default.
    case useProtocolPolicy
    /// The network is asked without conditions; what comes back is still stored when allowed.
    case reloadIgnoringCache
    /// A stored response is used however old it is (unless it says `must-revalidate` or
    /// `no-cache` and is stale); the network is asked only when nothing is stored.
    case returnCachedElseLoad
    /// Only a stored response is used, as for ``returnCachedElseLoad``; when there is none the
    /// task fails without a transfer (URLSession's -1008, "resource unavailable").
    case cacheOnly
}
