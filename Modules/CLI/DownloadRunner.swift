internal import Courier
internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `--download` (`-d`): the body goes to a file through the session's download task, with a
/// progress line on stderr; `--continue` (`-c`) goes on with a partial file.
///
/// The file is written in place, as httpie does, and the session keeps its resume record beside
/// it (`FILE.resumedata`: the URL and the strong `ETag` or `Last-Modified` of the version being
/// fetched) until the download completes. `--continue` resumes only from that record, with
/// `Range` and `If-Range`: a server whose file changed answers `200` and the download starts
/// over. httpie resumes any file it finds with `Range` alone, so a file that changed on the server
/// is spliced from two versions. A partial file without a record (another tool's, or one whose
/// server named no validator) is downloaded again from the start: its bytes cannot be tied to a
/// version, and a validator asked for now would describe the server's current file, not them.
///
/// An error status saves nothing: the session moves a refused response's body to the destination
/// (the file), and the runner deletes it, as `courier download` does; a `--continue` met by an
/// error status keeps the partial file to try again.
struct DownloadRunner {
    let line: RequestCommandLine
    let request: HTTPRequest
    let client: CourierClient
    let writer: MessageWriter

    func run() async -> Int32 {
        let file = line.output ?? Self.fileName(for: request.url)
        let resumeData = line.resumes ? resumePoint(file) : nil
        let progress = ProgressBox(
            ProgressLine(
                style: line.forcesProgress || StandardStreams.errorIsTerminal ? .live : .off,
                label: "download"
            ) { StandardStreams.writeError($0) }
        )
        progress.setBaseline(resumeData?.offset ?? 0)
        let session = client.session.session
        let options = DownloadOptions(partialFilePath: file, persistsResumeRecord: true)
        let namesFromResponse = line.output == nil
        let destination: DownloadDestination.Choose = { _, response in
            guard namesFromResponse, let offered = response.headers["Content-Disposition"],
                let name = ContentDisposition.fileName(from: offered), name != file
            else { return DownloadDestination(path: file, replacesExistingFile: true) }
            return DownloadDestination(path: Self.unusedName(name), replacesExistingFile: false)
        }
        let onProgress: @Sendable (TransferProgress) -> Void = { value in
            progress.update(completed: value.completed, total: value.total)
        }
        let response = await withCheckedContinuation { (continuation: CheckedContinuation<DownloadResponse, Never>) in
            let task =
                if let resumeData {
                    session.downloadTask(
                        withResumeData: resumeData,
                        options: options,
                        progress: onProgress,
                        destination: destination
                    ) { continuation.resume(returning: $0) }
                } else {
                    session.downloadTask(
                        with: request,
                        options: options,
                        progress: onProgress,
                        destination: destination
                    ) { continuation.resume(returning: $0) }
                }
            task.resume()
        }
        if resumeData != nil, response.error == nil, let head = response.response, head.status.code == 416 {
            // The session took a 416 naming the file's own length as the download being complete.
            return alreadyComplete(response.filePath ?? file, refusal: head)
        }
        if resumeData != nil, let refusal = response.error?.transportError?.response, refusal.status.code == 416 {
            return alreadyComplete(file, refusal: refusal)
        }
        let saved = response.error == nil ? response.filePath ?? file : file
        let size = Self.size(of: saved)
        if response.error == nil {
            progress.finish(completed: size, total: size)
        } else {
            progress.abandon()
        }
        if line.showsMetrics, let metrics = response.metrics.last {
            for text in MetricsSummary.lines(metrics) { StandardStreams.printError(text) }
        }
        // The body is the file, so the head and the metrics go to stderr, as httpie's head does.
        let diagnostics = MessageWriter(selection: writer.selection, descriptor: STDERR_FILENO, isTerminal: false)
        if let head = response.response { try? diagnostics.writeHead(head) }
        try? diagnostics.writeMetrics(response.metrics, retries: nil, redirects: nil)
        if let error = response.error {
            if let saved = response.filePath {
                // The session leaves a refused response's body at the destination, as AFNetworking
                // and Alamofire do; here it is an error page, not the resource, so it goes.
                _ = unlink(saved)
            }
            let refusedStatus = error.kind == .serialization ? response.response?.status : nil
            if let refusedStatus {
                StandardStreams.printError("courier: error: HTTP \(refusedStatus); nothing saved")
            } else {
                ErrorMessages(line).report(error)
            }
            if response.resumeData != nil {
                StandardStreams.printError(
                    "courier: \(size) bytes of \(file) kept; run the same command with --continue to resume"
                )
            }
            if let refusedStatus { return ExitStatus.of(status: refusedStatus.code, follows: line.follows) }
            return ExitStatus.of(error)
        }
        var note = "courier: saved \(size) bytes to \(saved)"
        if response.response?.status.code == 206, let resumeData {
            note += " (resumed after \(resumeData.offset) bytes)"
        }
        StandardStreams.printError(note)
        return ExitStatus.success
    }

    /// A `416` to `--continue`'s `Range`: the file already holds every byte, so the download is
    /// done, as httpie takes it; when the server names its length (`Content-Range: bytes */N`,
    /// RFC 9110 §15.5.17) and the file's differs, the file is not that resource and it is an error.
    /// The session completes the download itself when the `416` names the file's length; any other
    /// `416` is a failed resume whose transport error carries the head (`TransportError.response`),
    /// with the file and its record kept as they were.
    private func alreadyComplete(_ file: String, refusal: HTTPResponse) -> Int32 {
        let size = Self.size(of: file)
        let range = refusal.headers["Content-Range"] ?? ""
        if range.hasPrefix("bytes */"), let length = Int64(range.dropFirst("bytes */".count)), length != size {
            StandardStreams.printError(
                "courier: error: the server's file is \(length) bytes but \(file) has \(size); "
                    + "remove it (or drop --continue) to download it again"
            )
            return ExitStatus.error
        }
        _ = unlink(DownloadOptions.resumeRecordPath(forPartialFile: file))
        StandardStreams.printError("courier: \(file) is already complete (\(size) bytes); nothing to download")
        return ExitStatus.success
    }

    /// Where `--continue` starts, from the session's resume record beside the file.
    private func resumePoint(_ file: String) -> ResumeData? {
        guard Self.size(of: file) > 0 else { return nil }
        let record = DownloadOptions.resumeRecordPath(forPartialFile: file)
        guard access(record, F_OK) == 0 else {
            StandardStreams.printError(
                "courier: \(file) has no resume record (\(record)), so its bytes cannot be tied to a version "
                    + "of the resource; downloading from the start"
            )
            return nil
        }
        do {
            var resumeData = try ResumeData.recover(fromRecordAt: record)
            resumeData.partialFilePath = file
            resumeData.offset = Self.size(of: file)
            if resumeData.url != request.url {
                StandardStreams.printError(
                    "courier: resuming from \(resumeData.url.absoluteString), where \(file) came from"
                )
            }
            return resumeData
        } catch {
            StandardStreams.printError("courier: cannot use \(record) (\(error)); downloading from the start")
            return nil
        }
    }

    /// httpie's name for a download without `--output`: the URL's last path segment, `index` for
    /// none, and `-1`, `-2`… added while a file of that name exists.
    static func fileName(for url: URL) -> String {
        let last = url.path.split(separator: "/").last.map(String.init) ?? ""
        return unusedName(last.isEmpty ? "index" : last)
    }

    /// `base`, or `base-1`, `base-2`… while a file of that name exists.
    static func unusedName(_ base: String) -> String {
        var name = base
        var suffix = 0
        while access(name, F_OK) == 0 {
            suffix += 1
            name = "\(base)-\(suffix)"
        }
        return name
    }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
