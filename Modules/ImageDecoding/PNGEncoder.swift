internal import CCourierImageCodecs
public import CourierImageCache
public import FoundationEssentials

/// Encodes a `PixelImage` as an 8-bit RGBA PNG, on libpng: thumbnails to store or serve.
///
/// ```swift
/// let png = try PNGEncoder().encode(thumbnail)
/// ```
public struct PNGEncoder: Sendable {
    /// An encoder.
    ///
    /// ```swift
    /// let encoder = PNGEncoder()
    /// ```
    public init() {}

    /// The PNG file of `image`; its scale is not recorded.
    ///
    /// ```swift
    /// let png = try PNGEncoder().encode(image)
    /// ```
    ///
    /// - Throws: ``ImageDecodingError/Code/corrupt`` for an empty image, which PNG cannot hold;
    ///   ``ImageDecodingError/Code/outOfMemory`` when the file's memory cannot be allocated.
    public func encode(_ image: PixelImage) throws(ImageDecodingError) -> Data {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            throw ImageDecodingError(
                .corrupt,
                format: .png,
                reason: "cannot encode \(image.width) x \(image.height) pixels"
            )
        }
        let encoded = try image.pixels.withUnsafeBufferPointer { (pixels) throws(ImageDecodingError) in
            try CodecResult.encode(format: .png) { result in
                courier_png_encode(pixels.baseAddress, UInt32(image.width), UInt32(image.height), result)
            }
        }
        return Data(encoded)
    }
}
