internal import CourierHTTP
internal import FoundationEssentials

/// Everything ``ImageDownloader`` tracks, behind its one lock: merged downloads by URL, the two
/// queues, the active slots and the callbacks still to run.
struct ImageDownloaderState {
    typealias Completion = @Sendable (Result<ImageDownloadResponse, ImageDownloadError>) -> Void

    /// One receipt's callback.
    struct Handler {
        let receiptID: UUID
        let request: HTTPRequest
        /// Async twins are resumed where the download ends rather than on the callback queue, so
        /// that a queue nobody drains cannot hold them.
        let onCallbackQueue: Bool
        let completion: Completion
    }

    /// The download shared by every receipt for one URL: AFNetworking's merged task.
    struct MergedTask {
        let identifier: Int
        let request: HTTPRequest
        var handlers: [Handler]
        var priority: ImageDownloadPriority
        var started = false
        var fetch: (any ImageFetch)?
    }

    /// A download given a slot, to be fetched.
    typealias Startable = (identifier: Int, key: String, request: HTTPRequest)

    struct Queued {
        let identifier: Int
        let key: String
    }

    var merged: [String: MergedTask] = [:]
    var queue: [Queued] = []
    var lowQueue: [Queued] = []
    /// The identifiers of the downloads holding a slot: a slot is taken when a download starts
    /// and given back when its fetch completes, so a download that never started never holds one.
    var active: Set<Int> = []
    /// Started downloads cancelled before their fetch was stored: cancelled once it is.
    var cancelledBeforeFetch: Set<Int> = []
    var nextIdentifier = 0
    var pendingCallbacks = 0
    var idleWaiters: [@Sendable () -> Void] = []

    var isIdle: Bool { merged.isEmpty && active.isEmpty && pendingCallbacks == 0 }

    /// Adds `handler` to the download in flight for `key`, if there is one, raising its priority
    /// when a normal request joins a queued low one.
    mutating func join(
        _ key: String,
        _ handler: Handler,
        priority: ImageDownloadPriority,
        prioritization: ImageDownloadPrioritization
    ) -> ImageDownloadReceipt? {
        guard var task = merged[key] else { return nil }
        task.handlers.append(handler)
        if priority == .normal, task.priority == .low {
            task.priority = .normal
            if let index = lowQueue.firstIndex(where: { $0.identifier == task.identifier }) {
                enqueue(lowQueue.remove(at: index), priority: .normal, prioritization: prioritization)
            }
        }
        merged[key] = task
        return ImageDownloadReceipt(
            receiptID: handler.receiptID,
            url: task.request.url,
            mergedTaskIdentifier: task.identifier
        )
    }

    /// Registers a new download for `key` and queues it.
    mutating func add(
        _ key: String,
        _ handler: Handler,
        priority: ImageDownloadPriority,
        prioritization: ImageDownloadPrioritization
    ) -> ImageDownloadReceipt {
        nextIdentifier += 1
        let task = MergedTask(
            identifier: nextIdentifier,
            request: handler.request,
            handlers: [handler],
            priority: priority
        )
        merged[key] = task
        enqueue(Queued(identifier: task.identifier, key: key), priority: priority, prioritization: prioritization)
        return ImageDownloadReceipt(
            receiptID: handler.receiptID,
            url: task.request.url,
            mergedTaskIdentifier: task.identifier
        )
    }

    private mutating func enqueue(
        _ entry: Queued,
        priority: ImageDownloadPriority,
        prioritization: ImageDownloadPrioritization
    ) {
        switch (priority, prioritization) {
        case (.normal, .fifo): queue.append(entry)
        case (.normal, .lifo): queue.insert(entry, at: 0)
        case (.low, .fifo): lowQueue.append(entry)
        case (.low, .lifo): lowQueue.insert(entry, at: 0)
        }
    }

    /// Takes slots for queued downloads while there are free ones, normal before low, skipping
    /// downloads cancelled while they waited.
    mutating func takeStartable(maximumActive: Int) -> [Startable] {
        var startable: [Startable] = []
        while active.count < maximumActive, let entry = queue.isEmpty ? lowQueue.first : queue.first {
            if queue.isEmpty { lowQueue.removeFirst() } else { queue.removeFirst() }
            guard var task = merged[entry.key], task.identifier == entry.identifier, !task.started else { continue }
            task.started = true
            merged[entry.key] = task
            active.insert(entry.identifier)
            startable.append((entry.identifier, entry.key, task.request))
        }
        return startable
    }

    /// Removes a download whose last receipt was cancelled; the fetch to cancel, if it has one.
    mutating func drop(_ key: String) -> (any ImageFetch)? {
        guard let task = merged.removeValue(forKey: key) else { return nil }
        guard task.started else {
            queue.removeAll { $0.identifier == task.identifier }
            lowQueue.removeAll { $0.identifier == task.identifier }
            return nil
        }
        if task.fetch == nil { cancelledBeforeFetch.insert(task.identifier) }
        return task.fetch
    }

    /// The idle waiters to resume, when the downloader has just become idle.
    mutating func takeIdleWaitersIfIdle() -> [@Sendable () -> Void] {
        guard isIdle else { return [] }
        defer { idleWaiters = [] }
        return idleWaiters
    }
}
