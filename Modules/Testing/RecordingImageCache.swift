public import CourierHTTP
public import CourierImageCache
internal import CourierLocking

/// An in-memory image cache that records what was stored, looked up and evicted: a double for
/// tests of code that uses an `ImageRequestCaching` (an image downloader, say).
///
/// With a `countLimit`, adding past it evicts the oldest stored image, and the eviction is
/// recorded; ``removeImage(withIdentifier:)`` and ``removeAllImages()`` record evictions too.
///
/// ```swift
/// let cache = RecordingImageCache<PixelImage>()
/// let downloader = ImageDownloader(fetcher: fetcher, imageCache: cache)
/// _ = try await downloader.image(for: request)
/// #expect(cache.stored.map(\.identifier) == [request.url.absoluteString])
/// ```
public final class RecordingImageCache<Image: CacheableImage>: ImageRequestCaching {
    /// One image stored by ``add(_:withIdentifier:)``.
    public struct Stored: Sendable {
        /// Its identifier.
        public let identifier: String
        /// The image.
        public let image: Image
    }

    private struct State {
        var images: [String: Image] = [:]
        var order: [String] = []
        var stored: [Stored] = []
        var evicted: [String] = []
        var lookups: [String] = []
    }

    private let state = Lock(State())
    /// The most images held at once; `nil` for no limit.
    public let countLimit: Int?
    private let shouldCacheImage: @Sendable (Image) -> Bool

    /// Creates an empty cache.
    ///
    /// ```swift
    /// let cache = RecordingImageCache<PixelImage>(countLimit: 2, shouldCache: { $0.memoryCost < 1 << 20 })
    /// ```
    /// - Parameters:
    ///   - countLimit: The most images held at once; the oldest is evicted past it.
    ///   - shouldCache: The answer of `shouldCache(_:for:withAdditionalIdentifier:)`; `true` by default.
    public init(countLimit: Int? = nil, shouldCache: @escaping @Sendable (Image) -> Bool = { _ in true }) {
        self.countLimit = countLimit
        self.shouldCacheImage = shouldCache
    }

    /// Every add, in order.
    public var stored: [Stored] { state.withLock { $0.stored } }
    /// The identifiers of every image removed or evicted, in order.
    public var evicted: [String] { state.withLock { $0.evicted } }
    /// The identifiers of every lookup, hit or miss, in order.
    public var lookups: [String] { state.withLock { $0.lookups } }
    /// The identifiers held now, oldest first.
    public var identifiers: [String] { state.withLock { $0.order } }

    /// Stores and records `image`, evicting the oldest past the limit.
    ///
    /// ```swift
    /// cache.add(image, withIdentifier: "a")
    /// ```
    /// - Parameters:
    ///   - image: The image.
    ///   - identifier: Its identifier.
    public func add(_ image: Image, withIdentifier identifier: String) {
        state.withLock { state in
            state.stored.append(Stored(identifier: identifier, image: image))
            if state.images.updateValue(image, forKey: identifier) != nil {
                state.order.removeAll { $0 == identifier }
            }
            state.order.append(identifier)
            while let countLimit, state.order.count > max(0, countLimit) {
                let oldest = state.order.removeFirst()
                state.images[oldest] = nil
                state.evicted.append(oldest)
            }
        }
    }

    /// Removes the image and records its eviction.
    ///
    /// ```swift
    /// cache.removeImage(withIdentifier: "a")
    /// ```
    /// - Parameter identifier: Its identifier.
    /// - Returns: Whether there was one.
    @discardableResult
    public func removeImage(withIdentifier identifier: String) -> Bool {
        state.withLock { state in
            guard state.images.removeValue(forKey: identifier) != nil else { return false }
            state.order.removeAll { $0 == identifier }
            state.evicted.append(identifier)
            return true
        }
    }

    /// Removes every image, recording each eviction oldest first.
    ///
    /// ```swift
    /// cache.removeAllImages()
    /// ```
    /// - Returns: Whether the cache held any.
    @discardableResult
    public func removeAllImages() -> Bool {
        state.withLock { state in
            defer {
                state.evicted += state.order
                state.order = []
                state.images = [:]
            }
            return !state.images.isEmpty
        }
    }

    /// The image, recording the lookup.
    ///
    /// ```swift
    /// let hit = cache.image(withIdentifier: "a")
    /// ```
    /// - Parameter identifier: Its identifier.
    /// - Returns: The image, or `nil`.
    public func image(withIdentifier identifier: String) -> Image? {
        state.withLock { state in
            state.lookups.append(identifier)
            return state.images[identifier]
        }
    }

    /// The `shouldCache` closure's answer.
    ///
    /// ```swift
    /// cache.shouldCache(image, for: request, withAdditionalIdentifier: nil)
    /// ```
    /// - Parameters:
    ///   - image: The image.
    ///   - request: The request it was fetched for.
    ///   - identifier: The additional identifier.
    /// - Returns: Whether to store it.
    public func shouldCache(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?)
        -> Bool
    {
        shouldCacheImage(image)
    }
}
