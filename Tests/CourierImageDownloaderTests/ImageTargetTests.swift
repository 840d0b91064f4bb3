import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierLocking
import CourierSessionEngine
import CourierTesting
import Dispatch
import Foundation
import Testing

/// A target that records every image set on it, and on which queue.
final class RecordingTarget: ImageTarget {
    let imageQueue = labelledQueue("target")
    let imageBinding = ImageTargetBinding()
    private let images = Lock<[(value: UInt8, queue: String?)]>([])

    func setImage(_ image: PixelImage) {
        let queue = DispatchQueue.getSpecific(key: callbackKey)
        images.withLock { $0.append((image.pixels.first ?? 0, queue)) }
    }

    /// The first pixel of each image set, in order.
    var shown: [UInt8] { images.withLock { $0.map(\.value) } }
    var queues: Set<String?> { Set(images.withLock { $0.map(\.queue) }) }

    /// Returns once everything queued on the target's queue so far has run.
    func drain() async {
        await withCheckedContinuation { continuation in imageQueue.async { continuation.resume() } }
    }
}

@Suite struct ImageTargetTests {
    private func settle(_ target: RecordingTarget, _ downloader: ImageDownloader) async {
        await downloader.waitUntilIdle()
        await target.drain()
    }

    @Test func aMissShowsThePlaceholderThenTheImageOnTheTargetsQueue() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()

        target.setImage(with: request("a"), placeholder: try solidImage(100), downloader: downloader)
        #expect(target.imageBinding.isLoading)
        fetcher.fetches[0].succeed(try solidImage(1))
        await settle(target, downloader)

        #expect(target.shown == [100, 1])
        #expect(target.queues == ["target"])
        #expect(!target.imageBinding.isLoading)
    }

    @Test func withoutAPlaceholderTheOldImageStays() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()

        target.setImage(with: request("a"), downloader: downloader)
        await target.drain()

        #expect(target.shown.isEmpty)
    }

    @Test func aCacheHitIsShownWithoutADownloadOrPlaceholder() async throws {
        let fetcher = ManualFetcher()
        let cache = RecordingImageCache<PixelImage>()
        cache.add(try solidImage(9), for: request("a"), withAdditionalIdentifier: nil)
        let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache)
        let target = RecordingTarget()

        target.setImage(with: request("a"), placeholder: try solidImage(100), downloader: downloader)
        await settle(target, downloader)

        #expect(target.shown == [9])
        #expect(fetcher.fetches.isEmpty)
        #expect(!target.imageBinding.isLoading)
    }

    @Test func aSuccessClosureReplacesSettingTheImage() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()
        let seen = Outcomes()

        target.setImage(
            with: request("a"),
            downloader: downloader,
            success: { _, response, _ in
                let label = "\(DispatchQueue.getSpecific(key: callbackKey) ?? "-") \(response != nil)"
                seen.callback(label)(.failure(.init(kind: .cancelled, request: request("a"), failureReason: "")))
            }
        )
        fetcher.fetches[0].succeed(try solidImage(1))
        await settle(target, downloader)

        #expect(target.shown.isEmpty)
        #expect(seen.labels == ["target true"])
    }

    @Test func theSameURLAgainIsANoOp() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()
        let receipt = Lock<ImageDownloadReceipt?>(nil)

        target.setImage(with: request("a"), placeholder: try solidImage(100), downloader: downloader)
        receipt.withLock { $0 = target.imageBinding.activeReceipt }
        target.setImage(with: request("a"), placeholder: try solidImage(200), downloader: downloader)

        #expect(fetcher.fetches.count == 1)
        #expect(!fetcher.fetches[0].cancelled)
        #expect(target.imageBinding.activeReceipt == receipt.withLock { $0 })
        fetcher.fetches[0].succeed(try solidImage(1))
        await settle(target, downloader)
        #expect(target.shown == [100, 1])
    }

    @Test func aNewURLCancelsThePreviousDownloadAndDropsItsCompletion() async throws {
        let fetcher = ManualFetcher(completesOnCancel: false)
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()
        let failures = Outcomes()

        target.setImage(
            with: request("a"),
            placeholder: try solidImage(100),
            downloader: downloader,
            failure: { failures.callback("a")(.failure($0)) }
        )
        target.setImage(with: request("b"), placeholder: try solidImage(200), downloader: downloader)

        #expect(fetcher.fetches[0].cancelled)
        fetcher.fetches[0].succeed(try solidImage(1))  // late, after the cancel
        fetcher.fetches[1].succeed(try solidImage(2))
        await settle(target, downloader)

        #expect(target.shown == [100, 200, 2])
        #expect(failures.labels.isEmpty)
    }

    @Test func aStaleCompletionIsDroppedWhenTheDownloadIsShared() async throws {
        // Another receipt keeps the old transfer alive, so it completes with an image; the target
        // has moved on and must not show it.
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher, maximumActiveDownloads: 1)
        let target = RecordingTarget()
        downloader.download(request("a")) { _ in }

        target.setImage(with: request("a"), downloader: downloader)
        target.setImage(with: request("b"), downloader: downloader)
        fetcher.fetches[0].succeed(try solidImage(1))
        fetcher.fetches[1].succeed(try solidImage(2))
        await settle(target, downloader)

        #expect(target.shown == [2])
    }

    @Test func aFailureCallsTheFailureClosure() async throws {
        let transport = MockTransport()
        transport.stub(url: "https://images.test/a", reply: .init(status: 404))
        let downloader = ImageDownloader(fetcher: SessionImageFetcher(session: SessionManager(transport: transport)))
        let target = RecordingTarget()
        let failures = Outcomes()

        target.setImage(with: request("a"), downloader: downloader, failure: { failures.callback("a")(.failure($0)) })
        await settle(target, downloader)

        #expect(failures.error("a")?.kind == .fetchFailed)
        #expect(target.shown.isEmpty)
    }

    @Test func cancelImageDownloadCancelsSilently() async throws {
        let fetcher = ManualFetcher()
        let downloader = ImageDownloader(fetcher: fetcher)
        let target = RecordingTarget()
        let failures = Outcomes()

        target.setImage(with: request("a"), downloader: downloader, failure: { failures.callback("a")(.failure($0)) })
        target.cancelImageDownload()
        await settle(target, downloader)

        #expect(fetcher.fetches[0].cancelled)
        #expect(failures.labels.isEmpty)
        #expect(!target.imageBinding.isLoading)
    }
}
