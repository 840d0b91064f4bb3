public import CourierHTTP
public import CourierImageCache
internal import CourierLocking
public import CourierSessionCore
public import Dispatch
public import FoundationEssentials

/// Downloads, decodes and caches images: AFNetworking's `AFImageDownloader`, rule for rule.
///
/// - At most ``maximumActiveDownloads`` (4 by default) run at once; the others wait in a queue,
///   first in first out or last in first out (``prioritization``), ``ImageDownloadPriority/low``
///   ones behind every normal one.
/// - A request for a URL already in flight (compared as absolute strings; headers play no part)
///   joins that download: one transfer, one callback per receipt. This is checked before the cache.
/// - Then, unless the policy is ``ImageDownloadCachePolicy/reloadIgnoringCache``, the image cache
///   is consulted (request key, no additional identifier). A hit calls back with the image and a
///   `nil` response and returns no receipt.
/// - When a download ends, an image the cache `shouldCache(_:for:withAdditionalIdentifier:)`
///   accepts is stored first, then every receipt's callback runs, in the order the receipts were
///   made. Callbacks run on ``callbackQueue``; Linux has no main queue to default to.
/// - ``cancel(_:)`` fails that receipt with -999 and the reason
///   `ImageDownloader cancelled URL request: <url>`; the transfer is cancelled only when its last
///   receipt goes. A completion of a download that was cancelled and requested again is ignored
///   (the new download's receipts are not called with the old result).
///
/// Each request is loaded with AFNetworking's session defaults in the fields it leaves unset
/// (``ImageDownloadSessionDefaults``: 60 s without data, cookies on).
///
/// Unlike AFNetworking, a download cancelled while it waits in the queue never takes a slot:
/// AFNetworking still completes the never-started task and gives back a slot it did not hold,
/// which lets more than the maximum run at once. Here a slot is held from the start of a fetch to
/// its completion, and a download cancelled in the queue leaves without touching the count.
///
/// ```swift
/// let downloader = ImageDownloader(fetcher: SessionImageFetcher(transport: CurlTransport()))
/// let receipt = downloader.download(HTTPRequest(url: avatarURL)) { result in
///     if case .success(let response) = result { show(response.image) }
/// }
/// // Later, when the cell is reused:
/// if let receipt { downloader.cancel(receipt) }
/// ```
public final class ImageDownloader: Sendable {
    /// What makes the transfers.
    public let fetcher: any ImageFetching
    /// Where downloaded images are stored and looked up; `nil` for no cache.
    public let imageCache: (any ImageRequestCaching<PixelImage>)?
    /// The order queued downloads start in.
    public let prioritization: ImageDownloadPrioritization
    /// How many downloads run at once.
    public let maximumActiveDownloads: Int
    /// Where the callbacks run, one after another in the order they were scheduled.
    public let callbackQueue: DispatchQueue

    private let state = Lock(ImageDownloaderState())

    /// Creates a downloader.
    ///
    /// ```swift
    /// let downloader = ImageDownloader(
    ///     fetcher: SessionImageFetcher(transport: MockTransport()),
    ///     imageCache: RecordingImageCache<PixelImage>(),
    ///     prioritization: .lifo,
    ///     maximumActiveDownloads: 2,
    ///     callbackQueue: DispatchQueue(label: "ui")
    /// )
    /// ```
    /// - Parameters:
    ///   - fetcher: What makes the transfers.
    ///   - imageCache: The image cache; a new `AutoPurgingImageCache` (100 MiB) by default.
    ///   - prioritization: The queue order; first in first out by default.
    ///   - maximumActiveDownloads: Downloads at once; 4 by default, at least 1.
    ///   - callbackQueue: Where callbacks run; a new serial queue by default.
    public init(
        fetcher: any ImageFetching,
        imageCache: (any ImageRequestCaching<PixelImage>)? = AutoPurgingImageCache<PixelImage>(),
        prioritization: ImageDownloadPrioritization = .fifo,
        maximumActiveDownloads: Int = 4,
        callbackQueue: DispatchQueue = DispatchQueue(label: "courier.image-downloader.callbacks")
    ) {
        self.fetcher = fetcher
        self.imageCache = imageCache
        self.prioritization = prioritization
        self.maximumActiveDownloads = max(1, maximumActiveDownloads)
        self.callbackQueue = callbackQueue
    }

    /// A downloader whose fetcher is a ``SessionImageFetcher`` on `session`.
    ///
    /// ```swift
    /// let downloader = ImageDownloader(session: CourierClient().session)
    /// ```
    /// - Parameters:
    ///   - session: The session the transfers go through.
    ///   - imageCache: The image cache.
    ///   - prioritization: The queue order.
    ///   - maximumActiveDownloads: Downloads at once.
    ///   - callbackQueue: Where callbacks run.
    public convenience init(
        session: any HTTPSession,
        imageCache: (any ImageRequestCaching<PixelImage>)? = AutoPurgingImageCache<PixelImage>(),
        prioritization: ImageDownloadPrioritization = .fifo,
        maximumActiveDownloads: Int = 4,
        callbackQueue: DispatchQueue = DispatchQueue(label: "courier.image-downloader.callbacks")
    ) {
        self.init(
            fetcher: SessionImageFetcher(session: session),
            imageCache: imageCache,
            prioritization: prioritization,
            maximumActiveDownloads: maximumActiveDownloads,
            callbackQueue: callbackQueue
        )
    }

    /// How many downloads hold a slot now (a cancelled one holds it until its fetch ends).
    public var activeDownloadCount: Int { state.withLock { $0.active.count } }

    /// How many downloads wait for a slot now.
    public var queuedDownloadCount: Int {
        state.withLock { state in state.merged.values.count { !$0.started } }
    }

    /// Whether nothing is in flight, queued or waiting to be called back.
    public var isIdle: Bool { state.withLock { $0.isIdle } }

    // MARK: Downloading

    /// Downloads the image for `request`, or joins the download of its URL in flight, or serves it
    /// from the image cache.
    ///
    /// ```swift
    /// let receipt = downloader.download(request, receiptID: cell.id) { result in
    ///     switch result {
    ///     case .success(let response): cell.show(response.image)
    ///     case .failure(let error) where error.kind == .cancelled: break
    ///     case .failure: cell.showBrokenImage()
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request, sent as given.
    ///   - receiptID: The receipt's identifier; a new `UUID` by default.
    ///   - cachePolicy: Whether the image cache is consulted first.
    ///   - priority: ``ImageDownloadPriority/low`` to wait behind every normal download.
    ///   - completion: Called once on ``callbackQueue``.
    /// - Returns: The receipt, or `nil` when the call was answered without a download (a cache hit,
    ///   a cache-only miss).
    @discardableResult
    public func download(
        _ request: HTTPRequest,
        receiptID: UUID = UUID(),
        cachePolicy: ImageDownloadCachePolicy = .useCache,
        priority: ImageDownloadPriority = .normal,
        completion: @escaping @Sendable (Result<ImageDownloadResponse, ImageDownloadError>) -> Void
    ) -> ImageDownloadReceipt? {
        let handler = ImageDownloaderState.Handler(
            receiptID: receiptID,
            request: request,
            onCallbackQueue: true,
            completion: completion
        )
        return download(request, handler: handler, cachePolicy: cachePolicy, priority: priority)
    }

    /// The async twin of ``download(_:receiptID:cachePolicy:priority:completion:)``: cancelling the
    /// calling task cancels its receipt.
    ///
    /// ```swift
    /// let avatar = try await downloader.image(for: HTTPRequest(url: avatarURL)).image
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - receiptID: The receipt's identifier.
    ///   - cachePolicy: Whether the image cache is consulted first.
    ///   - priority: The priority.
    /// - Returns: The image, its request and response (`nil` from the cache).
    /// - Throws: ``ImageDownloadError``; ``ImageDownloadError/Kind/cancelled`` when the task was cancelled.
    public func image(
        for request: HTTPRequest,
        receiptID: UUID = UUID(),
        cachePolicy: ImageDownloadCachePolicy = .useCache,
        priority: ImageDownloadPriority = .normal
    ) async throws(ImageDownloadError) -> ImageDownloadResponse {
        let cancellation = Lock(AsyncCancellation.pending)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<ImageDownloadResponse, ImageDownloadError>, Never>) in
                let handler = ImageDownloaderState.Handler(
                    receiptID: receiptID,
                    request: request,
                    onCallbackQueue: false,
                    completion: { continuation.resume(returning: $0) }
                )
                guard let receipt = download(request, handler: handler, cachePolicy: cachePolicy, priority: priority)
                else { return }
                let cancelled = cancellation.withLock { state in
                    guard case .pending = state else { return true }
                    state = .receipt(receipt)
                    return false
                }
                if cancelled { cancel(receipt) }
            }
        } onCancel: {
            let receipt = cancellation.withLock { state -> ImageDownloadReceipt? in
                defer { state = .cancelled }
                if case .receipt(let receipt) = state { return receipt }
                return nil
            }
            if let receipt { cancel(receipt) }
        }
        return try result.get()
    }

    /// Cancels one receipt: its callback fails with -999 at once (on ``callbackQueue``), and the
    /// transfer is cancelled when no other receipt shares it. A receipt whose download has ended,
    /// or that was cancelled already, is ignored.
    ///
    /// ```swift
    /// downloader.cancel(receipt)
    /// ```
    /// - Parameter receipt: The receipt.
    public func cancel(_ receipt: ImageDownloadReceipt) {
        cancel(contentsOf: [receipt])
    }

    /// Cancels several receipts at once, as ``cancel(_:)`` does each; no download queued behind
    /// them starts in between, so stopping a batch never starts one of its own queued downloads.
    ///
    /// ```swift
    /// downloader.cancel(contentsOf: visibleCells.compactMap(\.receipt))
    /// ```
    /// - Parameter receipts: The receipts.
    public func cancel(contentsOf receipts: [ImageDownloadReceipt]) {
        let (handlers, fetches) = state.withLock { state in
            var handlers: [ImageDownloaderState.Handler] = []
            var fetches: [any ImageFetch] = []
            for receipt in receipts {
                let key = receipt.url.absoluteString
                guard var task = state.merged[key],
                    let index = task.handlers.firstIndex(where: { $0.receiptID == receipt.receiptID })
                else { continue }
                handlers.append(task.handlers.remove(at: index))
                state.merged[key] = task
                if task.handlers.isEmpty, let fetch = state.drop(key) { fetches.append(fetch) }
            }
            state.pendingCallbacks += handlers.count
            return (handlers, fetches)
        }
        for handler in handlers { run(handler, .failure(.cancelled(handler.request))) }
        for fetch in fetches { fetch.cancel() }
    }

    // MARK: Waiting

    /// Returns once nothing is in flight, queued or waiting to be called back; at once when idle.
    ///
    /// ```swift
    /// downloader.download(request) { _ in }
    /// await downloader.waitUntilIdle()
    /// ```
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            notifyWhenIdle { continuation.resume() }
        }
    }

    /// The callback twin of ``waitUntilIdle()``: `body` runs once, on the thread that made the
    /// downloader idle (or the caller's, when it is idle now).
    ///
    /// ```swift
    /// downloader.notifyWhenIdle { print("all images are in") }
    /// ```
    /// - Parameter body: What to run.
    public func notifyWhenIdle(_ body: @escaping @Sendable () -> Void) {
        let idle = state.withLock { state in
            if state.isIdle { return true }
            state.idleWaiters.append(body)
            return false
        }
        if idle { body() }
    }

    // MARK: Internals

    private enum AsyncCancellation {
        case pending
        case receipt(ImageDownloadReceipt)
        case cancelled
    }

    private func download(
        _ request: HTTPRequest,
        handler caller: ImageDownloaderState.Handler,
        cachePolicy: ImageDownloadCachePolicy,
        priority: ImageDownloadPriority
    ) -> ImageDownloadReceipt? {
        // AFNetworking hands the request's cache policy to the URL cache too: a request that left
        // the default is loaded with the HTTP cache policy that matches the image cache's.
        var loaded = ImageDownloadSessionDefaults.applied(to: request)
        if loaded.cachePolicy == .useProtocolPolicy { loaded.cachePolicy = cachePolicy.httpCachePolicy }
        let handler = ImageDownloaderState.Handler(
            receiptID: caller.receiptID,
            request: loaded,
            onCallbackQueue: caller.onCallbackQueue,
            completion: caller.completion
        )
        let key = request.url.absoluteString
        let prioritization = prioritization
        let joined = state.withLock { $0.join(key, handler, priority: priority, prioritization: prioritization) }
        if let joined { return joined }

        // The cache is called outside the lock, so a cache that calls back into the downloader
        // cannot deadlock it.
        if cachePolicy.consultsCache {
            if let image = imageCache?.image(for: request, withAdditionalIdentifier: nil) {
                state.withLock { $0.pendingCallbacks += 1 }
                run(handler, .success(ImageDownloadResponse(request: request, response: nil, image: image)))
                return nil
            }
            if cachePolicy == .cacheOnly {
                state.withLock { $0.pendingCallbacks += 1 }
                let error = ImageDownloadError(
                    kind: .notCached,
                    request: request,
                    failureReason: "ImageDownloader has no cached image for URL request: \(key)"
                )
                run(handler, .failure(error))
                return nil
            }
        }

        let maximumActive = maximumActiveDownloads
        let (receipt, startable) = state.withLock { state -> (ImageDownloadReceipt, [ImageDownloaderState.Startable]) in
            // Another caller may have started this URL while the cache was consulted.
            if let joined = state.join(key, handler, priority: priority, prioritization: prioritization) {
                return (joined, [])
            }
            let receipt = state.add(key, handler, priority: priority, prioritization: prioritization)
            return (receipt, state.takeStartable(maximumActive: maximumActive))
        }
        start(startable)
        return receipt
    }

    private func start(_ downloads: [ImageDownloaderState.Startable]) {
        for download in downloads {
            let fetch = fetcher.makeFetch(for: download.request) { result in
                self.finish(download.identifier, key: download.key, result)
            }
            let cancelledMeanwhile = state.withLock { state in
                if state.cancelledBeforeFetch.remove(download.identifier) != nil { return true }
                if state.merged[download.key]?.identifier == download.identifier {
                    state.merged[download.key]?.fetch = fetch
                }
                return false
            }
            if cancelledMeanwhile {
                fetch.cancel()
            } else {
                fetch.start()
            }
        }
    }

    private func finish(_ identifier: Int, key: String, _ result: ImageFetchResult) {
        let maximumActive = maximumActiveDownloads
        let (task, startable) = state.withLock {
            state -> (ImageDownloaderState.MergedTask?, [ImageDownloaderState.Startable]) in
            state.active.remove(identifier)
            state.cancelledBeforeFetch.remove(identifier)
            var finished: ImageDownloaderState.MergedTask?
            // A download cancelled and requested again has a new identifier: the old completion
            // only gives its slot back.
            if state.merged[key]?.identifier == identifier {
                finished = state.merged.removeValue(forKey: key)
                state.pendingCallbacks += finished?.handlers.count ?? 0
            }
            return (finished, state.takeStartable(maximumActive: maximumActive))
        }
        if let task {
            switch result.outcome {
            case .success(let image):
                if let imageCache, imageCache.shouldCache(image, for: task.request, withAdditionalIdentifier: nil) {
                    imageCache.add(image, for: task.request, withAdditionalIdentifier: nil)
                }
                for handler in task.handlers {
                    let response = ImageDownloadResponse(
                        request: handler.request,
                        response: result.response,
                        image: image
                    )
                    run(handler, .success(response))
                }
            case .failure(let error):
                for handler in task.handlers {
                    run(handler, .failure(.fetchFailed(handler.request, error)))
                }
            }
        }
        start(startable)
        resumeIdleWaiters()
    }

    /// Calls one handler, on the callback queue unless it is an async twin's, then counts it done.
    private func run(
        _ handler: ImageDownloaderState.Handler,
        _ result: Result<ImageDownloadResponse, ImageDownloadError>
    ) {
        guard handler.onCallbackQueue else {
            handler.completion(result)
            callbackDone()
            return
        }
        callbackQueue.async {
            handler.completion(result)
            self.callbackDone()
        }
    }

    private func callbackDone() {
        let waiters = state.withLock { state in
            state.pendingCallbacks -= 1
            return state.takeIdleWaitersIfIdle()
        }
        for waiter in waiters { waiter() }
    }

    private func resumeIdleWaiters() {
        for waiter in state.withLock({ $0.takeIdleWaitersIfIdle() }) { waiter() }
    }
}
