public import CourierHTTP
// Public because the inlinable add and lookup below name the Lock; no public API exposes it.
public import CourierLocking

/// An in-memory image cache that purges the least recently used images when it grows past its
/// capacity: AFNetworking's `AFAutoPurgingImageCache`, rule for rule.
///
/// - Each image costs its ``CacheableImage/memoryCost`` (pixel count × 4 for ``PixelImage``:
///   850 × 300 pixels cost 1,020,000 bytes).
/// - Adding under an identifier that is taken replaces the image; the old image's cost is
///   subtracted first.
/// - A purge runs after an add, and only when ``memoryUsage`` is strictly greater than
///   ``memoryCapacity``. It removes images in order of last access (add or hit), oldest first, and
///   stops as soon as it has removed at least `memoryUsage − preferredMemoryUsageAfterPurge` bytes.
///   The image just added goes last, so an image larger than the capacity is never retained.
/// - Last access is a counter, not a clock, so the order never ties.
/// - The request variants of ``ImageRequestCaching`` key by URL and additional identifier with a
///   separator (see ``ImageRequestKey``), where AFNetworking's keys can collide.
///
/// All state sits behind one `Lock`; every call is a hash lookup under it, except the add that
/// triggers a purge, which sorts the entries.
///
/// ```swift
/// let cache = AutoPurgingImageCache<PixelImage>()  // 100 MiB, purged to 60 MiB
/// let logo = try PixelImage(width: 850, height: 300, pixels: pixels)
/// cache.add(logo, withIdentifier: "logo")
/// print(cache.memoryUsage)  // 1020000
/// let hit = cache.image(withIdentifier: "logo")
/// ```
public final class AutoPurgingImageCache<Image: CacheableImage>: ImageRequestCaching {
    /// The usage above which an add purges: 100 MiB (104,857,600 bytes) by default.
    public let memoryCapacity: Int
    /// The usage a purge aims for: 60 MiB (62,914,560 bytes) by default; never above
    /// ``memoryCapacity``.
    public let preferredMemoryUsageAfterPurge: Int

    @usableFromInline let state = Lock(AutoPurgingCacheState<Image>())
    private let shouldCacheImage: @Sendable (Image, HTTPRequest, String?) -> Bool

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let small = AutoPurgingImageCache<PixelImage>(
    ///     memoryCapacity: 20 << 20,
    ///     preferredMemoryUsageAfterPurge: 12 << 20,
    ///     shouldCache: { image, _, _ in image.memoryCost < 4 << 20 }
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - memoryCapacity: The usage above which an add purges; negative counts as 0.
    ///   - preferredMemoryUsageAfterPurge: What a purge aims for; clamped to `0...memoryCapacity`
    ///     (AFNetworking asserts instead).
    ///   - shouldCache: The answer of ``shouldCache(_:for:withAdditionalIdentifier:)``; `true` for
    ///     every image by default.
    public init(
        memoryCapacity: Int = 100 * 1024 * 1024,
        preferredMemoryUsageAfterPurge: Int = 60 * 1024 * 1024,
        shouldCache: @escaping @Sendable (Image, HTTPRequest, String?) -> Bool = { _, _, _ in true }
    ) {
        self.memoryCapacity = max(0, memoryCapacity)
        self.preferredMemoryUsageAfterPurge = min(max(0, preferredMemoryUsageAfterPurge), self.memoryCapacity)
        self.shouldCacheImage = shouldCache
    }

    /// The summed cost of the images held now, in bytes.
    public var memoryUsage: Int {
        state.withLock { $0.usage }
    }

    /// How many images the cache holds now.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Stores `image` under `identifier`, replacing any image there, then purges if usage is over
    /// the capacity.
    ///
    /// ```swift
    /// cache.add(image, withIdentifier: "avatar-42")
    /// ```
    @inlinable
    public func add(_ image: Image, withIdentifier identifier: String) {
        state.withLock {
            $0.add(
                image,
                identifier: identifier,
                capacity: memoryCapacity,
                preferredAfterPurge: preferredMemoryUsageAfterPurge
            )
        }
    }

    /// Removes the image under `identifier`.
    ///
    /// ```swift
    /// let removed = cache.removeImage(withIdentifier: "avatar-42")
    /// ```
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    public func removeImage(withIdentifier identifier: String) -> Bool {
        state.withLock { $0.remove(identifier: identifier) }
    }

    /// Removes every image and resets ``memoryUsage`` to 0.
    ///
    /// ```swift
    /// cache.removeAllImages()
    /// ```
    ///
    /// - Returns: Whether the cache held any.
    @discardableResult
    public func removeAllImages() -> Bool {
        state.withLock { $0.removeAll() }
    }

    /// The image under `identifier`, or `nil`; a hit makes it the most recently used.
    ///
    /// ```swift
    /// if let image = cache.image(withIdentifier: "avatar-42") { show(image) }
    /// ```
    @inlinable
    public func image(withIdentifier identifier: String) -> Image? {
        state.withLock { $0.image(identifier: identifier) }
    }

    /// The `shouldCache` closure's answer; `true` unless the cache was made with another.
    ///
    /// ```swift
    /// if cache.shouldCache(image, for: request, withAdditionalIdentifier: nil) { cache.add(image, for: request, withAdditionalIdentifier: nil) }
    /// ```
    public func shouldCache(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?)
        -> Bool
    {
        shouldCacheImage(image, request, identifier)
    }
}
