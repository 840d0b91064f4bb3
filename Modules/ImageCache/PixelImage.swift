/// A decoded image: RGBA pixels, one byte per channel, with its size and scale.
///
/// Rows run top to bottom, pixels left to right, with no padding between rows; alpha is straight
/// (not premultiplied). `width` and `height` count pixels; `scale` says how many pixels make one
/// point, as `UIImage.scale` does, so a 2× image of 100 × 50 points is 200 × 100 pixels.
///
/// ```swift
/// let red = try PixelImage(width: 1, height: 1, pixels: [255, 0, 0, 255])
/// print(red.memoryCost)  // 4
/// ```
public struct PixelImage: CacheableImage, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// Pixels per point; 1 for an image that is not meant for a high-density display.
    public let scale: Double
    /// `width × height × 4` bytes of RGBA.
    public let pixels: [UInt8]

    /// Creates an image from its pixels, checking that the buffer is exactly as long as the
    /// dimensions say.
    ///
    /// ```swift
    /// let image = try PixelImage(width: 2, height: 1, scale: 2, pixels: [UInt8](repeating: 255, count: 8))
    /// ```
    ///
    /// - Parameters:
    ///   - width: The width in pixels, zero or more.
    ///   - height: The height in pixels, zero or more.
    ///   - scale: Pixels per point: finite and positive.
    ///   - pixels: `width × height × 4` bytes of RGBA.
    /// - Throws: ``ImageCacheError/Code/invalidPixelBuffer`` when they do not agree.
    public init(width: Int, height: Int, scale: Double = 1, pixels: [UInt8]) throws(ImageCacheError) {
        guard width >= 0, height >= 0 else {
            throw ImageCacheError(.invalidPixelBuffer, reason: "\(width) × \(height) pixels is not a size")
        }
        guard scale.isFinite, scale > 0 else {
            throw ImageCacheError(.invalidPixelBuffer, reason: "scale \(scale) is not positive")
        }
        let (area, areaOverflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, bytesOverflow) = area.multipliedReportingOverflow(by: 4)
        guard !areaOverflow, !bytesOverflow, bytes == pixels.count else {
            throw ImageCacheError(
                .invalidPixelBuffer,
                reason: "\(width) × \(height) pixels need \(width) × \(height) × 4 bytes of RGBA, got \(pixels.count)"
            )
        }
        self.width = width
        self.height = height
        self.scale = scale
        self.pixels = pixels
    }

    /// AFNetworking's cost: pixel count × 4 bytes, which is the buffer's length.
    public var memoryCost: Int { pixels.count }
}
