import CourierCurl
import CourierHTTP
import CourierLocking
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation

// A child process for the resumable-download tests: each run is one process's share of a download,
// so that resuming has to go through what the disk holds, never through memory.
//
//   cancel-after URL BYTES RESUMEFILE   downloads URL, cancels once BYTES arrived and writes the
//                                       encoded resume data to RESUMEFILE; prints "cancelled offset=N"
//   resume RESUMEFILE DEST              goes on from the encoded resume data into DEST;
//                                       prints "status=N"
//   crash-after URL PARTIAL BYTES       downloads URL to PARTIAL with a resume record beside it and
//                                       sends itself SIGKILL once BYTES arrived (a crash: nothing
//                                       runs after it)
//   recover RECORD DEST                 recovers resume data from the record and goes on into DEST,
//                                       keeping the record; prints "recovered offset=N", "status=N"

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

func url(_ text: String) -> URL {
    guard let url = URL(string: text) else { fail("bad URL \(text)") }
    return url
}

func byteCount(_ text: String) -> Int64 {
    guard let count = Int64(text) else { fail("bad byte count \(text)") }
    return count
}

/// Downloads `url` with a task of `session`, handing each progress value and the task to
/// `onProgress` (which may cancel it), and returns what the task ended with.
func download(
    _ url: URL,
    with session: SessionManager,
    options: DownloadOptions = DownloadOptions(),
    onProgress: @escaping @Sendable (TransferProgress, SessionTask) -> Void
) async -> DownloadResponse {
    let (responses, delivered) = AsyncStream<DownloadResponse>.makeStream()
    let started = Lock<SessionTask?>(nil)
    let task = session.downloadTask(
        with: HTTPRequest(url: url),
        options: options,
        progress: { value in if let task = started.withLock({ $0 }) { onProgress(value, task) } },
        destination: nil,
        completion: { response in
            delivered.yield(response)
            delivered.finish()
        }
    )
    started.withLock { $0 = task }
    task.resume()
    for await response in responses { return response }
    fail("the download task never completed", status: 1)
}

/// Prints the final status, or the error on standard error with status 1.
func report(_ response: DownloadResponse) {
    if let error = response.error { fail("download failed: \(error)", status: 1) }
    print("status=\(response.response?.status.code ?? 0)")
}

func finalFile(_ path: String) -> DownloadDestination.Choose {
    { _, _ in DownloadDestination(path: path, replacesExistingFile: true) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
var configuration = CurlTransport.Configuration()
configuration.proxy = .none
let transport = CurlTransport(configuration: configuration)
let session = SessionManager(transport: transport)

switch arguments.first {
case "cancel-after" where arguments.count == 4:
    let bytes = byteCount(arguments[2])
    let stopped = await download(url(arguments[1]), with: session) { value, task in
        if value.completed >= bytes { task.cancel() }
    }
    guard let resumeData = stopped.resumeData else {
        fail("no resume data: \(String(describing: stopped.error))", status: 1)
    }
    try resumeData.encoded().write(to: URL(fileURLWithPath: arguments[3]))
    print("cancelled offset=\(resumeData.offset)")
case "resume" where arguments.count == 3:
    let resumeData = try ResumeData(encoded: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    report(await session.download(resumingWith: resumeData, to: finalFile(arguments[2])))
case "crash-after" where arguments.count == 4:
    let bytes = byteCount(arguments[3])
    let options = DownloadOptions(partialFilePath: arguments[2], persistsResumeRecord: true)
    let ended = await download(url(arguments[1]), with: session, options: options) { value, _ in
        if value.completed >= bytes { kill(getpid(), SIGKILL) }
    }
    fail("the download ended before the crash: \(String(describing: ended.error))", status: 1)
case "recover" where arguments.count == 3:
    let resumeData = try ResumeData.recover(fromRecordAt: arguments[1])
    print("recovered offset=\(resumeData.offset)")
    report(
        await session.download(
            resumingWith: resumeData,
            options: DownloadOptions(persistsResumeRecord: true),
            to: finalFile(arguments[2])
        )
    )
default:
    fail(
        "usage: cancel-after URL BYTES RESUMEFILE | resume RESUMEFILE DEST | crash-after URL PARTIAL BYTES | recover RECORD DEST"
    )
}
await session.shutdown()
await transport.shutdown()
