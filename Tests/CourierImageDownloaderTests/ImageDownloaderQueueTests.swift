import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

@Suite struct ImageDownloaderQueueTests {
    @Test func defaultsAreAFNetworkings() {
        let downloader = ImageDownloader(fetcher: ManualFetcher())

        #expect(downloader.maximumActiveDownloads == 4)
        #expect(downloader.prioritization == .fifo)
        #expect(downloader.imageCache is AutoPurgingImageCache<PixelImage>)
        #expect(downloader.isIdle)
    }

    @Test func theFifthDownloadWaitsForASlot() async throws {
        let gate = TransferGate()
        let transport = try gatedTransport(gate)
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))
        let outcomes = Outcomes()

        for index in 1...5 { downloader.download(request("\(index).png"), completion: outcomes.callback("\(index)")) }
        await gate.waitForArrivals(4)

        #expect(transport.startedRequests.count == 4)
        #expect(downloader.activeDownloadCount == 4)
        #expect(downloader.queuedDownloadCount == 1)

        gate.release("https://images.test/1.png")
        await gate.waitForArrivals(5)
        #expect(gate.arrived.last == "https://images.test/5.png")

        gate.releaseAll()
        await downloader.waitUntilIdle()
        #expect(Set(outcomes.labels) == ["1", "2", "3", "4", "5"])
        #expect(transport.startedRequests.count == 5)
    }

    @Test(arguments: [(ImageDownloadPrioritization.fifo, ["a", "b", "c"]), (.lifo, ["a", "c", "b"])])
    func queuedDownloadsStartInPrioritizationOrder(
        prioritization: ImageDownloadPrioritization,
        order: [String]
    ) async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, prioritization: prioritization, maximumActiveDownloads: 1)

        for name in ["a", "b", "c"] { downloader.download(request(name)) { _ in } }
        #expect(fetcher.urls == ["a"])
        fetcher.fetches[0].succeed(try solidImage(1))
        fetcher.fetches[1].succeed(try solidImage(1))
        fetcher.fetches[2].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(fetcher.urls == order)
    }

    @Test func aCancelledQueuedDownloadNeverTakesASlot() async throws {
        // AFNetworking completes the never-started task and gives back a slot it never held, so
        // one more than the maximum runs; here the count stays honest.
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, maximumActiveDownloads: 1)
        let outcomes = Outcomes()

        downloader.download(request("a")) { _ in }
        let queued = try #require(downloader.download(request("b"), completion: outcomes.callback("b")))
        downloader.cancel(queued)
        #expect(downloader.activeDownloadCount == 1)
        #expect(downloader.queuedDownloadCount == 0)

        downloader.download(request("c")) { _ in }
        downloader.download(request("d")) { _ in }
        #expect(fetcher.urls == ["a"])
        #expect(downloader.activeDownloadCount == 1)

        fetcher.fetches[0].succeed(try solidImage(1))
        #expect(fetcher.urls == ["a", "c"])
        #expect(downloader.activeDownloadCount == 1)
        #expect(downloader.queuedDownloadCount == 1)

        fetcher.fetches[1].succeed(try solidImage(1))
        fetcher.fetches[2].succeed(try solidImage(1))
        await downloader.waitUntilIdle()
        #expect(fetcher.urls == ["a", "c", "d"])
        #expect(outcomes.error("b")?.urlErrorCode == -999)
    }

    @Test func lowPriorityWaitsBehindNormalAndIsRaisedWhenANormalRequestJoins() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, maximumActiveDownloads: 1)

        downloader.download(request("busy")) { _ in }
        downloader.download(request("low-1"), priority: .low) { _ in }
        downloader.download(request("low-2"), priority: .low) { _ in }
        downloader.download(request("normal")) { _ in }
        downloader.download(request("low-2")) { _ in }  // joins low-2 and raises it

        for index in 0..<4 {
            fetcher.fetches[index].succeed(try solidImage(1))
        }
        await downloader.waitUntilIdle()
        #expect(fetcher.urls == ["busy", "normal", "low-2", "low-1"])
    }

    @Test func callbacksRunOnTheConfiguredQueue() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, callbackQueue: labelledQueue("ui"))
        let seen = Outcomes()

        downloader.download(request("a")) { result in
            seen.callback(DispatchQueue.getSpecific(key: callbackKey) ?? "elsewhere")(result)
        }
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(seen.labels == ["ui"])
    }

    @Test func waitUntilIdleWaitsForTheCallbacks() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let outcomes = Outcomes()
        downloader.download(request("a"), completion: outcomes.callback("a"))
        #expect(!downloader.isIdle)

        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(outcomes.labels == ["a"])
        #expect(downloader.isIdle)
    }
}
