import CourierHTTP
import CourierImageCache
import Foundation
import Testing

@Suite struct AutoPurgingImageCacheTests {
    @Test func defaultsAreAFNetworkings() {
        let cache = AutoPurgingImageCache<PixelImage>()

        #expect(cache.memoryCapacity == 104_857_600)
        #expect(cache.preferredMemoryUsageAfterPurge == 62_914_560)
        #expect(cache.memoryUsage == 0)
    }

    @Test func aPixelImageCostsFourBytesAPixel() throws {
        // AFNetworking's test: an 850 × 300 logo costs 1,020,000 bytes.
        let logo = try PixelImage(width: 850, height: 300, pixels: [UInt8](repeating: 0, count: 850 * 300 * 4))
        let cache = AutoPurgingImageCache<PixelImage>()

        cache.add(logo, withIdentifier: "logo")

        #expect(logo.memoryCost == 1_020_000)
        #expect(cache.memoryUsage == 1_020_000)
        #expect(cache.image(withIdentifier: "logo") == logo)
    }

    @Test func replacingAnImageSubtractsTheOldCostFirst() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 150, preferredMemoryUsageAfterPurge: 100)
        cache.add(TestImage("old", cost: 100), withIdentifier: "a")

        // 100 + 80 would be over the capacity; 80 alone is not, so nothing is purged.
        cache.add(TestImage("new", cost: 80), withIdentifier: "a")

        #expect(cache.memoryUsage == 80)
        #expect(cache.image(withIdentifier: "a") == TestImage("new", cost: 80))
    }

    @Test func purgesOnlyWhenUsageIsStrictlyOverCapacity() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 400, preferredMemoryUsageAfterPurge: 200)
        for name in ["a", "b", "c", "d"] { cache.add(TestImage(name, cost: 100), withIdentifier: name) }

        #expect(cache.memoryUsage == 400)
        #expect(cache.count == 4)

        cache.add(TestImage("e", cost: 1), withIdentifier: "e")

        // 401 > 400: purge 201 bytes, oldest first: a, b, c (300 ≥ 201).
        #expect(cache.names(["a", "b", "c", "d", "e"]) == ["d", "e"])
        #expect(cache.memoryUsage == 101)
    }

    @Test func stopsAsSoonAsEnoughIsRemovedEvenBelowThePreferredUsage() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 100, preferredMemoryUsageAfterPurge: 50)
        cache.add(TestImage("a", cost: 40), withIdentifier: "a")
        cache.add(TestImage("b", cost: 40), withIdentifier: "b")

        cache.add(TestImage("c", cost: 30), withIdentifier: "c")

        // 110 > 100: 60 to purge; a (40) is not enough, a + b (80) is: c stays, at 30 < 50.
        #expect(cache.names(["a", "b", "c"]) == ["c"])
        #expect(cache.memoryUsage == 30)
    }

    @Test func aHitMakesAnImageTheMostRecentlyUsed() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 300, preferredMemoryUsageAfterPurge: 250)
        for name in ["a", "b", "c"] { cache.add(TestImage(name, cost: 100), withIdentifier: name) }
        _ = cache.image(withIdentifier: "a")

        cache.add(TestImage("d", cost: 50), withIdentifier: "d")

        // 350 > 300: 100 to purge; b is now the least recently used, and enough on its own.
        #expect(cache.names(["a", "b", "c", "d"]) == ["a", "c", "d"])
    }

    @Test func replacingAnImageMakesItTheMostRecentlyUsed() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 200, preferredMemoryUsageAfterPurge: 150)
        cache.add(TestImage("a", cost: 100), withIdentifier: "a")
        cache.add(TestImage("b", cost: 100), withIdentifier: "b")
        cache.add(TestImage("a2", cost: 100), withIdentifier: "a")

        cache.add(TestImage("c", cost: 50), withIdentifier: "c")

        // 250 > 200: 100 to purge, and b is the oldest.
        #expect(cache.names(["a", "b", "c"]) == ["a", "c"])
        #expect(cache.memoryUsage == 150)
    }

    @Test func accessesInTheSameInstantNeverTie() {
        // A clock could give these the same time; the counter orders them exactly.
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 1000, preferredMemoryUsageAfterPurge: 999)
        for index in 0..<1000 { cache.add(TestImage("\(index)", cost: 1), withIdentifier: "\(index)") }
        for index in stride(from: 999, through: 0, by: -1) { _ = cache.image(withIdentifier: "\(index)") }

        cache.add(TestImage("new", cost: 1), withIdentifier: "new")

        // 1001 > 1000: 2 bytes to purge, the two least recent: 999 and 998, read first.
        #expect(cache.count == 999)
        #expect(cache.image(withIdentifier: "999") == nil)
        #expect(cache.image(withIdentifier: "998") == nil)
        #expect(cache.image(withIdentifier: "997") != nil)
    }

    @Test func anImageLargerThanTheCapacityIsNeverKept() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 100, preferredMemoryUsageAfterPurge: 60)
        cache.add(TestImage("small", cost: 10), withIdentifier: "small")

        cache.add(TestImage("huge", cost: 101), withIdentifier: "huge")

        // 111 > 100: 51 to purge; small (10) first, then huge itself, the most recent, goes too.
        #expect(cache.count == 0)
        #expect(cache.memoryUsage == 0)
    }

    @Test func removesOneImageOrAll() {
        let cache = AutoPurgingImageCache<TestImage>()
        cache.add(TestImage("a", cost: 10), withIdentifier: "a")
        cache.add(TestImage("b", cost: 20), withIdentifier: "b")

        #expect(cache.removeImage(withIdentifier: "a"))
        #expect(!cache.removeImage(withIdentifier: "a"))
        #expect(cache.memoryUsage == 20)
        #expect(cache.removeAllImages())
        #expect(!cache.removeAllImages())
        #expect(cache.memoryUsage == 0)
        #expect(cache.image(withIdentifier: "b") == nil)
    }

    @Test func clampsThePreferredUsageToTheCapacity() {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 10, preferredMemoryUsageAfterPurge: 20)
        let negative = AutoPurgingImageCache<TestImage>(memoryCapacity: -5, preferredMemoryUsageAfterPurge: -1)

        #expect(cache.preferredMemoryUsageAfterPurge == 10)
        #expect(negative.memoryCapacity == 0)
        #expect(negative.preferredMemoryUsageAfterPurge == 0)
    }

    @Test func storesRequestVariantsApart() throws {
        let cache = AutoPurgingImageCache<TestImage>()
        let request = HTTPRequest(url: try #require(URL(string: "https://images.test/a.png")))
        cache.add(TestImage("plain", cost: 1), for: request, withAdditionalIdentifier: nil)
        cache.add(TestImage("small", cost: 1), for: request, withAdditionalIdentifier: "64x64")

        #expect(cache.image(for: request, withAdditionalIdentifier: nil)?.name == "plain")
        #expect(cache.image(for: request, withAdditionalIdentifier: "64x64")?.name == "small")
        #expect(cache.image(for: request, withAdditionalIdentifier: "") == nil)
        #expect(cache.image(withIdentifier: "https://images.test/a.png")?.name == "plain")
        #expect(cache.removeImage(for: request, withAdditionalIdentifier: "64x64"))
        #expect(cache.image(for: request, withAdditionalIdentifier: "64x64") == nil)
        #expect(cache.count == 1)
    }

    @Test func shouldCacheIsTrueUnlessToldOtherwise() throws {
        let request = HTTPRequest(url: try #require(URL(string: "https://images.test/a.png")))
        let everything = AutoPurgingImageCache<TestImage>()
        let smallOnly = AutoPurgingImageCache<TestImage>(shouldCache: { image, request, identifier in
            image.memoryCost < 100 && request.url.path == "/a.png" && identifier == "thumb"
        })

        #expect(everything.shouldCache(TestImage("x", cost: 1_000), for: request, withAdditionalIdentifier: nil))
        #expect(smallOnly.shouldCache(TestImage("x", cost: 10), for: request, withAdditionalIdentifier: "thumb"))
        #expect(!smallOnly.shouldCache(TestImage("x", cost: 100), for: request, withAdditionalIdentifier: "thumb"))
        #expect(!smallOnly.shouldCache(TestImage("x", cost: 10), for: request, withAdditionalIdentifier: nil))
    }

    @Test func concurrentAddsAndHitsKeepTheAccountsExact() async {
        let cache = AutoPurgingImageCache<TestImage>(memoryCapacity: 5_000, preferredMemoryUsageAfterPurge: 3_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<2_000 {
                        let name = "\((round * 7 + worker) % 300)"
                        if round % 3 == 0 {
                            _ = cache.image(withIdentifier: name)
                        } else {
                            cache.add(TestImage(name, cost: 10 + round % 50), withIdentifier: name)
                        }
                    }
                }
            }
        }

        let held = (0..<300).compactMap { cache.image(withIdentifier: "\($0)") }
        #expect(cache.memoryUsage == held.reduce(0) { $0 + $1.memoryCost })
        #expect(cache.memoryUsage <= 5_000)
    }
}
