/// A typed failure to decode or encode an image.
///
/// ```swift
/// do {
///     _ = try ImageDecoder().decode(body)
/// } catch where error.code == .tooLarge {
///     print(error.reason)  // "40000 x 40000 pixels is over the limit of 67108864"
/// }
/// ```
public struct ImageDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The bytes are not PNG, JPEG or WebP, or are a kind of file the decoder does not read
        /// (an animated WebP, a CMYK JPEG).
        public static let unsupportedFormat = Code("unsupportedFormat")
        /// The file is truncated or its data is corrupt.
        public static let corrupt = Code("corrupt")
        /// The image or the input is over the decoder's limits; checked before pixels are allocated.
        public static let tooLarge = Code("tooLarge")
        /// Memory for the pixels or the encoded file could not be allocated.
        public static let outOfMemory = Code("outOfMemory")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// The format involved, when it was recognised.
    public let format: ImageFormat?
    /// What went wrong, in the codec library's words where it gave any.
    public let reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// throw ImageDecodingError(.corrupt, format: .png, reason: "truncated PNG")
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - format: The format involved.
    ///   - reason: What went wrong.
    public init(_ code: Code, format: ImageFormat?, reason: String) {
        self.code = code
        self.format = format
        self.reason = reason
    }

    /// `"corrupt (png): truncated PNG"`.
    public var description: String {
        "\(code)\(format.map { " (\($0))" } ?? ""): \(reason)"
    }
}
