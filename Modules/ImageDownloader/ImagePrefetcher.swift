public import CourierHTTP
internal import CourierLocking
internal import FoundationEssentials

/// Loads images ahead of need at low priority, as Nuke's `ImagePrefetcher`: into the downloader's
/// image cache, so that a later request is a cache hit.
///
/// Prefetches are ordinary downloads at ``ImageDownloadPriority/low``: they wait behind every
/// normal download, and they share the downloader's merging, so a user request for a URL being
/// prefetched joins that transfer (and raises it to normal). Stopping a prefetch cancels only the
/// prefetcher's receipt; a transfer that a user request also waits for goes on.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(downloader: downloader)
/// prefetcher.startPrefetching(upcomingRows.map { HTTPRequest(url: $0.imageURL) })
/// // The user scrolled the other way:
/// prefetcher.stopPrefetching()
/// ```
public final class ImagePrefetcher: Sendable {
    /// The downloader the prefetches go through.
    public let downloader: ImageDownloader

    private struct Entry {
        let identifier: UUID
        var receipt: ImageDownloadReceipt?
    }

    /// The prefetches under way, by URL.
    private let entries = Lock<[String: Entry]>([:])

    /// A prefetcher on `downloader`.
    ///
    /// ```swift
    /// let prefetcher = ImagePrefetcher(downloader: downloader)
    /// ```
    /// - Parameter downloader: The downloader, whose cache the images land in.
    public init(downloader: ImageDownloader) {
        self.downloader = downloader
    }

    /// How many prefetches are under way.
    public var count: Int { entries.withLock { $0.count } }

    /// Starts prefetching each request whose URL is not being prefetched already; a cached image is
    /// not loaded again.
    ///
    /// ```swift
    /// prefetcher.startPrefetching([HTTPRequest(url: next)])
    /// ```
    /// - Parameter requests: The requests.
    public func startPrefetching(_ requests: [HTTPRequest]) {
        for request in requests {
            let key = request.url.absoluteString
            let identifier = UUID()
            let isNew = entries.withLock { entries in
                guard entries[key] == nil else { return false }
                entries[key] = Entry(identifier: identifier)
                return true
            }
            guard isNew else { continue }
            let receipt = downloader.download(request, receiptID: identifier, priority: .low) { _ in
                self.entries.withLock { entries in
                    if entries[key]?.identifier == identifier { entries[key] = nil }
                }
            }
            entries.withLock { entries in
                if entries[key]?.identifier == identifier { entries[key]?.receipt = receipt }
            }
        }
    }

    /// Stops prefetching these requests' URLs.
    ///
    /// ```swift
    /// prefetcher.stopPrefetching([HTTPRequest(url: passed)])
    /// ```
    /// - Parameter requests: The requests.
    public func stopPrefetching(_ requests: [HTTPRequest]) {
        let keys = Set(requests.map(\.url.absoluteString))
        let receipts = entries.withLock { entries in
            keys.compactMap { entries.removeValue(forKey: $0)?.receipt }
        }
        downloader.cancel(contentsOf: receipts)
    }

    /// Stops every prefetch.
    ///
    /// ```swift
    /// prefetcher.stopPrefetching()
    /// ```
    public func stopPrefetching() {
        let receipts = entries.withLock { entries in
            defer { entries = [:] }
            return entries.values.compactMap(\.receipt)
        }
        downloader.cancel(contentsOf: receipts)
    }
}
