public import CourierHTTP
public import CourierImageCache
internal import CourierLocking
public import Dispatch
internal import FoundationEssentials

/// Something that shows one image at a time from the network: AFNetworking's `UIImageView`
/// category, for a UI toolkit's view or a server-side consumer.
///
/// The conformer says where ``setImage(_:)`` runs: ``imageQueue``, a serial queue (a toolkit's UI
/// queue, say). The success and failure closures run there too, so a conformer never sees a call
/// from another thread. ``setImage(with:placeholder:downloader:success:failure:)`` follows
/// AFNetworking's rules:
///
/// 1. A request for the URL the target is already loading is ignored, whatever its placeholder
///    and closures.
/// 2. Otherwise the previous download is cancelled (through the downloader).
/// 3. The downloader's image cache is looked up at once, whatever the cache policy: on a hit the
///    success closure gets the image (and must show it), or, without one, the image is set.
/// 4. On a miss the placeholder is set, if there is one (without one the old image stays), and the
///    download starts. When it ends, only if it is still the target's current download: the success
///    closure, or the image is set; or the failure closure. A stale completion is dropped.
///
/// A request cannot lack a URL here, so AFNetworking's -1000 rule for one has no counterpart.
///
/// ```swift
/// final class Avatar: ImageTarget, @unchecked Sendable {
///     let imageQueue = DispatchQueue(label: "ui")
///     let imageBinding = ImageTargetBinding()
///     var shown: PixelImage?  // touched on imageQueue only
///     func setImage(_ image: PixelImage) { shown = image }
/// }
///
/// avatar.setImage(with: HTTPRequest(url: url), placeholder: silhouette, downloader: downloader)
/// ```
public protocol ImageTarget: AnyObject, Sendable {
    /// The serial queue ``setImage(_:)`` and the success and failure closures run on.
    var imageQueue: DispatchQueue { get }
    /// The target's download state; one per target, never shared.
    var imageBinding: ImageTargetBinding { get }
    /// Shows `image`; called on ``imageQueue``.
    func setImage(_ image: PixelImage)
}

extension ImageTarget {
    /// Shows the image of `request`, by AFNetworking's rules (see ``ImageTarget``).
    ///
    /// ```swift
    /// view.setImage(with: HTTPRequest(url: url), placeholder: grey, downloader: downloader) { _, _, image in
    ///     view.setImage(image.cropped())  // the closure shows the image itself
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request; AFNetworking's `setImageWithURL:` adds `Accept: image/*`.
    ///   - placeholder: Shown while the image loads; the old image stays when `nil`.
    ///   - downloader: The downloader and its image cache.
    ///   - success: Called with the request, the response (`nil` from the cache) and the image,
    ///     instead of setting it.
    ///   - failure: Called with the error.
    public func setImage(
        with request: HTTPRequest,
        placeholder: PixelImage? = nil,
        downloader: ImageDownloader,
        success: (@Sendable (HTTPRequest, HTTPResponse?, PixelImage) -> Void)? = nil,
        failure: (@Sendable (ImageDownloadError) -> Void)? = nil
    ) {
        let url = request.url.absoluteString
        let identifier = UUID()
        let previous = imageBinding.active.withLock { active -> ImageTargetBinding.Active?? in
            if let current = active, current.url == url { return nil }
            defer { active = ImageTargetBinding.Active(identifier: identifier, url: url, downloader: downloader) }
            return .some(active)
        }
        guard let previous else { return }
        if let previous, let receipt = previous.receipt { previous.downloader.cancel(receipt) }

        let queue = imageQueue
        if let image = downloader.imageCache?.image(for: request, withAdditionalIdentifier: nil) {
            _ = imageBinding.finish(identifier)
            queue.async {
                if let success { success(request, nil, image) } else { self.setImage(image) }
            }
            return
        }
        if let placeholder { queue.async { self.setImage(placeholder) } }

        let receipt = downloader.download(request, receiptID: identifier) { result in
            // Checked on the target's queue, where a newer request's placeholder is queued too, so
            // a stale image can never land after it.
            queue.async {
                guard self.imageBinding.finish(identifier) else { return }
                switch result {
                case .success(let response):
                    if let success {
                        success(request, response.response, response.image)
                    } else {
                        self.setImage(response.image)
                    }
                case .failure(let error):
                    failure?(error)
                }
            }
        }
        imageBinding.active.withLock { active in
            if active?.identifier == identifier { active?.receipt = receipt }
        }
    }

    /// Cancels the download the target waits for, if any; its closures are not called.
    ///
    /// ```swift
    /// cell.avatar.cancelImageDownload()  // the cell is being reused
    /// ```
    public func cancelImageDownload() {
        let previous = imageBinding.active.withLock { active in
            defer { active = nil }
            return active
        }
        if let previous, let receipt = previous.receipt { previous.downloader.cancel(receipt) }
    }
}
