internal import CourierLocking
internal import FoundationEssentials

/// The download an ``ImageTarget`` is showing: AFNetworking's per-view active receipt.
///
/// A target stores one and hands it out as ``ImageTarget/imageBinding``; the methods of
/// ``ImageTarget`` keep it.
///
/// ```swift
/// final class Thumbnail: ImageTarget {
///     let imageBinding = ImageTargetBinding()
///     // ...
/// }
/// ```
public final class ImageTargetBinding: Sendable {
    struct Active {
        let identifier: UUID
        let url: String
        let downloader: ImageDownloader
        var receipt: ImageDownloadReceipt?
    }

    let active = Lock<Active?>(nil)

    /// An empty binding.
    ///
    /// ```swift
    /// let binding = ImageTargetBinding()
    /// ```
    public init() {}

    /// The receipt of the download the target waits for, if any.
    public var activeReceipt: ImageDownloadReceipt? { active.withLock { $0?.receipt } }

    /// Whether the target waits for a download.
    public var isLoading: Bool { active.withLock { $0 != nil } }

    /// Clears the active download if it is still `identifier`; whether it was.
    func finish(_ identifier: UUID) -> Bool {
        active.withLock { active in
            guard active?.identifier == identifier else { return false }
            active = nil
            return true
        }
    }
}
