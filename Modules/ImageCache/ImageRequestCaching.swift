public import CourierHTTP

/// An image cache keyed by request: AFNetworking's `AFImageRequestCache`.
///
/// The request variants store under ``ImageRequestKey/identifier(for:additionalIdentifier:)``, the
/// request's URL plus an optional additional identifier (a filter or a size, say), so the same URL
/// can hold several variants. The default implementations below build that key and call the
/// identifier-based methods of ``ImageCaching``; ``shouldCache(_:for:withAdditionalIdentifier:)``
/// answers `true`, as AFNetworking's does.
///
/// ```swift
/// let cache = AutoPurgingImageCache<PixelImage>()
/// cache.add(thumbnail, for: request, withAdditionalIdentifier: "128x128")
/// let hit = cache.image(for: request, withAdditionalIdentifier: "128x128")
/// ```
public protocol ImageRequestCaching<Image>: ImageCaching {
    /// Whether a downloader should store `image`, fetched for `request`.
    func shouldCache(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?) -> Bool

    /// Stores `image` for `request` and the additional identifier, replacing what was there.
    func add(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?)

    /// Removes the image for `request` and the additional identifier.
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    func removeImage(for request: HTTPRequest, withAdditionalIdentifier identifier: String?) -> Bool

    /// The image for `request` and the additional identifier, or `nil`.
    func image(for request: HTTPRequest, withAdditionalIdentifier identifier: String?) -> Image?
}

extension ImageRequestCaching {
    /// Answers `true`: every downloaded image is cached, as in AFNetworking.
    ///
    /// ```swift
    /// if cache.shouldCache(image, for: request, withAdditionalIdentifier: nil) { cache.add(image, for: request, withAdditionalIdentifier: nil) }
    /// ```
    public func shouldCache(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?)
        -> Bool
    {
        true
    }

    /// Stores under the request key.
    ///
    /// ```swift
    /// cache.add(image, for: request, withAdditionalIdentifier: nil)
    /// ```
    public func add(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?) {
        add(image, withIdentifier: ImageRequestKey.identifier(for: request, additionalIdentifier: identifier))
    }

    /// Removes under the request key.
    ///
    /// ```swift
    /// cache.removeImage(for: request, withAdditionalIdentifier: nil)
    /// ```
    @discardableResult
    public func removeImage(for request: HTTPRequest, withAdditionalIdentifier identifier: String?) -> Bool {
        removeImage(withIdentifier: ImageRequestKey.identifier(for: request, additionalIdentifier: identifier))
    }

    /// Looks up under the request key.
    ///
    /// ```swift
    /// let hit = cache.image(for: request, withAdditionalIdentifier: nil)
    /// ```
    public func image(for request: HTTPRequest, withAdditionalIdentifier identifier: String?) -> Image? {
        image(withIdentifier: ImageRequestKey.identifier(for: request, additionalIdentifier: identifier))
    }
}
