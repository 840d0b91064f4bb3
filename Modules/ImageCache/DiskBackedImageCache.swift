public import CourierDiskCache
public import CourierHTTP

/// An image cache with two tiers: an ``AutoPurgingImageCache`` in memory in front of a
/// `DiskByteStore` on disk.
///
/// An add goes to both tiers. A lookup that misses in memory reads the disk, decodes the image
/// with ``DiskCodableImage/init(diskRepresentation:)`` and puts it back in memory; an entry that
/// no longer decodes is removed from disk and counts as a miss. The disk tier keeps its own size
/// limit and least-recently-used sweep, and is safe to share between processes: see
/// `DiskByteStore`.
///
/// ```swift
/// let cache = try DiskBackedImageCache<PixelImage>(named: "com.example.thumbnails")
/// cache.add(thumbnail, withIdentifier: "photo-7@128")
/// // Later, in this process or another:
/// let hit = cache.image(withIdentifier: "photo-7@128")
/// ```
///
/// - Important: The disk tier works on the calling thread (see `DiskByteStore`): an add writes the
///   whole image before it returns, and a memory miss reads it. Keep calls from the cooperative
///   pool short (small images, a local disk), or make them from a dedicated thread.
public final class DiskBackedImageCache<Image: DiskCodableImage>: ImageRequestCaching {
    /// The memory tier.
    public let memory: AutoPurgingImageCache<Image>
    /// The disk tier.
    public let disk: DiskByteStore
    private let diskErrorHandler: @Sendable (DiskCacheError) -> Void

    /// Puts `memory` in front of `disk`.
    ///
    /// ```swift
    /// let store = try DiskByteStore(directory: "/var/cache/example/images")
    /// let cache = DiskBackedImageCache(memory: AutoPurgingImageCache<PixelImage>(), disk: store)
    /// ```
    ///
    /// - Parameters:
    ///   - memory: The memory tier.
    ///   - disk: The disk tier.
    ///   - onDiskError: Called with the error when an add cannot write to disk (the image then
    ///     stays in memory only); ignored by default, since a cache may always lose an entry.
    public init(
        memory: AutoPurgingImageCache<Image> = AutoPurgingImageCache<Image>(),
        disk: DiskByteStore,
        onDiskError: @escaping @Sendable (DiskCacheError) -> Void = { _ in }
    ) {
        self.memory = memory
        self.disk = disk
        self.diskErrorHandler = onDiskError
    }

    /// A cache whose disk tier is the folder `name` in the user's cache directory
    /// (`$XDG_CACHE_HOME`, else `~/.cache`).
    ///
    /// ```swift
    /// let cache = try DiskBackedImageCache<PixelImage>(named: "com.example.images")
    /// ```
    ///
    /// - Parameters:
    ///   - name: The folder's name, one path component.
    ///   - memory: The memory tier.
    ///   - configuration: The disk tier's size limit and sweep target.
    /// - Throws: `DiskCacheError` when there is no cache directory or it cannot be created.
    public convenience init(
        named name: String,
        memory: AutoPurgingImageCache<Image> = AutoPurgingImageCache<Image>(),
        configuration: DiskByteStore.Configuration = DiskByteStore.Configuration()
    ) throws(DiskCacheError) {
        let directory = try CacheDirectory.userCacheDirectory(named: name)
        self.init(memory: memory, disk: try DiskByteStore(directory: directory, configuration: configuration))
    }

    /// Stores `image` in memory and on disk.
    ///
    /// ```swift
    /// cache.add(image, withIdentifier: "photo-7")
    /// ```
    public func add(_ image: Image, withIdentifier identifier: String) {
        memory.add(image, withIdentifier: identifier)
        do {
            try disk.store(image.diskRepresentation(), forKey: identifier)
        } catch {
            diskErrorHandler(error)
        }
    }

    /// Removes the image from both tiers.
    ///
    /// ```swift
    /// cache.removeImage(withIdentifier: "photo-7")
    /// ```
    ///
    /// - Returns: Whether either tier held it.
    @discardableResult
    public func removeImage(withIdentifier identifier: String) -> Bool {
        let inMemory = memory.removeImage(withIdentifier: identifier)
        let onDisk = disk.removeValue(forKey: identifier)
        return inMemory || onDisk
    }

    /// Empties both tiers.
    ///
    /// ```swift
    /// cache.removeAllImages()
    /// ```
    ///
    /// - Returns: Whether either tier held anything.
    @discardableResult
    public func removeAllImages() -> Bool {
        let hadDisk = disk.currentSize() > 0
        disk.removeAll()
        let hadMemory = memory.removeAllImages()
        return hadMemory || hadDisk
    }

    /// The image from memory, else from disk (and then kept in memory again), else `nil`.
    ///
    /// ```swift
    /// let image = cache.image(withIdentifier: "photo-7")
    /// ```
    public func image(withIdentifier identifier: String) -> Image? {
        if let image = memory.image(withIdentifier: identifier) { return image }
        guard let bytes = disk.value(forKey: identifier) else { return nil }
        guard let image = try? Image(diskRepresentation: bytes) else {
            disk.removeValue(forKey: identifier)
            return nil
        }
        memory.add(image, withIdentifier: identifier)
        return image
    }

    /// The memory tier's answer.
    ///
    /// ```swift
    /// let keep = cache.shouldCache(image, for: request, withAdditionalIdentifier: nil)
    /// ```
    public func shouldCache(_ image: Image, for request: HTTPRequest, withAdditionalIdentifier identifier: String?)
        -> Bool
    {
        memory.shouldCache(image, for: request, withAdditionalIdentifier: identifier)
    }
}
