/// The order in which queued downloads start: AFNetworking's `AFImageDownloadPrioritization`.
///
/// ```swift
/// let downloader = ImageDownloader(fetcher: fetcher, prioritization: .lifo)  // newest first: a scrolling list
/// ```
public enum ImageDownloadPrioritization: Sendable, Hashable {
    /// First in, first out: a download waiting for a slot goes to the back of the queue.
    case fifo
    /// Last in, first out: it goes to the front, so the latest request starts next.
    case lifo
}
