import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

@Suite struct ImageDownloaderCancelTests {
    @Test func cancellingAReceiptFailsItWithAFNetworkingsError() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let outcomes = Outcomes()

        let receipt = try #require(downloader.download(request("a.png"), completion: outcomes.callback("a")))
        downloader.cancel(receipt)
        await downloader.waitUntilIdle()

        let error = try #require(outcomes.error("a"))
        #expect(error.kind == .cancelled)
        #expect(error.urlErrorCode == -999)
        #expect(error.failureReason == "ImageDownloader cancelled URL request: https://images.test/a.png")
        #expect(error.response == nil)
        #expect(fetcher.fetches[0].cancelled)
    }

    @Test func theTransferIsCancelledOnlyWhenItsLastReceiptGoes() async throws {
        let gate = TransferGate()
        let transport = try gatedTransport(gate)
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))
        let outcomes = Outcomes()

        let first = try #require(downloader.download(request("a.png"), completion: outcomes.callback("1")))
        let second = try #require(downloader.download(request("a.png"), completion: outcomes.callback("2")))
        await gate.waitForArrivals(1)

        downloader.cancel(first)
        #expect(transport.controlCalls.isEmpty)

        downloader.cancel(second)
        await downloader.waitUntilIdle()
        #expect(transport.controlCalls.map(\.action) == [.cancel])
        #expect(outcomes.labels == ["1", "2"])
        #expect(outcomes.error("2")?.urlErrorCode == -999)
    }

    @Test func theOtherReceiptsStillGetTheImage() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let outcomes = Outcomes()

        let first = try #require(downloader.download(request("a"), completion: outcomes.callback("1")))
        downloader.download(request("a"), completion: outcomes.callback("2"))
        downloader.cancel(first)
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()

        #expect(!fetcher.fetches[0].cancelled)
        #expect(outcomes.labels == ["1", "2"])
        #expect(outcomes.error("1")?.kind == .cancelled)
        #expect(outcomes.response("2")?.image == (try solidImage(1)))
    }

    @Test func cancellingABatchStartsNoneOfItsQueuedDownloads() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, maximumActiveDownloads: 1)
        let outcomes = Outcomes()

        let receipts = ["a", "b", "c"].compactMap {
            downloader.download(request($0), completion: outcomes.callback($0))
        }
        downloader.cancel(contentsOf: receipts)
        await downloader.waitUntilIdle()

        #expect(fetcher.urls == ["a"])
        #expect(outcomes.labels == ["a", "b", "c"])
        #expect(downloader.isIdle)
    }

    @Test func cancellingAfterCompletionDoesNothing() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let outcomes = Outcomes()

        let receipt = try #require(downloader.download(request("a"), completion: outcomes.callback("a")))
        fetcher.fetches[0].succeed(try solidImage(1))
        await downloader.waitUntilIdle()
        downloader.cancel(receipt)
        downloader.cancel(receipt)
        await downloader.waitUntilIdle()

        #expect(outcomes.labels == ["a"])
        #expect(outcomes.response("a") != nil)
    }

    @Test func aCompletionAfterCancelAndRequestAgainIsIgnored() async throws {
        let fetcher = ManualFetcher(completesOnCancel: false)
        let downloader = ImageDownloader(fetcher: fetcher)
        let outcomes = Outcomes()

        let old = try #require(downloader.download(request("a"), completion: outcomes.callback("old")))
        downloader.cancel(old)
        downloader.download(request("a"), completion: outcomes.callback("new"))
        #expect(fetcher.fetches.count == 2)

        // The cancelled transfer ends late, with an image: it must not reach the new receipt.
        fetcher.fetches[0].succeed(try solidImage(1))
        #expect(downloader.activeDownloadCount == 1)
        fetcher.fetches[1].succeed(try solidImage(2))
        await downloader.waitUntilIdle()

        #expect(outcomes.labels == ["old", "new"])
        #expect(outcomes.response("new")?.image == (try solidImage(2)))
    }

    @Test func cancellingTheAsyncTwinsTaskCancelsItsReceipt() async throws {
        let gate = TransferGate()
        let transport = try gatedTransport(gate)
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))

        let task = Task { try await downloader.image(for: request("a.png")) }
        await gate.waitForArrivals(1)
        task.cancel()

        let error = await #expect(throws: ImageDownloadError.self) { try await task.value }
        #expect(error?.urlErrorCode == -999)
        await downloader.waitUntilIdle()
        #expect(transport.controlCalls.map(\.action) == [.cancel])
    }
}
