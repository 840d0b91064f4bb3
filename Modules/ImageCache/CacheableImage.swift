/// An image that the caches of this module can hold: a value that knows its memory cost.
///
/// ``PixelImage`` is the module's own; a toolkit's image type conforms by reporting the bytes its
/// decoded pixels take.
///
/// ```swift
/// struct TextureImage: CacheableImage {
///     let width: Int
///     let height: Int
///     var memoryCost: Int { width * height * 4 }
/// }
/// ```
public protocol CacheableImage: Sendable {
    /// The bytes the image holds in memory: the cost ``AutoPurgingImageCache`` counts against its
    /// capacity. AFNetworking's rule is pixel count × 4 (RGBA, one byte per channel).
    var memoryCost: Int { get }
}
