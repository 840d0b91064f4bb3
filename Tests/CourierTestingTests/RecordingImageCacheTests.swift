import CourierHTTP
import CourierImageCache
import CourierTesting
import Foundation
import Testing

@Suite struct RecordingImageCacheTests {
    private func image(_ value: UInt8) throws -> PixelImage {
        try PixelImage(width: 1, height: 1, pixels: [value, value, value, 255])
    }

    @Test func recordsStoresLookupsAndRemovals() throws {
        let cache = RecordingImageCache<PixelImage>()
        let request = HTTPRequest(url: URL(string: "https://x.test/a.png")!)

        cache.add(try image(1), for: request, withAdditionalIdentifier: nil)
        cache.add(try image(2), withIdentifier: "b")
        #expect(cache.image(for: request, withAdditionalIdentifier: nil) == (try image(1)))
        #expect(cache.image(withIdentifier: "missing") == nil)
        #expect(cache.removeImage(withIdentifier: "b"))
        #expect(!cache.removeImage(withIdentifier: "b"))

        #expect(cache.stored.map(\.identifier) == ["https://x.test/a.png", "b"])
        #expect(cache.lookups == ["https://x.test/a.png", "missing"])
        #expect(cache.evicted == ["b"])
        #expect(cache.identifiers == ["https://x.test/a.png"])
    }

    @Test func evictsTheOldestPastItsCountLimit() throws {
        let cache = RecordingImageCache<PixelImage>(countLimit: 2)

        cache.add(try image(1), withIdentifier: "a")
        cache.add(try image(2), withIdentifier: "b")
        cache.add(try image(3), withIdentifier: "a")  // replacing makes "a" the newest
        cache.add(try image(4), withIdentifier: "c")

        #expect(cache.evicted == ["b"])
        #expect(cache.identifiers == ["a", "c"])
        #expect(cache.removeAllImages())
        #expect(cache.evicted == ["b", "a", "c"])
        #expect(!cache.removeAllImages())
    }

    @Test func answersShouldCacheWithItsClosure() throws {
        let cache = RecordingImageCache<PixelImage>(shouldCache: { $0.width > 1 })
        let request = HTTPRequest(url: URL(string: "https://x.test/a.png")!)

        #expect(!cache.shouldCache(try image(1), for: request, withAdditionalIdentifier: nil))
    }
}
