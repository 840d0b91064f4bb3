public import CourierHTTP
internal import CourierSerialization
public import CourierSessionCore
public import CourierTransport
internal import Dispatch
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

extension SessionManager {
    /// Makes a download task: the body goes to a temporary file, which `destination` names a final
    /// place for once the response is known; call ``SessionTask/resume()`` to start it.
    ///
    /// How it ends:
    /// - The body arrived whole and passed validation (a `2xx`): the file is at the destination,
    ///   `DownloadResponse.filePath` says where, and the error is `nil`.
    /// - The body arrived whole but validation refused the response (a `404`, a `500`): the body
    ///   is still moved to the destination, and the response has both `filePath` and the
    ///   validation error (`SessionError.Kind.serialization`, code `-1011`), as AFNetworking's
    ///   download tasks and Alamofire's `DownloadRequest` move the file before they validate.
    ///   Check `error` before trusting the file; delete it if an error page is of no use.
    /// - A ``SessionTask/cancel()`` that lands once the body was written whole (the transfer's
    ///   completion was already read) does not undo the download: it ends as the first two cases
    ///   say, as a `URLSessionTask` that already completed ignores `cancel()`. Resume data would
    ///   cover the whole file, which no server can resume.
    /// - The transfer stopped part-way (cancelled, timed out, connection lost): the partial file
    ///   is kept, with `DownloadResponse.resumeData`, only when the download can go on from it:
    ///   a `GET` whose `2xx` response had a strong `ETag` or a `Last-Modified` date (the rule is
    ///   `ResumeData.make(for:response:path:offset:)`); otherwise it is deleted. A `POST`
    ///   download never gives resume data.
    /// - The move failed: the task fails with `SessionError.Kind.fileMoveFailed` and the file stays
    ///   at its temporary path (AFNetworking only posts a notification then and still reports the
    ///   destination).
    ///
    /// Without a destination the temporary file is deleted, as AFNetworking's platform does. With
    /// `DownloadOptions.persistsResumeRecord`, a resume record beside the partial file lets a later
    /// process go on after a crash (`ResumeData.recover(fromRecordAt:)`).
    ///
    /// ```swift
    /// let task = session.downloadTask(with: request, destination: { _, _ in
    ///     DownloadDestination(path: "/var/tmp/big.iso", replacesExistingFile: true)
    /// }) { response in
    ///     if let error = response.error {
    ///         // A refused status still leaves its body at response.filePath.
    ///         print("failed: \(error); body at \(response.filePath ?? "nowhere")")
    ///     } else {
    ///         print("saved to \(response.filePath ?? "")")
    ///     }
    /// }
    /// task.resume()
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - options: Where the partial file goes and whether a resume record is kept beside it.
    ///   - progress: Called on the completion queue as bytes are written.
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    public func downloadTask(
        with request: HTTPRequest,
        options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        destination: DownloadDestination.Choose?,
        completion: @escaping @Sendable (DownloadResponse) -> Void
    ) -> SessionTask {
        queuedDownloadTask(
            request: request,
            resume: nil,
            options: options,
            progress: progress,
            destination: destination,
            completion
        )
    }

    /// Makes a download task that goes on from `resumeData`; call ``SessionTask/resume()`` to start it.
    ///
    /// The request is a `GET` of the resume data's URL with `Range` and `If-Range`: a `206` appends
    /// to the partial file, a `200` (the file changed, or the server ignores ranges) starts it over.
    /// A task that stops before any response arrives keeps the partial file and gives the resume
    /// data back. A `416` whose `Content-Range: bytes */N` names the resume offset as the full
    /// length means the partial file already is the whole file (the `If-Range` validator matched,
    /// RFC 9110 §14.4, §15.5.17): the download succeeds with it, moved to the destination, no body
    /// transferred, and `DownloadResponse.response` is that `416`. A `416` naming another length, or
    /// none, is a changed file: the task fails with `resumeFailed` (the refused head in
    /// `SessionError.transportError`) and the partial file is kept. Any other status (a `404`, a
    /// `503`) fails validation; its body is discarded and the partial file kept, so the response
    /// has the error and resume data to try again later, and no `DownloadResponse.filePath`.
    /// Otherwise it ends as
    /// ``downloadTask(with:options:progress:destination:completion:)`` describes.
    ///
    /// ```swift
    /// session.downloadTask(withResumeData: resumeData, destination: { _, _ in .init(path: "/var/tmp/big.iso") }) { _ in }
    ///     .resume()
    /// ```
    /// - Parameters:
    ///   - resumeData: What the stopped download left.
    ///   - options: Whether a resume record is kept beside the partial file; the partial file is the
    ///     resume data's.
    ///   - progress: Called on the completion queue as bytes are written (from the offset).
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    ///   - completion: Called once on the completion queue within the completion group.
    /// - Returns: The task, suspended.
    public func downloadTask(
        withResumeData resumeData: ResumeData,
        options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        destination: DownloadDestination.Choose?,
        completion: @escaping @Sendable (DownloadResponse) -> Void
    ) -> SessionTask {
        queuedDownloadTask(
            request: HTTPRequest(url: resumeData.url),
            resume: resumeData,
            options: options,
            progress: progress,
            destination: destination,
            completion
        )
    }

    /// A download task whose progress and completion run on the completion queue (and group).
    private func queuedDownloadTask(
        request: HTTPRequest,
        resume: ResumeData?,
        options: DownloadOptions,
        progress: (@Sendable (TransferProgress) -> Void)?,
        destination: DownloadDestination.Choose?,
        _ completion: @escaping @Sendable (DownloadResponse) -> Void
    ) -> SessionTask {
        let queue = completionQueue
        let group = completionGroup
        return makeDownloadTask(
            request: request,
            resume: resume,
            options: options,
            progress: onCompletionQueue(progress),
            destination: destination
        ) { response in queue.async(group: group) { completion(response) } }
    }

    /// Downloads `request` to a file and returns where it went, or the error and resume data.
    ///
    /// It ends as ``downloadTask(with:options:progress:destination:completion:)`` describes: a
    /// response refused by validation still leaves its body at the destination, with the error.
    ///
    /// ```swift
    /// let options = DownloadOptions(partialFilePath: "/var/tmp/a.bin.part", persistsResumeRecord: true)
    /// let response = await session.download(for: request, options: options, to: { _, _ in .init(path: "/var/tmp/a.bin") })
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - options: Where the partial file goes and whether a resume record is kept beside it.
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    /// - Returns: The outcome; cancelling the calling task cancels the download (with resume data
    ///   when it can go on later).
    public func download(
        for request: HTTPRequest,
        options: DownloadOptions,
        to destination: DownloadDestination.Choose?
    ) async -> DownloadResponse {
        await awaitDownload(request: request, resume: nil, options: options, destination: destination)
    }

    /// Downloads `request` to a file: the `HTTPSession` requirement, with the partial file placed
    /// by `RequestOptions.download`.
    ///
    /// It ends as ``downloadTask(with:options:progress:destination:completion:)`` describes: a
    /// response refused by validation still leaves its body at the destination, with the error.
    ///
    /// ```swift
    /// let response = await session.download(for: request, to: { _, _ in .init(path: "/var/tmp/a.bin") })
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    ///   - options: The request's options: `RequestOptions.download`, and its interceptor and redirect
    ///     handler (`RequestOptions.transfer` does not apply: a download's body goes to a file).
    /// - Returns: The outcome; cancelling the calling task cancels the download.
    public func download(
        for request: HTTPRequest,
        to destination: DownloadDestination.Choose?,
        options: RequestOptions
    ) async -> DownloadResponse {
        await awaitDownload(
            request: request,
            resume: nil,
            options: options.download,
            perRequest: PerRequestHandlers(options),
            destination: destination
        )
    }

    /// Goes on with a stopped download and returns where it went.
    ///
    /// It ends as ``downloadTask(withResumeData:options:progress:destination:completion:)``
    /// describes: an error status keeps the partial file and gives resume data back.
    ///
    /// ```swift
    /// let response = await session.download(resumingWith: resumeData, to: { _, _ in .init(path: "/var/tmp/a.bin") })
    /// ```
    /// - Parameters:
    ///   - resumeData: What the stopped download left.
    ///   - options: Whether a resume record is kept beside the partial file; the partial file is the
    ///     resume data's.
    ///   - destination: Picks the final path; `nil` deletes the file after the download.
    /// - Returns: The outcome.
    public func download(
        resumingWith resumeData: ResumeData,
        options: DownloadOptions = DownloadOptions(),
        to destination: DownloadDestination.Choose?
    ) async -> DownloadResponse {
        await awaitDownload(
            request: HTTPRequest(url: resumeData.url),
            resume: resumeData,
            options: options,
            destination: destination
        )
    }

    private func awaitDownload(
        request: HTTPRequest,
        resume: ResumeData?,
        options: DownloadOptions,
        perRequest: PerRequestHandlers = PerRequestHandlers(),
        destination: DownloadDestination.Choose?
    ) async -> DownloadResponse {
        let box = CompletionBox<DownloadResponse>()
        let task = makeDownloadTask(
            request: request,
            resume: resume,
            options: options,
            perRequest: perRequest,
            progress: nil,
            destination: destination
        ) { box.deliver($0) }
        return await withTaskCancellationHandler {
            await box.wait { task.resume() }
        } onCancel: {
            task.cancel()
        }
    }

    private func makeDownloadTask(
        request: HTTPRequest,
        resume: ResumeData?,
        options: DownloadOptions,
        perRequest: PerRequestHandlers = PerRequestHandlers(),
        progress: (@Sendable (TransferProgress) -> Void)?,
        destination: DownloadDestination.Choose?,
        deliver: @escaping @Sendable (DownloadResponse) -> Void
    ) -> SessionTask {
        let temporaryPath = resume?.partialFilePath ?? options.partialFilePath ?? Self.temporaryDownloadPath()
        let record = options.persistsResumeRecord ? ResumeRecord(partialFilePath: temporaryPath) : nil
        var transferOptions = TransferOptions()
        transferOptions.destination = .file(
            path: temporaryPath,
            resume: resume.map {
                ResumeValidator(offset: $0.offset, entityTag: $0.entityTag, lastModified: $0.lastModified)
            }
        )
        var handlers = TaskProgressHandlers(upload: { _ in }, download: { value in progress?(value) })
        handlers.head = { [weak self] response, url, taskIdentifier in
            // The head names only its URL: the method is the one asked for (a POST that a 303 turned
            // into a GET keeps no record, though its completion may still give resume data).
            var sent = request
            sent.url = url
            record?.track(response, for: sent, resumedFrom: resume?.offset ?? 0)
            // URLSession's did-resume-at-offset: only a 206 goes on from the partial file.
            if let resume, response.status.code == 206 {
                self?.report(
                    SessionEvent(
                        .downloadResumed,
                        task: taskIdentifier,
                        response: response,
                        progress: TransferProgress(
                            completed: resume.offset,
                            total: response.expectedContentLength.map { $0 + resume.offset }
                        )
                    )
                )
            }
        }
        let completion = DownloadCompletion(
            temporaryPath: temporaryPath,
            resume: resume,
            record: record,
            destination: destination
        )
        return makeTask(request: request, options: transferOptions, progress: handlers, perRequest: perRequest) {
            [self] task, result in
            let outcome = completion.finish(result)
            var result = result
            if let refused = outcome.response { result.response = refused }
            if let filePath = outcome.filePath {
                self.report(
                    SessionEvent(
                        .downloadMovedFile,
                        task: task.taskIdentifier,
                        response: result.response,
                        filePath: filePath
                    )
                )
            } else if let error = outcome.error, error.kind == .fileMoveFailed {
                self.report(
                    SessionEvent(
                        .downloadFailedToMoveFile,
                        task: task.taskIdentifier,
                        response: result.response,
                        error: error
                    )
                )
            }
            self.finishTask(task, result, error: outcome.error) {
                deliver(
                    DownloadResponse(
                        request: result.request,
                        response: result.response,
                        filePath: outcome.filePath,
                        resumeData: outcome.resumeData,
                        error: outcome.error,
                        metrics: result.metrics
                    )
                )
            }
        }
    }

    /// A new path in the temporary directory (`TMPDIR`, else `/tmp`).
    static func temporaryDownloadPath() -> String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory + (directory.hasSuffix("/") ? "" : "/") + "courier-download-\(UUID().uuidString).tmp"
    }
}

/// What happens to a download's temporary file, and its resume record, once its transfers ended.
///
/// A body that arrived whole goes to the destination even when validation refuses the response,
/// as AFNetworking's download tasks and Alamofire's `DownloadRequest` move the file in
/// `didFinishDownloadingTo` before they validate: the caller gets the file (an error page, say)
/// and the validation error together. A transfer that stopped part-way keeps its partial file
/// only when the download can go on from it (`ResumeData.make(for:response:path:offset:)`).
struct DownloadCompletion: Sendable {
    let temporaryPath: String
    /// What the task resumed from, if anything.
    let resume: ResumeData?
    let record: ResumeRecord?
    let destination: DownloadDestination.Choose?

    struct Outcome {
        var filePath: String?
        var resumeData: ResumeData?
        var error: SessionError?
        /// The response to report instead of the result's: the `416` that proved the partial file
        /// complete, which no `.response` event announced.
        var response: HTTPResponse?
    }

    func finish(_ result: TaskRunner.Result) -> Outcome {
        if let refused = completedBeforeResume(result) {
            var outcome = delivered(refused, rejection: nil, url: result.request.url)
            outcome.response = refused
            return outcome
        }
        if let error = result.error, error.kind != .serialization {
            return stopped(result, error: error)
        }
        // The body arrived whole; a serializer's error here is validation refusing the response,
        // whether the task runner validated it or nothing did yet. AFNetworking runs the serializer
        // on empty data, so a status failure is still reported.
        let rejection =
            result.error
            ?? DownloadValidation.refusal(of: result.response, for: result.request)
            .map { SessionError.serialization($0, result: result) }
        guard let response = result.response else {
            discardPartialFile()
            return Outcome(error: rejection)
        }
        if let rejection, let resume, !transportWroteBody(of: response) {
            // A resumed download's error status: the transport discarded that body and left the
            // partial file as the resume data describes it, so it can still go on later.
            return keptPartialFile(of: resume, error: rejection)
        }
        return delivered(response, rejection: rejection, url: result.request.url)
    }

    /// Moves the whole body to the destination (or deletes it without one), with the validation
    /// error `rejection`, if any.
    private func delivered(_ response: HTTPResponse, rejection: SessionError?, url: URL) -> Outcome {
        guard let destination else {
            discardPartialFile()
            return Outcome(error: rejection)
        }
        let target = destination(temporaryPath, response)
        let problem = Self.move(temporaryPath, to: target)
        // Complete either way: a record left behind would send a later process after bytes past the end.
        record?.remove()
        if let problem {
            let refused = rejection.map { _ in " (HTTP \(response.status.code), refused by validation)" } ?? ""
            return Outcome(
                filePath: nil,
                error: SessionError(
                    kind: .fileMoveFailed,
                    message: "the download\(refused) could not be moved to \(target.path): \(problem); "
                        + "it is still at \(temporaryPath)",
                    failingURL: url,
                    response: response,
                    underlying: rejection?.serialization
                )
            )
        }
        return Outcome(filePath: target.path, error: rejection)
    }

    /// A transfer that failed or was cancelled: the partial file stays, with resume data, only when
    /// the download can go on from it.
    private func stopped(_ result: TaskRunner.Result, error: SessionError) -> Outcome {
        let size = Self.size(of: temporaryPath)
        var resumeData = ResumeData.make(
            for: result.request,
            response: result.response,
            path: temporaryPath,
            offset: size
        )
        if resumeData == nil, result.response == nil, var previous = resume, size > 0 {
            // No head arrived, so the transport never touched the bytes: the partial file is
            // still the one the resume data describes (cancelled before it started, or offline).
            previous.offset = size
            resumeData = previous
        }
        guard let resumeData else {
            discardPartialFile()
            return Outcome(error: error)
        }
        record?.write(resumeData)
        return Outcome(resumeData: resumeData, error: error)
    }

    /// The partial file of `previous`, untouched by this transfer, handed back as resume data.
    private func keptPartialFile(of previous: ResumeData, error: SessionError) -> Outcome {
        let size = Self.size(of: temporaryPath)
        guard size > 0 else {
            discardPartialFile()
            return Outcome(error: error)
        }
        var resumeData = previous
        resumeData.offset = size
        record?.write(resumeData)
        return Outcome(resumeData: resumeData, error: error)
    }

    /// Whether the transport wrote `response`'s body to the partial file: always for a fresh
    /// download; when resuming, only for a `206` (appended) or a `200` (started over), since any
    /// other status leaves the partial file for a later attempt.
    private func transportWroteBody(of response: HTTPResponse) -> Bool {
        resume == nil || response.status.code == 200 || response.status.code == 206
    }

    private func discardPartialFile() {
        unlink(temporaryPath)
        record?.remove()
    }

    /// Moves the file, or says why it could not.
    static func move(_ source: String, to target: DownloadDestination) -> String? {
        if target.createsIntermediateDirectories {
            let folder = String(target.path[..<(target.path.lastIndex(of: "/") ?? target.path.startIndex)])
            if !folder.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    return "cannot create \(folder): \(error)"
                }
            }
        }
        if !target.replacesExistingFile && access(target.path, F_OK) == 0 {
            return "a file already exists there"
        }
        if rename(source, target.path) == 0 { return nil }
        guard errno == EXDEV else { return String(cString: strerror(errno)) }
        // Another file system: copy, then remove the temporary file.
        do {
            if target.replacesExistingFile { unlink(target.path) }
            try FileManager.default.copyItem(atPath: source, toPath: target.path)
            unlink(source)
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
