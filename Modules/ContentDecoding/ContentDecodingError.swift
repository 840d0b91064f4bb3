/// Why a body could not be decoded.
///
/// ```swift
/// do {
///     _ = try ContentCoding.codings(contentEncoding: "compress")
/// } catch {
///     print(error.code)  // unsupportedCoding
/// }
/// ```
public struct ContentDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Hashable {
        /// The `Content-Encoding` names a coding this module does not decode.
        case unsupportedCoding
        /// The `Content-Encoding` stacks more than ``ContentCoding/maximumStackDepth`` codings.
        case tooManyCodings
        /// The data is not valid for its coding (a bad header, checksum, block or frame).
        case corruptData
        /// The input ended before the compressed stream did (mid-block or mid-frame).
        case truncatedStream
        /// Bytes follow the end of a stream that cannot be continued (only gzip members and zstd
        /// frames may follow one another).
        case trailingData
        /// The compression library failed on its own (out of memory): not the data's fault.
        case libraryFailure
    }

    /// The kind of failure.
    public let code: Code
    /// The coding whose data failed, when the failure is in the data.
    public let coding: ContentCoding?
    /// What went wrong, in words (the library's own message where it has one).
    public let detail: String

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - coding: The coding whose data failed, if any.
    ///   - detail: What went wrong, in words.
    public init(code: Code, coding: ContentCoding?, detail: String) {
        self.code = code
        self.coding = coding
        self.detail = detail
    }

    /// The detail, prefixed by the coding when there is one.
    public var description: String {
        coding.map { "\($0): \(detail)" } ?? detail
    }
}
