/// Where a download task keeps its partial file, and whether it keeps a resume record beside it so
/// that a process killed mid-download can be followed by one that goes on.
///
/// By default the body goes to a new file in the temporary directory and nothing outlives the
/// process: resume data exists only once the task has been cancelled or its transfer has failed.
/// With ``persistsResumeRecord``, the session writes a resume record (``ResumeData``'s encoding) to
/// ``resumeRecordPath(forPartialFile:)`` as soon as a `2xx` head names the version being fetched
/// (a strong `ETag` or a `Last-Modified` date), keeps it in step through restarts, and removes it when
/// the body has arrived whole (moved to the destination, even when validation refused it). A request
/// that cannot be resumed (not a `GET`; ``ResumeData/make(for:response:path:offset:)``) keeps no
/// record. After a crash, `ResumeData.recover(fromRecordAt:)` (module `CourierSessionEngine`) reads
/// it back.
///
/// The record is written with a temporary file and a rename, so a crash never leaves half of one; it
/// is not flushed to the disk (`fsync`), so it survives the process being killed but not
/// necessarily a power loss. A record that cannot be written is skipped and the download goes on.
///
/// ```swift
/// let partial = "/var/tmp/big.iso.part"
/// let options = DownloadOptions(partialFilePath: partial, persistsResumeRecord: true)
/// session.downloadTask(with: request, options: options, destination: { _, _ in .init(path: "/var/tmp/big.iso") }) { _ in }
///     .resume()
/// // After a crash, in a new process:
/// let resumeData = try ResumeData.recover(fromRecordAt: DownloadOptions.resumeRecordPath(forPartialFile: partial))
/// session.downloadTask(withResumeData: resumeData, options: options, destination: { _, _ in .init(path: "/var/tmp/big.iso") }) { _ in }
///     .resume()
/// ```
public struct DownloadOptions: Sendable, Hashable {
    /// Where the body is written until the download completes; `nil` for a new file in the
    /// temporary directory. A fresh download replaces what is there (to go on from it, recover its
    /// resume data first); a task resumed from ``ResumeData`` writes to the resume data's
    /// ``ResumeData/partialFilePath`` instead, where the bytes already are.
    public var partialFilePath: String?
    /// Whether a resume record is kept at ``resumeRecordPath(forPartialFile:)`` of the partial file
    /// while the download runs. Pair it with ``partialFilePath`` (or resume data): a temporary
    /// file's name is not known to a later process.
    public var persistsResumeRecord: Bool

    /// Creates options.
    ///
    /// ```swift
    /// let options = DownloadOptions(partialFilePath: "/var/tmp/big.iso.part", persistsResumeRecord: true)
    /// ```
    /// - Parameters:
    ///   - partialFilePath: Where the body goes until the download completes; `nil` for a
    ///     temporary file.
    ///   - persistsResumeRecord: Whether a resume record is kept beside the partial file.
    public init(partialFilePath: String? = nil, persistsResumeRecord: Bool = false) {
        self.partialFilePath = partialFilePath
        self.persistsResumeRecord = persistsResumeRecord
    }

    /// The resume record kept beside `partialFilePath`: the same path with `.resumedata` appended.
    ///
    /// ```swift
    /// DownloadOptions.resumeRecordPath(forPartialFile: "/var/tmp/big.iso.part")  // "/var/tmp/big.iso.part.resumedata"
    /// ```
    /// - Parameter partialFilePath: The partial download file.
    /// - Returns: The record's path.
    public static func resumeRecordPath(forPartialFile partialFilePath: String) -> String {
        partialFilePath + ".resumedata"
    }
}
