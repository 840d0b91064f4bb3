/// A typed failure of this module: a pixel buffer or a stored image that does not hold together.
///
/// ```swift
/// do {
///     _ = try PixelImage(width: 2, height: 2, pixels: [0, 0, 0, 255])
/// } catch where error.code == .invalidPixelBuffer {
///     print(error.reason)  // "2 × 2 pixels need 16 bytes of RGBA, got 4"
/// }
/// ```
public struct ImageCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Dimensions, scale and buffer length do not agree.
        public static let invalidPixelBuffer = Code("invalidPixelBuffer")
        /// Bytes read back from the disk tier are not an image this type wrote.
        public static let invalidDiskRepresentation = Code("invalidDiskRepresentation")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What is wrong, with the numbers involved.
    public let reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// throw ImageCacheError(.invalidPixelBuffer, reason: "scale 0 is not positive")
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: What is wrong.
    public init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// `"invalidPixelBuffer: scale 0 is not positive"`.
    public var description: String { "\(code): \(reason)" }
}
