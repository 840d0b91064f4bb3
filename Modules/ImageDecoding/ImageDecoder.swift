internal import CCourierImageCodecs
public import CourierImageCache
public import FoundationEssentials

/// Decodes PNG, JPEG and WebP files into `PixelImage` values, on Debian's libpng,
/// libjpeg-turbo and libwebp.
///
/// Every decode is bounded: ``Limits`` are checked against the file's header before any pixel
/// memory is allocated, and libpng's own dimension and chunk limits and libjpeg's working-memory
/// limit are set before it reads a byte. A truncated or corrupt file gives a typed
/// ``ImageDecodingError``, never a crash and never a partly gray image: libjpeg's corrupt-data
/// warnings, on which it pads the image and carries on, count as errors here. libpng and libjpeg
/// report errors with `longjmp`; each codec is driven by one C function that owns its `setjmp`, so
/// no jump ever crosses a Swift frame.
///
/// ```swift
/// let decoder = ImageDecoder()
/// let image = try decoder.decode(body)                      // full size
/// let preview = try decoder.decode(body, minimumLongestSide: 256)  // a JPEG decodes at 1/2..1/8
/// ```
///
/// - Important: Decoding runs on the calling thread and takes time in proportion to the pixels;
///   call it from a dedicated thread or a task that may take that long, not from a transport's
///   event loop.
public struct ImageDecoder: Sendable {
    /// What a decode may cost.
    public struct Limits: Sendable, Hashable {
        /// The most pixels of a decoded image: 64 Mi by default (256 MiB of RGBA).
        public var maximumPixelCount: Int
        /// The largest encoded file accepted: 64 MiB by default.
        public var maximumInputSize: Int

        /// The limits.
        ///
        /// ```swift
        /// let thumbnails = ImageDecoder.Limits(maximumPixelCount: 16 << 20, maximumInputSize: 8 << 20)
        /// ```
        public init(maximumPixelCount: Int = 64 << 20, maximumInputSize: Int = 64 << 20) {
            self.maximumPixelCount = maximumPixelCount
            self.maximumInputSize = maximumInputSize
        }
    }

    /// The limits every decode checks.
    public var limits: Limits

    /// A decoder with `limits`.
    ///
    /// ```swift
    /// let decoder = ImageDecoder(limits: .init(maximumPixelCount: 4096 * 4096))
    /// ```
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Decodes `data`, whose format is recognised from its first bytes.
    ///
    /// ```swift
    /// let image = try ImageDecoder().decode(Data(contentsOf: url), scale: 2)
    /// ```
    ///
    /// - Parameters:
    ///   - data: A PNG, JPEG or WebP file.
    ///   - scale: The scale of the resulting image (pixels per point).
    ///   - minimumLongestSide: When set, a JPEG is decoded at the smallest of 1/8, 1/4, 1/2 of its
    ///     size whose longest side is still at least this long (libjpeg's DCT scaling, far cheaper
    ///     than decoding in full and shrinking). Other formats decode at full size.
    /// - Throws: ``ImageDecodingError``: ``ImageDecodingError/Code/unsupportedFormat`` for other
    ///   bytes, ``ImageDecodingError/Code/tooLarge`` over the limits,
    ///   ``ImageDecodingError/Code/corrupt`` for a truncated or damaged file.
    public func decode(_ data: Data, scale: Double = 1, minimumLongestSide: Int? = nil) throws(ImageDecodingError)
        -> PixelImage
    {
        guard let format = ImageFormat(sniffing: data) else {
            throw ImageDecodingError(.unsupportedFormat, format: nil, reason: "not a PNG, JPEG or WebP file")
        }
        guard data.count <= limits.maximumInputSize else {
            throw ImageDecodingError(
                .tooLarge,
                format: format,
                reason: "\(data.count) bytes is over the input limit of \(limits.maximumInputSize)"
            )
        }
        let maximumPixels = UInt64(max(0, limits.maximumPixelCount))
        let longest = UInt32(clamping: max(0, minimumLongestSide ?? 0))
        // Data's withUnsafeBytes only rethrows untyped errors; a Result keeps the type.
        let outcome = data.withUnsafeBytes { bytes in
            Result { () throws(ImageDecodingError) in
                let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return try CodecResult.decode(format: format) { result, destination, count in
                    switch format {
                    case .png: courier_png_decode(base, bytes.count, maximumPixels, destination, count, result)
                    case .jpeg:
                        courier_jpeg_decode(base, bytes.count, maximumPixels, longest, destination, count, result)
                    case .webp: courier_webp_decode(base, bytes.count, maximumPixels, destination, count, result)
                    }
                }
            }
        }
        let decoded = try outcome.get()
        do {
            return try PixelImage(width: decoded.width, height: decoded.height, scale: scale, pixels: decoded.pixels)
        } catch {
            throw ImageDecodingError(.corrupt, format: format, reason: error.reason)
        }
    }
}
