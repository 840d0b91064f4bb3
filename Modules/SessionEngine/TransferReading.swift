internal import CourierHTTP
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// What one transfer of a task ended with.
struct AttemptOutcome: Sendable {
    /// The response head (final, or a redirect that was not followed).
    var response: HTTPResponse?
    /// The next request, when a redirect is being followed.
    var followedRedirect: (response: HTTPResponse, next: HTTPRequest)?
    /// The body of ``response``.
    var body = Data()
    var metrics: TransferMetrics?
    var transportError: TransportError?
    /// A redirect that could not be followed.
    var redirectError: SessionError?
    /// Whether the session's response disposition cancelled the transfer at the response head.
    var responseRejected = false
    /// Whether the transfer's terminal event, `.completed`, was read: the body was delivered whole
    /// (to ``body``, the stream or the file) before the events ended.
    var completed = false
}

extension AttemptOutcome {
    /// Whether the transfer finished before a cancel could stop it: its terminal `.completed` event
    /// was read (the body delivered whole) and it was the final response, not a redirect hop. A
    /// task cancelled then still completes with its value, as a `URLSessionTask` whose completion
    /// already happened ignores `cancel()` (so AFNetworking reports it as it came); Alamofire's
    /// `Request.cancel()` likewise leaves a completed `URLSessionTask` alone ("cancelling it will
    /// have no effect"), though it still records `explicitlyCancelled` until the request finishes.
    /// Turning a finished download into a cancel would hand back resume data covering the whole
    /// file, which no server can resume (a `416`). Any other cancel, however late, ends the task
    /// as cancelled.
    var finishedBeforeCancel: Bool { completed && followedRedirect == nil }
}

/// What to do with a redirect head, decided as it arrives (its body is still on the way).
enum RedirectResolution: Sendable {
    case follow(HTTPRequest)
    case stop
    case fail(SessionError)
}

/// Reads a transfer's events to the end, so no transfer is ever left paused by backpressure.
struct TransferReader {
    let task: SessionTask
    let report: EventSink
    let progress: TaskProgressHandlers
    let drainLimit: Int
    let responseDisposition: (@Sendable (SessionTask, HTTPResponse) async -> ResponseDisposition)?
    /// Where a streamed task's final head and body go, instead of being collected.
    let bodyChannel: ResponseBodyChannel?

    func read(
        _ transfer: HTTPTransfer,
        request: HTTPRequest,
        resolveRedirect: (HTTPResponse, URL) async -> RedirectResolution
    ) async -> AttemptOutcome {
        var outcome = AttemptOutcome()
        var drained = 0
        var cancelledForDrain = false
        var consumerLeft = false
        for await event in transfer.events {
            switch event {
            case .uploadProgress(let value):
                task.record(upload: value)
                progress.upload(value)
                // AFNetworking's did-send-body hook gets the request's Content-Length when the total
                // is unknown; the task's own progress keeps the transport's value. Worked out only
                // when someone listens.
                report(
                    SessionEvent(
                        .bodySent,
                        task: task.taskIdentifier,
                        request: request,
                        progress: Self.declaringTotal(value, from: request)
                    )
                )
            case .response(let response):
                outcome.response = response
                task.record(response: response)
                if let head = progress.head {
                    // A download's head handler writes its resume record: file I/O, off the loop.
                    await offTheTransportThread { head(response, request.url, task.taskIdentifier) }
                }
                report(SessionEvent(.responseReceived, task: task.taskIdentifier, request: request, response: response))
                if let responseDisposition,
                    await offTheTransportThread({ await responseDisposition(task, response) }) == .cancel
                {
                    outcome.responseRejected = true
                    report(
                        SessionEvent(.responseRejected, task: task.taskIdentifier, request: request, response: response)
                    )
                    transfer.cancel()
                } else {
                    bodyChannel?.deliver(head: response)
                }
            case .redirect(let response, let location):
                task.record(response: response)
                report(SessionEvent(.responseReceived, task: task.taskIdentifier, request: request, response: response))
                switch await resolveRedirect(response, location) {
                case .follow(let next):
                    outcome.followedRedirect = (response, next)
                case .stop:
                    outcome.response = response
                    bodyChannel?.deliver(head: response)
                case .fail(let error):
                    outcome.redirectError = error
                    transfer.cancel()
                }
            case .body(let chunk):
                if outcome.followedRedirect != nil {
                    drained += chunk.count
                    if drained > drainLimit && !cancelledForDrain {
                        // A large redirect body costs more to drain than a new connection.
                        cancelledForDrain = true
                        transfer.cancel()
                    }
                } else if outcome.redirectError == nil && !outcome.responseRejected {
                    if let bodyChannel {
                        if !consumerLeft, await !bodyChannel.send(chunk) {
                            consumerLeft = true
                            transfer.cancel()
                        }
                    } else if outcome.body.isEmpty && chunk.startIndex == 0 {
                        // Most bodies arrive in one chunk: keep it as it is rather than copy it
                        // into new storage (a slice would hand the app a body not indexed from 0).
                        outcome.body = chunk
                    } else {
                        outcome.body.append(chunk)
                    }
                }
            case .downloadProgress(let value):
                guard outcome.followedRedirect == nil else { continue }
                task.record(download: value)
                progress.download(value)
                report(SessionEvent(.dataReceived, task: task.taskIdentifier, request: request, progress: value))
            case .completed(let metrics):
                outcome.metrics = metrics
                outcome.completed = true
            case .failed(let error):
                outcome.metrics = error.metrics
                let expected = cancelledForDrain || outcome.redirectError != nil || outcome.responseRejected
                if !(expected && error.category == .cancelled) { outcome.transportError = error }
            }
        }
        if let metrics = outcome.metrics {
            if metrics.trustEvaluation != nil {
                report(
                    SessionEvent(.serverTrustEvaluated, task: task.taskIdentifier, request: request, metrics: metrics)
                )
            }
            report(SessionEvent(.metricsCollected, task: task.taskIdentifier, request: request, metrics: metrics))
        }
        return outcome
    }
}

extension TransferReader {
    /// `progress` with the request's declared `Content-Length` as its total when it has none.
    static func declaringTotal(_ progress: TransferProgress, from request: HTTPRequest) -> TransferProgress {
        var reported = progress
        if reported.total == nil, let declared = request.headers["Content-Length"].flatMap({ Int64($0) }) {
            reported.total = declared
        }
        return reported
    }
}

/// A task's progress closures, called on the session's completion queue in order.
struct TaskProgressHandlers: Sendable {
    let upload: @Sendable (TransferProgress) -> Void
    let download: @Sendable (TransferProgress) -> Void
    /// Called in the reading task with each final response head and its URL, before any of its
    /// progress, so that a download's resume record names the bytes before they are reported.
    var head: (@Sendable (HTTPResponse, URL, _ taskIdentifier: Int) -> Void)?

    static let none = TaskProgressHandlers(upload: { _ in }, download: { _ in })
}

/// Runs app code (a handler, a disposition, a file write) on the global concurrent executor: the
/// reader may drain a transfer's events on the transport's own thread, where only that draining
/// belongs. It costs one re-enqueue, paid only for the rare events that meet app code.
func offTheTransportThread<Value>(_ work: () async -> Value) async -> Value {
    await withTaskExecutorPreference(globalConcurrentExecutor) {
        // A preference takes effect at the next suspension, not on entry: without one, the
        // synchronous start of `work` would still run on the transport's thread.
        await Task.yield()
        return await work()
    }
}
