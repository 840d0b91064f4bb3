/// A typed failure of the on-disk byte store.
///
/// Only writes and setup fail: a read that finds a missing, truncated or corrupt entry is a miss,
/// never an error, because a cache may always lose an entry.
///
/// ```swift
/// do {
///     try store.store(bytes, forKey: "thumbnail/42")
/// } catch where error.code == .writeFailed {
///     print(error.reason)  // "No space left on device"
/// }
/// ```
public struct DiskCacheError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The cache directory could not be created or is not a directory.
        public static let directoryUnavailable = Code("directoryUnavailable")
        /// An entry could not be written or moved into place.
        public static let writeFailed = Code("writeFailed")
        /// A key or a value is too large for the entry format.
        public static let entryTooLarge = Code("entryTooLarge")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// The path the failure concerns.
    public let path: String
    /// What went wrong, in the system's words where it gave any.
    public let reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// throw DiskCacheError(.writeFailed, path: "/tmp/cache/ab.cache", reason: "No space left on device")
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - path: The path the failure concerns.
    ///   - reason: What went wrong.
    public init(_ code: Code, path: String, reason: String) {
        self.code = code
        self.path = path
        self.reason = reason
    }

    /// `"writeFailed: /tmp/cache/ab.cache: No space left on device"`.
    public var description: String { "\(code): \(path): \(reason)" }
}
