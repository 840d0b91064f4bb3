internal import CourierCurl
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier download URL --to FILE [--resume]`: the transport writes the body straight to `FILE` on
/// its loop thread (`TransferOptions.Destination.file`), so memory stays flat whatever the size.
///
/// A ``ResumeRecord`` beside the file marks it as partial; `--resume` continues from the bytes on
/// disk when the record matches the URL and names a validator, and starts over otherwise. An HTTP
/// error status exits 1; a fresh download's error body is not left behind as the file.
struct DownloadCommand {
    static let usage = """
        courier download URL --to FILE [--resume] [--cacert FILE] [--header 'Name: value']... [--http1.1]
                [--proxy URL | --no-proxy] [--progress] [--metrics] [--report-rss]
        """

    let url: String
    let file: String
    let resumes: Bool
    let settings: TransportSettings

    init(_ words: [String]) throws(UsageError) {
        let arguments = try ParsedArguments.parse(
            words,
            TransportSettings.specification(flags: ["--resume"], options: ["--to"], positionals: ["URL"])
        )
        guard let file = arguments.value("--to") else { throw UsageError(message: "download needs --to FILE") }
        url = arguments.positionals[0]
        self.file = file
        resumes = arguments.has("--resume")
        settings = try TransportSettings(arguments)
    }

    func run() async throws -> Int32 {
        let request = try settings.makeRequest(url)
        let resume = resumes ? resumePoint() : nil
        if case .complete(let size) = resume {
            StandardStreams.printError("courier: \(file) is already complete (\(size) bytes)")
            ResumeRecord.remove(for: file)
            return 0
        }
        var validator: ResumeValidator?
        if case .from(let value) = resume { validator = value }
        if validator == nil { ResumeRecord.remove(for: file) }

        var options = TransferOptions()
        options.destination = .file(path: file, resume: validator)
        let cleanup = NewFileCleanup(path: file)
        let transport = settings.makeTransport()
        let progress = TransferDriver.progressLine(settings, label: "download")
        progress.baseline = validator?.offset ?? 0
        let driver = TransferDriver(direction: .download, progress: progress)
        let outcome: TransferDriver.Outcome
        do {
            outcome = try await driver.run(transport.startTransfer(request, options: options)) { response in
                try record(response, resumedFrom: validator)
            }
        } catch {
            await transport.shutdown()
            cleanup.removeIfLeftEmpty()
            throw error
        }
        await transport.shutdown()

        let status = outcome.response?.status.code ?? 0
        if (200..<300).contains(status) {
            ResumeRecord.remove(for: file)
            var note = "courier: saved \(outcome.metrics.decodedBodyBytes) bytes to \(file)"
            if status == 206, let validator { note += " (resumed after \(validator.offset) bytes)" }
            StandardStreams.printError(note)
        } else if validator == nil {
            // A fresh download's file now holds an error page or redirect body: not the resource.
            _ = unlink(file)
        }
        return TransferReport.finish(outcome, settings: settings)
    }

    /// Where `--resume` starts.
    private enum ResumePoint {
        case from(ResumeValidator)
        case complete(Int64)
    }

    private func resumePoint() -> ResumePoint? {
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        let size = Int64(info.st_size)
        guard let record = ResumeRecord.load(for: file) else {
            StandardStreams.printError("courier: no resume record for \(file); downloading from the start")
            return nil
        }
        guard record.url == url else {
            StandardStreams.printError("courier: \(file) was downloaded from \(record.url); starting over")
            return nil
        }
        if let length = record.length, length == size { return .complete(size) }
        guard size > 0, let validator = record.validator(offset: size) else {
            StandardStreams.printError("courier: no validator to resume \(file) safely; starting over")
            return nil
        }
        return .from(validator)
    }

    /// Keeps the resume record in step with what the transport is writing.
    private func record(_ response: HTTPResponse, resumedFrom validator: ResumeValidator?) throws {
        switch response.status.code {
        case 206:
            try ResumeRecord(url: url, response: response).save(for: file)
        case 200:
            if validator != nil {
                StandardStreams.printError("courier: the server sent the whole file (it changed?); restarting")
            }
            try ResumeRecord(url: url, response: response).save(for: file)
        default:
            break
        }
    }
}
