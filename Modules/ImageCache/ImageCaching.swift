/// A thread-safe in-memory store of images by identifier: AFNetworking's `AFImageCache`.
///
/// ```swift
/// let cache: any ImageCaching<PixelImage> = AutoPurgingImageCache<PixelImage>()
/// cache.add(image, withIdentifier: "avatar-42")
/// let hit = cache.image(withIdentifier: "avatar-42")
/// ```
///
/// - Important: Conformers must be safe to call from any thread at once, and a write must be
///   visible to every read that starts after it returns.
public protocol ImageCaching<Image>: AnyObject, Sendable {
    /// The image type the cache holds.
    associatedtype Image: CacheableImage

    /// Stores `image` under `identifier`, replacing any image already there.
    func add(_ image: Image, withIdentifier identifier: String)

    /// Removes the image under `identifier`.
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    func removeImage(withIdentifier identifier: String) -> Bool

    /// Removes every image.
    ///
    /// - Returns: Whether the cache held any.
    @discardableResult
    func removeAllImages() -> Bool

    /// The image under `identifier`, or `nil`.
    func image(withIdentifier identifier: String) -> Image?
}
