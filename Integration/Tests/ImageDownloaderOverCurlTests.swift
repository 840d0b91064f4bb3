import CourierCurl
import CourierHTTP
import CourierImageCache
import CourierImageDownloader
import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import Foundation
import Testing

/// Counts the session's transfers (one `requestStarted` per request sent) and lets a test wait
/// for a number of them.
final class TransferLog: EventMonitor {
    private struct State {
        var events: [(kind: SessionEvent.Kind, url: String)] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
        guard event.kind == .requestStarted || event.kind == .taskCompleted else { return }
        let url = event.request?.url.absoluteString ?? ""
        let ready = state.withLock { state in
            state.events.append((event.kind, url))
            let started = state.events.count { $0.kind == .requestStarted }
            let ready = state.waiters.filter { $0.count <= started }.map(\.continuation)
            state.waiters.removeAll { $0.count <= started }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// The URLs of the requests sent, in order.
    var started: [String] { state.withLock { $0.events.filter { $0.kind == .requestStarted }.map(\.url) } }

    /// The kinds in order, for checking what came before what.
    var kinds: [SessionEvent.Kind] { state.withLock { $0.events.map(\.kind) } }

    func waitForStarted(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.events.count(where: { $0.kind == .requestStarted }) >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// What the callbacks of a test saw.
final class Tally: Sendable {
    let images = Lock<[PixelImage]>([])
    let receipts = Lock(0)
    let failure = Lock<ImageDownloadError?>(nil)
}

/// The image downloader through the real session, libcurl and the loopback nginx, which serves
/// the decoder's fixtures under /images/ and throttles them to 1 KiB/s under /throttled/ (a
/// 3 KB PNG then takes about three seconds).
@Suite struct ImageDownloaderOverCurlTests {
    private struct Rig: Sendable {
        let transport: CurlTransport
        let session: SessionManager
        let log: TransferLog
        let cache: AutoPurgingImageCache<PixelImage>
        let downloader: ImageDownloader

        init(maximumActiveDownloads: Int = 4) {
            transport = CurlTestServers.transport()
            log = TransferLog()
            session = SessionManager(transport: transport, eventMonitors: [log])
            cache = AutoPurgingImageCache<PixelImage>()
            downloader = ImageDownloader(
                session: session,
                imageCache: cache,
                maximumActiveDownloads: maximumActiveDownloads
            )
        }

        func close() async {
            await downloader.waitUntilIdle()
            await session.shutdown()
            await transport.shutdown()
        }
    }

    private static func url(_ path: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(CurlTestServers.http).adding(path))
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func decodesPNGJPEGAndWebP() async throws {
        let rig = Rig()
        for name in ["gradient.png", "gradient.jpg", "gradient.webp"] {
            let response = try await rig.downloader.image(for: try Self.url("/images/\(name)"))
            #expect(response.response?.status.code == 200, "\(name)")
            #expect(response.image.width == 37 && response.image.height == 23, "\(name)")
        }
        #expect(rig.cache.count == 3)
        await rig.close()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func oneHundredIdenticalConcurrentRequestsMakeOneTransfer() async throws {
        let rig = Rig()
        let request = try Self.url("/throttled/images/gradient.png")
        let tally = Tally()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    let receipt = rig.downloader.download(request) { result in
                        if case .success(let response) = result { tally.images.withLock { $0.append(response.image) } }
                    }
                    if receipt != nil { tally.receipts.withLock { $0 += 1 } }
                }
            }
        }
        await rig.downloader.waitUntilIdle()

        #expect(tally.receipts.withLock { $0 } == 100)  // every one joined the transfer: none was a cache hit
        #expect(rig.log.started.count == 1)
        #expect(tally.images.withLock { $0.count } == 100)
        #expect(Set(tally.images.withLock { $0 }).count == 1)
        await rig.close()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func theFifthDownloadWaitsForASlot() async throws {
        let rig = Rig()
        for index in 1...5 {
            rig.downloader.download(try Self.url("/throttled/images/gradient.png?n=\(index)")) { _ in }
        }
        await rig.log.waitForStarted(4)
        #expect(rig.downloader.queuedDownloadCount == 1)
        #expect(rig.downloader.activeDownloadCount == 4)

        await rig.downloader.waitUntilIdle()
        let kinds = rig.log.kinds
        let fifthStart = try #require(kinds.indices.filter { kinds[$0] == .requestStarted }.last)
        let firstCompletion = try #require(kinds.firstIndex(of: .taskCompleted))
        #expect(firstCompletion < fifthStart)
        #expect(rig.log.started.last?.hasSuffix("n=5") == true)
        await rig.close()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func cancellingAQueuedDownloadSendsNothing() async throws {
        let rig = Rig(maximumActiveDownloads: 1)
        let tally = Tally()
        rig.downloader.download(try Self.url("/throttled/images/gradient.png")) { _ in }
        let queued = try #require(
            rig.downloader.download(try Self.url("/images/gradient.jpg")) { result in
                if case .failure(let error) = result { tally.failure.withLock { $0 = error } }
            }
        )
        rig.downloader.cancel(queued)
        await rig.downloader.waitUntilIdle()

        #expect(tally.failure.withLock { $0?.urlErrorCode } == -999)
        #expect(rig.log.started.count == 1)
        #expect(rig.log.started.first?.hasSuffix("/throttled/images/gradient.png") == true)
        await rig.close()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func cancellingAStartedDownloadStopsTheTransfer() async throws {
        let rig = Rig()
        let request = try Self.url("/throttled/images/gradient.png?cancelled")
        let task = Task { try await rig.downloader.image(for: request) }
        await rig.log.waitForStarted(1)
        let started = ContinuousClock.now
        task.cancel()

        let error = await #expect(throws: ImageDownloadError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        await rig.downloader.waitUntilIdle()
        // The throttled file would take seconds; the cancelled transfer ends well before.
        #expect(ContinuousClock.now - started < IntegrationEnvironment.bound(.seconds(2)))
        #expect(rig.cache.count == 0)
        await rig.close()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aCorruptImageFailsWithTheDecodingError() async throws {
        let rig = Rig()
        let error = await #expect(throws: ImageDownloadError.self) {
            try await rig.downloader.image(for: try Self.url("/images/corrupt.png"))
        }
        #expect(error?.kind == .fetchFailed)
        #expect(error?.urlErrorCode == -1016)
        #expect(error?.response?.status.code == 200)
        #expect(rig.cache.count == 0)
        await rig.close()
    }
}
