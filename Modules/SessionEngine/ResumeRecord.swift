internal import CourierHTTP
public import CourierSessionCore
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The resume record a download with `DownloadOptions.persistsResumeRecord` keeps beside its
/// partial file: `ResumeData`'s encoding, whose presence means "this file is partial".
///
/// Its file work runs inside the task that reads the transfer, as the completion's move of the
/// finished file does: one write of a few hundred bytes and a rename per response head, never a
/// flush to the disk.
struct ResumeRecord: Sendable {
    let path: String
    let partialFilePath: String

    init(partialFilePath: String) {
        path = DownloadOptions.resumeRecordPath(forPartialFile: partialFilePath)
        self.partialFilePath = partialFilePath
    }

    /// Keeps the record in step with a final response head of `request` whose body is about to go to
    /// the partial file: resuming from `offset` (`0` for a fresh download).
    ///
    /// The transport writes the body of a `2xx` only: a `206` appends after `offset`, a `200`
    /// starts the file over. When the head names no version (no strong `ETag`, no `Last-Modified`)
    /// an old record would vouch for bytes it does not describe, so it goes. Other statuses leave
    /// the partial file, and so the record, as they were. A request that cannot be resumed (not a
    /// `GET`) keeps no record.
    func track(_ response: HTTPResponse, for request: HTTPRequest, resumedFrom offset: Int64) {
        guard (200...299).contains(response.status.code) else { return }
        let start = response.status.code == 206 ? offset : 0
        if let resumeData = ResumeData.naming(response, for: request, path: partialFilePath, offset: start) {
            write(resumeData)
        } else {
            remove()
        }
    }

    /// Replaces the record atomically: a reader, or a process started after a crash, sees the old
    /// record or the new one, never part of one.
    func write(_ resumeData: ResumeData) {
        guard let bytes = try? resumeData.encoded() else { return }
        let temporary = path + ".tmp-\(getpid())"
        do {
            try bytes.write(to: URL(fileURLWithPath: temporary))
        } catch {
            unlink(temporary)
            return
        }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    func remove() {
        unlink(path)
    }
}

extension ResumeData {
    /// Resume data for a download whose process ended mid-way, from the resume record its
    /// `DownloadOptions.persistsResumeRecord` task kept (Alamofire's resume data, recovered from
    /// the disk instead of handed back by a cancel).
    ///
    /// The offset is the partial file's size now, not the one in the record: the record is written
    /// when a response head arrives, and the transport writes the body in order and never past what
    /// it received, so the file's size is the truth. A partial file shorter than the record says
    /// (bytes lost with the machine) resumes from where it ends; an empty one starts over, since no
    /// `Range` is sent from offset `0`. A record whose partial file is gone is an error rather than
    /// a silent restart, so the caller decides (``ResumeRecordError/url`` says what to fetch).
    ///
    /// ```swift
    /// let partial = "/var/tmp/big.iso.part"
    /// let resumeData = try ResumeData.recover(fromRecordAt: DownloadOptions.resumeRecordPath(forPartialFile: partial))
    /// let response = await session.download(
    ///     resumingWith: resumeData,
    ///     options: DownloadOptions(persistsResumeRecord: true),
    ///     to: { _, _ in DownloadDestination(path: "/var/tmp/big.iso") }
    /// )
    /// ```
    /// - Parameter path: The record, `DownloadOptions.resumeRecordPath(forPartialFile:)` of the
    ///   partial file.
    /// - Returns: Resume data whose ``offset`` is the partial file's size.
    /// - Throws: ``ResumeRecordError``: ``ResumeRecordError/Code/recordUnreadable`` when there is no
    ///   record, ``ResumeRecordError/Code/recordDamaged`` when it is not one,
    ///   ``ResumeRecordError/Code/partialFileMissing`` when its partial file is gone.
    public static func recover(fromRecordAt path: String) throws(ResumeRecordError) -> ResumeData {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ResumeRecordError(.recordUnreadable, path: path, url: nil, reason: "\(error)")
        }
        var resumeData: ResumeData
        do {
            resumeData = try ResumeData(encoded: bytes)
        } catch {
            throw ResumeRecordError(.recordDamaged, path: path, url: nil, reason: "\(error)")
        }
        var info = stat()
        guard stat(resumeData.partialFilePath, &info) == 0 else {
            throw ResumeRecordError(
                .partialFileMissing,
                path: resumeData.partialFilePath,
                url: resumeData.url,
                reason: String(cString: strerror(errno))
            )
        }
        resumeData.offset = Int64(info.st_size)
        return resumeData
    }
}
