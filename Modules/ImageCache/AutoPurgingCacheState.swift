/// The entries and accounting of ``AutoPurgingImageCache``, mutated only under its lock.
///
/// Recency is a counter that every add and hit advances, not a clock: two accesses can never tie,
/// and the order does not depend on the clock's resolution. Purges sort the entries, which is
/// O(n log n), but they are rare: one purge frees at least `capacity − preferred` bytes (40 MiB
/// by default) before the next can start, while adds and hits stay a single hash lookup.
struct AutoPurgingCacheState<Image: CacheableImage>: Sendable {
    struct Entry: Sendable {
        let image: Image
        let cost: Int
        var lastAccess: UInt64
    }

    private(set) var entries: [String: Entry] = [:]
    private(set) var usage = 0
    private var accessCounter: UInt64 = 0

    mutating func add(_ image: Image, identifier: String, capacity: Int, preferredAfterPurge: Int) {
        accessCounter &+= 1
        let entry = Entry(image: image, cost: image.memoryCost, lastAccess: accessCounter)
        if let previous = entries.updateValue(entry, forKey: identifier) {
            usage -= previous.cost
        }
        usage += entry.cost
        purgeIfNeeded(capacity: capacity, preferredAfterPurge: preferredAfterPurge)
    }

    mutating func image(identifier: String) -> Image? {
        guard let index = entries.index(forKey: identifier) else { return nil }
        accessCounter &+= 1
        entries.values[index].lastAccess = accessCounter
        return entries.values[index].image
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

    /// AFNetworking's purge: only when usage is strictly over capacity; least recently accessed
    /// first; stops as soon as the removed cost reaches `usage − preferred`, which may leave usage
    /// a little above the preferred level. The image just added is eligible, last.
    private mutating func purgeIfNeeded(capacity: Int, preferredAfterPurge: Int) {
        guard usage > capacity else { return }
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
