public import FoundationEssentials

/// An image that ``DiskBackedImageCache`` can write to disk and read back.
///
/// ```swift
/// let bytes = image.diskRepresentation()
/// let copy = try PixelImage(diskRepresentation: bytes)
/// ```
public protocol DiskCodableImage: CacheableImage {
    /// The bytes to store.
    func diskRepresentation() -> Data

    /// Recreates an image from bytes that ``diskRepresentation()`` produced.
    ///
    /// - Throws: An error when the bytes are not such a representation; the disk tier then drops
    ///   the entry and reports a miss.
    init(diskRepresentation: Data) throws
}
