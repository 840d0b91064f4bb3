public import FoundationEssentials

/// Why `ResumeData.recover(fromRecordAt:)` could not give resume data back.
///
/// When the record could be read, ``url`` is the download's URL, so starting over is one call away.
///
/// ```swift
/// do {
///     let resumeData = try ResumeData.recover(fromRecordAt: record)
///     _ = await session.download(resumingWith: resumeData, to: destination)
/// } catch where error.code == .partialFileMissing {
///     _ = await session.download(for: HTTPRequest(url: error.url!), to: destination)
/// }
/// ```
public struct ResumeRecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Hashable, Sendable {
        /// There is no record at the path, or it cannot be read: nothing is known of a download.
        case recordUnreadable
        /// The file is not a resume record (not `ResumeData`'s encoding).
        case recordDamaged
        /// The record names a partial file that is not there (deleted, or the download completed
        /// and moved it away just before a crash).
        case partialFileMissing
    }

    /// The kind of failure.
    public let code: Code
    /// The record, or for ``Code/partialFileMissing`` the partial file.
    public let path: String
    /// The download's URL, when the record could be read.
    public let url: URL?
    /// What went wrong, in the system's words where it gave any.
    public let reason: String

    /// Creates an error.
    ///
    /// ```swift
    /// let error = ResumeRecordError(.recordUnreadable, path: "/var/tmp/a.part.resumedata", url: nil, reason: "No such file or directory")
    /// ```
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - path: The path the failure concerns.
    ///   - url: The download's URL, when known.
    ///   - reason: What went wrong.
    public init(_ code: Code, path: String, url: URL?, reason: String) {
        self.code = code
        self.path = path
        self.url = url
        self.reason = reason
    }

    /// `"partialFileMissing: /var/tmp/a.part: No such file or directory"`.
    public var description: String { "\(code): \(path): \(reason)" }
}
