/// How urgent a download is: a queued ``low`` download starts only when no ``normal`` one waits.
///
/// ``ImagePrefetcher`` downloads at ``low``. A ``normal`` request that joins a queued ``low``
/// download raises it to ``normal``, so a prefetch never delays what the user is looking at.
///
/// ```swift
/// downloader.download(request, priority: .low) { _ in }
/// ```
public enum ImageDownloadPriority: Sendable, Hashable {
    /// The default.
    case normal
    /// Prefetching: behind every queued ``normal`` download.
    case low
}
