import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

@Suite struct ImageDownloaderMergeTests {
    @Test func requestsForOneURLInFlightShareOneTransfer() async throws {
        let gate = TransferGate()
        let transport = try gatedTransport(gate)
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))
        let outcomes = Outcomes()

        var plain = request("a.png")
        let first = downloader.download(plain, completion: outcomes.callback("1"))
        try plain.headers.set(name: "Accept", value: "image/webp")  // headers play no part in the key
        let second = downloader.download(plain, completion: outcomes.callback("2"))
        await gate.waitForArrivals(1)
        gate.releaseAll()
        await downloader.waitUntilIdle()

        #expect(transport.startedRequests.count == 1)
        #expect(first != nil && second != nil && first?.receiptID != second?.receiptID)
        #expect(outcomes.labels == ["1", "2"])
        #expect(outcomes.response("1")?.image == (try solidImage(7)))
        #expect(outcomes.response("2")?.request.headers["Accept"] == "image/webp")
    }

    @Test func receiptsCarryTheCallersID() throws {
        let downloader = ImageDownloader(fetcher: ManualFetcher())
        let mine = UUID()

        let receipt = downloader.download(request("a"), receiptID: mine) { _ in }

        #expect(receipt?.receiptID == mine)
        #expect(receipt?.url == request("a").url)
    }

    @Test func theMergeIsCheckedBeforeTheCache() async throws {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache)
        let outcomes = Outcomes()

        downloader.download(request("a"), cachePolicy: .reloadIgnoringCache, completion: outcomes.callback("loading"))
        cache.add(try solidImage(9), for: request("a"), withAdditionalIdentifier: nil)
        let joined = downloader.download(request("a"), completion: outcomes.callback("joined"))
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(joined != nil)
        #expect(cache.lookups.isEmpty)
        #expect(outcomes.response("joined")?.image == (try solidImage(1)))
        #expect(outcomes.response("joined")?.response != nil)
    }

    @Test func completionsRunInReceiptOrderAfterTheImageIsCached() async throws {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>()
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache)
        let cachedWhenCalled = Outcomes()

        for label in ["1", "2", "3"] {
            downloader.download(request("a")) { result in
                let cached = cache.image(for: request("a"), withAdditionalIdentifier: nil) != nil
                cachedWhenCalled.callback("\(label):\(cached)")(result)
            }
        }
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(cachedWhenCalled.labels == ["1:true", "2:true", "3:true"])
        #expect(cache.stored.map(\.identifier) == ["https://images.test/a"])
    }

    @Test func anImageTheCacheRefusesIsNotStored() async throws {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>(shouldCache: { _ in false })
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache)

        downloader.download(request("a")) { _ in }
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(cache.stored.isEmpty)
    }

    @Test func aFailureReachesEveryReceiptInOrderAndCachesNothing() async throws {
        let transport = MockTransport()
        transport.stub(
            url: "https://images.test/broken.png",
            reply: .init(status: 200, headers: ["Content-Type": "image/png"], body: Data(try png(1).prefix(20)))
        )
        let cache = RecordingImageCache<PixelImage>()
        let downloader = ImageDownloader(
            fetcher: SessionImageFetcher(session: SessionManager(transport: transport)),
            imageCache: cache
        )
        let outcomes = Outcomes()

        downloader.download(request("broken.png"), completion: outcomes.callback("1"))
        downloader.download(request("broken.png"), completion: outcomes.callback("2"))
        await downloader.waitUntilIdle()

        #expect(outcomes.labels == ["1", "2"])
        #expect(outcomes.error("1")?.kind == .fetchFailed)
        #expect(outcomes.error("1")?.urlErrorCode == -1016)
        #expect(outcomes.error("2")?.response?.status.code == 200)
        #expect(cache.stored.isEmpty)
        #expect(transport.startedRequests.count == 1)
    }

    @Test func theAsyncTwinReturnsTheImage() async throws {
        let transport = MockTransport()
        transport.stub(
            url: "https://images.test/a.png",
            reply: .init(status: 200, headers: ["Content-Type": "image/png"], body: try png(3))
        )
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))

        let loaded = try await downloader.image(for: request("a.png"))
        let cached = try await downloader.image(for: request("a.png"))

        #expect(loaded.image == (try solidImage(3)))
        #expect(loaded.response?.status.code == 200)
        #expect(cached.response == nil)
        #expect(transport.startedRequests.count == 1)
    }
}
