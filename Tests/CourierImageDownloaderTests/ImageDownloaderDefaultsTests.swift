import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierTesting
import Foundation
import Testing

/// AFImageDownloader's defaults: `init`'s queue and cache, and `defaultURLSessionConfiguration`.
@Suite struct ImageDownloaderDefaultsTests {
    @Test func theQueueAndCacheAreAFNetworkings() throws {
        let downloader = ImageDownloader(fetcher: ManualFetcher())
        #expect(downloader.maximumActiveDownloads == 4)
        #expect(downloader.prioritization == .fifo)
        let cache = try #require(downloader.imageCache as? AutoPurgingImageCache<PixelImage>)
        #expect(cache.memoryCapacity == 100 * 1024 * 1024)
        #expect(cache.preferredMemoryUsageAfterPurge == 60 * 1024 * 1024)
    }

    @Test func theSessionDefaultsAreAFNetworkings() {
        #expect(ImageDownloadSessionDefaults.idleTimeout == .seconds(60))
        #expect(ImageDownloadSessionDefaults.handlesCookies)
        #expect(ImageDownloadSessionDefaults.urlCacheMemoryCapacity == 20 * 1024 * 1024)
        #expect(ImageDownloadSessionDefaults.urlCacheDiskCapacity == 150 * 1024 * 1024)
    }

    @Test func aRequestIsLoadedWithTheSessionDefaultsInTheFieldsItLeavesUnset() async {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: nil)
        _ = downloader.download(request("plain")) { _ in }
        var own = request("own")
        own.idleTimeout = .seconds(5)
        own.handlesCookies = false
        own.timeout = .seconds(9)
        _ = downloader.download(own) { _ in }

        let plain = fetcher.fetches[0].request
        #expect(plain.idleTimeout == .seconds(60))
        #expect(plain.handlesCookies == true)
        #expect(plain.timeout == nil)
        #expect(plain.cachePolicy == .useProtocolPolicy)
        let kept = fetcher.fetches[1].request
        #expect(kept.idleTimeout == .seconds(5))
        #expect(kept.handlesCookies == false)
        #expect(kept.timeout == .seconds(9))
        for fetch in fetcher.fetches { fetch.cancel() }
        await downloader.waitUntilIdle()
    }
}
