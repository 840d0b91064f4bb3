import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

@Suite struct ImagePrefetcherTests {
    @Test func prefetchesWaitBehindNormalDownloadsAndFillTheCache() async throws {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache, maximumActiveDownloads: 1)
        let prefetcher = ImagePrefetcher(downloader: downloader)

        downloader.download(request("busy")) { _ in }
        prefetcher.startPrefetching([request("p1"), request("p2")])
        downloader.download(request("user")) { _ in }
        #expect(prefetcher.count == 2)

        for index in 0..<4 { fetcher.fetches[index].succeed(try solidImage(1)) }
        await downloader.waitUntilIdle()

        #expect(fetcher.urls == ["busy", "user", "p1", "p2"])
        #expect(prefetcher.count == 0)
        #expect(cache.identifiers.contains("https://images.test/p2"))
    }

    @Test func aUserRequestJoinsThePrefetchAndOutlivesItsStop() async throws {
        let gate = TransferGate()
        let transport = try gatedTransport(gate)
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))
        let prefetcher = ImagePrefetcher(downloader: downloader)
        let outcomes = Outcomes()

        prefetcher.startPrefetching([request("a.png")])
        downloader.download(request("a.png"), completion: outcomes.callback("user"))
        await gate.waitForArrivals(1)
        prefetcher.stopPrefetching()
        gate.releaseAll()
        await downloader.waitUntilIdle()

        #expect(transport.startedRequests.count == 1)
        #expect(transport.controlCalls.isEmpty)
        #expect(outcomes.response("user") != nil)
    }

    @Test func stoppingCancelsEveryPrefetch() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, maximumActiveDownloads: 1)
        let prefetcher = ImagePrefetcher(downloader: downloader)

        prefetcher.startPrefetching([request("p1"), request("p2"), request("p1")])
        #expect(prefetcher.count == 2)
        prefetcher.stopPrefetching()
        await downloader.waitUntilIdle()

        #expect(prefetcher.count == 0)
        #expect(fetcher.urls == ["p1"])
        #expect(fetcher.fetches[0].cancelled)
        #expect(downloader.queuedDownloadCount == 0)
    }

    @Test func stoppingSomeLeavesTheOthers() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let prefetcher = ImagePrefetcher(downloader: downloader)

        prefetcher.startPrefetching([request("p1"), request("p2")])
        prefetcher.stopPrefetching([request("p1")])

        #expect(prefetcher.count == 1)
        #expect(fetcher.fetches[0].cancelled)
        #expect(!fetcher.fetches[1].cancelled)
        fetcher.fetches[1].succeed(try solidImage(1))
        await downloader.waitUntilIdle()
    }
}
