/// Where an ``HTTPCache`` keeps its entries: ``MemoryCacheStore``, ``DiskCacheStore``, or a store
/// of your own.
///
/// Keys are the cache's own (the method and the URL without its fragment). A store may drop any
/// entry at any time (to stay within its size); it never returns an entry it was not given.
///
/// ```swift
/// let store: any HTTPCacheStore = MemoryCacheStore(capacity: 4 << 20)
/// await store.store(entry, forKey: "GET https://example.com/")
/// ```
public protocol HTTPCacheStore: Sendable {
    /// The entry stored for `key`, or `nil`.
    ///
    /// - Parameter key: The key.
    /// - Returns: The entry, counted as a use for the least-recently-used order.
    func entry(forKey key: String) async -> HTTPCacheEntry?
    /// Stores `entry` for `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - entry: The entry.
    ///   - key: The key.
    func store(_ entry: HTTPCacheEntry, forKey key: String) async
    /// Removes the entry for `key`, if any.
    ///
    /// - Parameter key: The key.
    func removeEntry(forKey key: String) async
    /// Removes every entry.
    func removeAll() async
}
