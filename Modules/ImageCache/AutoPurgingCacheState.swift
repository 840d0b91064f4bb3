/// The entries and accounting of ``AutoPurgingImageCache``, mutated only under its lock.
///
/// Recency is a counter that every add and hit advances, not a clock: two accesses can never tie,
/// and the order does not depend on the clock's resolution. Purges sort the entries, which is
/// O(n log n), but they are rare: one purge frees at least `capacity − preferred` bytes (40 MiB
/// by default) before the next can start, while adds and hits stay a single hash lookup.
///
/// Inlinable, like the cache's add and lookup: a generic type used from another module runs
/// unspecialized, through value witnesses, unless the client can see its code; measured, that
/// made adds and hits about 4 times slower than a plain locked dictionary.
@usableFromInline
struct AutoPurgingCacheState<Image: CacheableImage>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let image: Image
        @usableFromInline let cost: Int
        @usableFromInline var lastAccess: UInt64

        @inlinable
        init(image: Image, cost: Int, lastAccess: UInt64) {
            self.image = image
            self.cost = cost
            self.lastAccess = lastAccess
        }

        @inlinable
        mutating func touch(_ access: UInt64) -> Image {
            lastAccess = access
            return image
        }
    }

    @usableFromInline var entries: [String: Entry] = [:]
    @usableFromInline var usage = 0
    @usableFromInline var accessCounter: UInt64 = 0

    @usableFromInline
    init() {}

    @inlinable
    mutating func add(_ image: Image, identifier: String, capacity: Int, preferredAfterPurge: Int) {
        accessCounter &+= 1
        let entry = Entry(image: image, cost: image.memoryCost, lastAccess: accessCounter)
        if let previous = entries.updateValue(entry, forKey: identifier) {
            usage -= previous.cost
        }
        usage += entry.cost
        if usage > capacity { purge(preferredAfterPurge: preferredAfterPurge) }
    }

    /// One hash lookup: the optional chain modifies the entry in place through the dictionary's
    /// subscript. A miss advances the counter too, which keeps it monotonic and costs nothing.
    @inlinable
    mutating func image(identifier: String) -> Image? {
        accessCounter &+= 1
        return entries[identifier]?.touch(accessCounter)
    }

    mutating func remove(identifier: String) -> Bool {
        guard let removed = entries.removeValue(forKey: identifier) else { return false }
        usage -= removed.cost
        return true
    }

    mutating func removeAll() -> Bool {
        let hadImages = !entries.isEmpty
        entries.removeAll()
        usage = 0
        return hadImages
    }

    /// AFNetworking's purge, which `add` runs only when usage is strictly over capacity: least recently accessed
    /// first; stops as soon as the removed cost reaches `usage − preferred`, which may leave usage
    /// a little above the preferred level. The image just added is eligible, last.
    @usableFromInline
    mutating func purge(preferredAfterPurge: Int) {
        let bytesToPurge = usage - preferredAfterPurge
        var purged = 0
        let oldestFirst = entries.sorted { $0.value.lastAccess < $1.value.lastAccess }
        for (identifier, entry) in oldestFirst {
            entries.removeValue(forKey: identifier)
            usage -= entry.cost
            purged += entry.cost
            if purged >= bytesToPurge { break }
        }
    }
}
