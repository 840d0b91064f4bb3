import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierTesting
import Foundation
import Testing

@Suite struct ImageDownloaderCachePolicyTests {
    private func cachedDownloader() throws -> (ImageDownloader, ManualFetcher, RecordingImageCache<PixelImage>) {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>()
        cache.add(try solidImage(9), for: request("a"), withAdditionalIdentifier: nil)
        return (ImageDownloader(fetcher: fetcher, imageCache: cache), fetcher, cache)
    }

    @Test(arguments: [ImageDownloadCachePolicy.useCache, .returnCacheElseLoad, .cacheOnly])
    func aCacheHitAnswersWithoutAReceiptOrTransfer(policy: ImageDownloadCachePolicy) async throws {
        let (downloader, fetcher, _) = try cachedDownloader()
        let outcomes = Outcomes()

        let receipt = downloader.download(request("a"), cachePolicy: policy, completion: outcomes.callback("hit"))
        await downloader.waitUntilIdle()

        #expect(receipt == nil)
        #expect(fetcher.fetches.isEmpty)
        #expect(outcomes.response("hit")?.image == (try solidImage(9)))
        #expect(outcomes.response("hit")?.response == nil)
    }

    @Test func reloadIgnoringCacheLoadsAndReplacesTheCachedImage() async throws {
        let (downloader, fetcher, cache) = try cachedDownloader()
        let outcomes = Outcomes()

        let receipt = downloader.download(
            request("a"),
            cachePolicy: .reloadIgnoringCache,
            completion: outcomes.callback("x")
        )
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(receipt != nil)
        #expect(cache.lookups.isEmpty)
        #expect(outcomes.response("x")?.image == (try solidImage(1)))
        #expect(cache.image(for: request("a"), withAdditionalIdentifier: nil) == (try solidImage(1)))
    }

    @Test(arguments: [ImageDownloadCachePolicy.useCache, .returnCacheElseLoad])
    func aMissLoads(policy: ImageDownloadCachePolicy) async throws {
        let (downloader, fetcher, _) = try cachedDownloader()

        let receipt = downloader.download(request("b"), cachePolicy: policy) { _ in }

        #expect(receipt != nil)
        #expect(fetcher.urls == ["b"])
    }

    @Test func cacheOnlyMissFailsWithoutATransfer() async throws {
        let (downloader, fetcher, _) = try cachedDownloader()
        let outcomes = Outcomes()

        let receipt = downloader.download(request("b"), cachePolicy: .cacheOnly, completion: outcomes.callback("miss"))
        await downloader.waitUntilIdle()

        #expect(receipt == nil)
        #expect(fetcher.fetches.isEmpty)
        #expect(outcomes.error("miss")?.kind == .notCached)
        #expect(outcomes.error("miss")?.urlErrorCode == -1008)
    }

    @Test func withoutACacheEveryRequestLoads() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: nil)

        downloader.download(request("a")) { _ in }
        fetcher.fetches[0].succeed(try solidImage(1))
        downloader.download(request("a")) { _ in }

        #expect(fetcher.urls == ["a", "a"])
        fetcher.fetches[1].succeed(try solidImage(1))
        await downloader.waitUntilIdle()
    }
}

@Suite struct ImageDownloaderHTTPCachePolicyTests {
    @Test(arguments: [
        (ImageDownloadCachePolicy.useCache, HTTPCachePolicy.useProtocolPolicy),
        (.reloadIgnoringCache, .reloadIgnoringCache),
        (.returnCacheElseLoad, .returnCachedElseLoad),
    ])
    func theRequestIsLoadedWithTheMatchingHTTPCachePolicy(
        policy: ImageDownloadCachePolicy,
        expected: HTTPCachePolicy
    ) async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: RecordingImageCache<PixelImage>())
        downloader.download(request("a"), cachePolicy: policy) { _ in }
        #expect(fetcher.fetches.map(\.request.cachePolicy) == [expected])
    }

    @Test func aRequestsOwnHTTPCachePolicyWins() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: RecordingImageCache<PixelImage>())
        var own = request("a")
        own.cachePolicy = .returnCachedElseLoad
        downloader.download(own, cachePolicy: .reloadIgnoringCache) { _ in }
        #expect(fetcher.fetches.map(\.request.cachePolicy) == [.returnCachedElseLoad])
    }
}
