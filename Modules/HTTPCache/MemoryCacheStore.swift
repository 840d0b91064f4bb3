internal import CourierLocking

/// An ``HTTPCacheStore`` in memory with a size cap: past ``capacity`` bytes, the least recently
/// used entries go first.
///
/// An entry counts its ``HTTPCacheEntry/cost``; one larger than the whole capacity is not kept.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(capacity: 20 << 20))
/// ```
public final class MemoryCacheStore: HTTPCacheStore {
    /// The most bytes the entries may cost together.
    public let capacity: Int

    private struct Slot {
        var entry: HTTPCacheEntry
        var cost: Int
        var lastUse: UInt64
    }

    private struct State {
        var slots: [String: Slot] = [:]
        var totalCost = 0
        var clock: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }
    }

    private let state = Lock(State())

    /// Creates an empty store.
    ///
    /// ```swift
    /// let store = MemoryCacheStore(capacity: 4 << 20)
    /// ```
    /// - Parameter capacity: The most bytes the entries may cost; 20 MiB by default (the memory
    ///   size AFNetworking's image downloader gives its URL cache).
    public init(capacity: Int = 20 << 20) {
        self.capacity = capacity
    }

    /// The entries' total cost now.
    ///
    /// ```swift
    /// print(store.totalCost, "of", store.capacity)
    /// ```
    public var totalCost: Int { state.withLock { $0.totalCost } }

    /// The entry for `key`, now the most recently used.
    ///
    /// ```swift
    /// let entry = await store.entry(forKey: "GET https://example.com/")
    /// ```
    public func entry(forKey key: String) async -> HTTPCacheEntry? {
        state.withLock { state in
            guard var slot = state.slots[key] else { return nil }
            slot.lastUse = state.tick()
            state.slots[key] = slot
            return slot.entry
        }
    }

    /// Stores `entry`, then drops the least recently used entries until the store fits.
    ///
    /// ```swift
    /// await store.store(entry, forKey: "GET https://example.com/")
    /// ```
    public func store(_ entry: HTTPCacheEntry, forKey key: String) async {
        let cost = entry.cost
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.totalCost -= old.cost }
            guard cost <= capacity else { return }
            state.slots[key] = Slot(entry: entry, cost: cost, lastUse: state.tick())
            state.totalCost += cost
            while state.totalCost > capacity,
                let oldest = state.slots.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.slots.removeValue(forKey: oldest.key)
                state.totalCost -= oldest.value.cost
            }
        }
    }

    /// Removes the entry for `key`.
    ///
    /// ```swift
    /// await store.removeEntry(forKey: "GET https://example.com/")
    /// ```
    public func removeEntry(forKey key: String) async {
        state.withLock { state in
            if let old = state.slots.removeValue(forKey: key) { state.totalCost -= old.cost }
        }
    }

    /// Removes every entry.
    ///
    /// ```swift
    /// await store.removeAll()
    /// ```
    public func removeAll() async {
        state.withLock { state in
            state.slots = [:]
            state.totalCost = 0
        }
    }
}
