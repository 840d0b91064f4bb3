import CourierHTTP
import CourierHTTPCache
import Foundation
import Testing

@Suite struct MemoryCacheStoreTests {
    private func entry(_ bytes: Int) -> HTTPCacheEntry {
        HTTPCacheEntry(
            response: HTTPResponse(status: .ok),
            body: Data(repeating: 7, count: bytes),
            requestTime: Date(timeIntervalSince1970: 0),
            responseTime: Date(timeIntervalSince1970: 0)
        )
    }

    @Test func theLeastRecentlyUsedEntryGoesFirst() async {
        let one = entry(1000)
        let store = MemoryCacheStore(capacity: one.cost * 3)
        await store.store(one, forKey: "a")
        await store.store(entry(1000), forKey: "b")
        await store.store(entry(1000), forKey: "c")
        #expect(await store.entry(forKey: "a") != nil)  // a is now newer than b

        await store.store(entry(1000), forKey: "d")

        #expect(await store.entry(forKey: "b") == nil)
        #expect(await store.entry(forKey: "a") != nil)
        #expect(await store.entry(forKey: "c") != nil)
        #expect(await store.entry(forKey: "d") != nil)
        #expect(store.totalCost == one.cost * 3)
    }

    @Test func anEntryLargerThanTheCapacityIsNotKeptAndReplacesNothing() async {
        let store = MemoryCacheStore(capacity: 2000)
        await store.store(entry(100), forKey: "small")
        await store.store(entry(5000), forKey: "huge")
        #expect(await store.entry(forKey: "huge") == nil)
        #expect(await store.entry(forKey: "small") != nil)
        await store.removeEntry(forKey: "small")
        #expect(store.totalCost == 0)
    }
}
