public import FoundationEssentials

/// The handle of one request to ``ImageDownloader``: AFNetworking's `AFImageDownloadReceipt`.
///
/// Several receipts can share one download (requests for the same URL are merged);
/// ``ImageDownloader/cancel(_:)`` cancels one receipt, and the transfer stops only when its last
/// receipt is gone.
///
/// ```swift
/// let receipt = downloader.download(request) { result in show(result) }
/// if let receipt { downloader.cancel(receipt) }
/// ```
public struct ImageDownloadReceipt: Sendable, Hashable {
    /// The caller's identifier, or a fresh `UUID` when the caller chose none.
    public let receiptID: UUID
    /// The URL of the download, the key it was merged under.
    public let url: URL
    /// The merged download this receipt belongs to.
    let mergedTaskIdentifier: Int
}
