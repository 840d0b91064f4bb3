import CourierImageCache
import CourierTestSupport
import Testing

/// AFNetworking's `AFAutoPurgingImageCache` transcribed as plainly as possible: an array of
/// entries with a last-access step, sorted and trimmed on every add that overflows.
private struct ReferenceCache {
    var entries: [(id: String, cost: Int, lastAccess: Int)] = []
    var step = 0
    let capacity: Int
    let preferred: Int

    var usage: Int { entries.reduce(0) { $0 + $1.cost } }

    mutating func add(_ id: String, cost: Int) {
        step += 1
        entries.removeAll { $0.id == id }
        entries.append((id, cost, step))
        guard usage > capacity else { return }
        let toPurge = usage - preferred
        var purged = 0
        for entry in entries.sorted(by: { $0.lastAccess < $1.lastAccess }) {
            entries.removeAll { $0.id == entry.id }
            purged += entry.cost
            if purged >= toPurge { break }
        }
    }

    mutating func get(_ id: String) -> Bool {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        step += 1
        entries[index].lastAccess = step
        return true
    }

    mutating func remove(_ id: String) -> Bool {
        let before = entries.count
        entries.removeAll { $0.id == id }
        return entries.count != before
    }
}

@Suite struct AutoPurgingModelTests {
    @Test func behavesAsAFNetworkingsCacheOverRandomOperations() {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        for _ in 0..<20 {
            let capacity = Int.random(in: 0...2_000, using: &random)
            let preferred = Int.random(in: 0...capacity, using: &random)
            let cache = AutoPurgingImageCache<TestImage>(
                memoryCapacity: capacity,
                preferredMemoryUsageAfterPurge: preferred
            )
            var reference = ReferenceCache(capacity: capacity, preferred: preferred)
            for operation in 0..<500 {
                let id = "\(Int.random(in: 0..<40, using: &random))"
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<5:
                    let cost = Int.random(in: 0...400, using: &random)
                    cache.add(TestImage(id, cost: cost), withIdentifier: id)
                    reference.add(id, cost: cost)
                case 5..<9:
                    #expect((cache.image(withIdentifier: id) != nil) == reference.get(id), "operation \(operation)")
                default:
                    #expect(cache.removeImage(withIdentifier: id) == reference.remove(id), "operation \(operation)")
                }
                #expect(cache.memoryUsage == reference.usage, "operation \(operation)")
                #expect(cache.count == reference.entries.count, "operation \(operation)")
            }
        }
    }
}
