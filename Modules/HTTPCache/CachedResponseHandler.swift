public import CourierHTTP

/// Decides what an ``HTTPCache`` stores for a response it may store (Alamofire's
/// `CachedResponseHandler`): the entry as proposed, a changed one, or nothing.
///
/// It runs for every write: a new response and a stored one updated by a `304`. It is not asked
/// about responses the rules of RFC 9111 forbid storing.
///
/// ```swift
/// struct NoErrors: CachedResponseHandler {
///     func entryToStore(_ proposed: HTTPCacheEntry, for request: HTTPRequest) async -> HTTPCacheEntry? {
///         proposed.response.status.code < 400 ? proposed : nil
///     }
/// }
/// let cache = HTTPCache(store: MemoryCacheStore(), responseHandler: NoErrors())
/// ```
public protocol CachedResponseHandler: Sendable {
    /// The entry to store for `request`, or `nil` to store nothing (and drop what was stored).
    ///
    /// - Parameters:
    ///   - proposed: What the cache would store.
    ///   - request: The request the response answers.
    /// - Returns: The entry to store, or `nil`.
    func entryToStore(_ proposed: HTTPCacheEntry, for request: HTTPRequest) async -> HTTPCacheEntry?
}

/// Alamofire's `ResponseCacher`: store as proposed, store nothing, or change the entry.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(), responseHandler: ResponseCacher(behavior: .modify { _, entry in
///     var entry = entry
///     try? entry.response.headers.set(name: "X-Cached-By", value: "app")
///     return entry
/// }))
/// ```
public struct ResponseCacher: CachedResponseHandler {
    /// What the cacher does with each proposed entry.
    public enum Behavior: Sendable {
        /// Store it as proposed.
        case cache
        /// Store nothing.
        case doNotCache
        /// Store what the closure returns; `nil` stores nothing.
        case modify(@Sendable (HTTPRequest, HTTPCacheEntry) async -> HTTPCacheEntry?)
    }

    /// Stores every proposed entry.
    public static let cache = ResponseCacher(behavior: .cache)
    /// Stores nothing: the cache only ever serves what was stored before.
    public static let doNotCache = ResponseCacher(behavior: .doNotCache)

    /// What the cacher does.
    public let behavior: Behavior

    /// Creates a cacher.
    ///
    /// ```swift
    /// let cacher = ResponseCacher(behavior: .doNotCache)
    /// ```
    /// - Parameter behavior: What it does with each proposed entry.
    public init(behavior: Behavior) {
        self.behavior = behavior
    }

    /// The entry ``behavior`` makes of `proposed`.
    ///
    /// ```swift
    /// let stored = await ResponseCacher.cache.entryToStore(entry, for: request)  // entry
    /// ```
    public func entryToStore(_ proposed: HTTPCacheEntry, for request: HTTPRequest) async -> HTTPCacheEntry? {
        switch behavior {
        case .cache: proposed
        case .doNotCache: nil
        case .modify(let change): await change(request, proposed)
        }
    }
}
