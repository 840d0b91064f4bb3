internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// Runs one transfer's events to the end for a command: progress, the response head, body chunks,
/// and the terminal event turned into a result or a thrown `TransportError`.
struct TransferDriver {
    /// Which direction the progress line follows.
    enum Direction {
        case upload
        case download
    }

    /// What a finished transfer left behind.
    struct Outcome {
        var response: HTTPResponse?
        var redirectLocation: URL?
        var metrics: TransferMetrics
    }

    let direction: Direction
    let progress: ProgressLine

    /// The progress line a command shows: live on a terminal or with `--progress`, otherwise none.
    static func progressLine(_ settings: TransportSettings, label: String) -> ProgressLine {
        let live = settings.forcesProgress || StandardStreams.errorIsTerminal
        return ProgressLine(style: live ? .live : .off, label: label) { StandardStreams.writeError($0) }
    }

    /// Consumes `transfer`. A handler that throws cancels the transfer and its error is rethrown.
    func run(
        _ transfer: HTTPTransfer,
        onResponse: (HTTPResponse) throws -> Void = { _ in },
        onBody: (Data) throws -> Void = { _ in }
    ) async throws -> Outcome {
        var response: HTTPResponse?
        var location: URL?
        var last = TransferProgress(completed: 0, total: nil)
        var progressDone = false
        // An upload's line ends when the response arrives, before the response body is printed.
        func finishProgress() {
            guard !progressDone else { return }
            progressDone = true
            progress.finish(completed: last.completed, total: last.total)
        }
        do {
            for await event in transfer.events {
                switch event {
                case .uploadProgress(let value):
                    guard direction == .upload else { continue }
                    last = value
                    progress.update(completed: value.completed, total: value.total)
                case .downloadProgress(let value):
                    guard direction == .download else { continue }
                    last = value
                    progress.update(completed: value.completed, total: value.total)
                case .redirect(let head, let target):
                    if direction == .upload { finishProgress() }
                    response = head
                    location = target
                case .response(let head):
                    if direction == .upload { finishProgress() }
                    response = head
                    try onResponse(head)
                case .body(let chunk):
                    try onBody(chunk)
                case .completed(let metrics):
                    finishProgress()
                    return Outcome(response: response, redirectLocation: location, metrics: metrics)
                case .failed(let error):
                    throw error
                }
            }
        } catch {
            transfer.cancel()
            if !progressDone { progress.abandon() }
            throw error
        }
        if !progressDone { progress.abandon() }
        throw TransportError(
            category: .cancelled,
            message: "the transfer ended without a result",
            url: transfer.request.url
        )
    }
}
