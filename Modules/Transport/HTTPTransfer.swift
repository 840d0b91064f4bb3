public import CourierHTTP
public import FoundationEssentials

/// What a transport does when a transfer's owner cancels, suspends or resumes it.
///
/// - Important: Implementations return at once: they post the command to wherever the transfer
///   runs and never wait for it to take effect.
public protocol TransferControlling: Sendable {
    /// Stops the transfer; it ends with ``TransportError/Category/cancelled``.
    func cancel()
    /// Stops moving bytes until ``resume()``; timeouts that count stalled time keep running.
    func suspend()
    /// Moves bytes again after ``suspend()``.
    func resume()
}

/// One transfer in flight: its events and its controls.
///
/// ```swift
/// let transfer = transport.startTransfer(request)
/// let result = try await transfer.collect(upTo: 10 << 20)
/// print(result.response.status, result.body.count)
/// ```
///
/// - Important: Read ``events`` to the end, or call ``cancel()``. Backpressure pauses a transfer
///   whose events nobody reads, and it keeps its connection until it is cancelled or the transport
///   shuts down. (Releasing the transfer does not cancel it: a temporary `HTTPTransfer` is often
///   released right after its events are taken.)
public final class HTTPTransfer: Sendable {
    /// The request as it was handed to the transport.
    public let request: HTTPRequest
    /// The transfer's events, for one consumer.
    public let events: TransferEvents
    private let controller: any TransferControlling

    /// Creates a transfer; transports call this.
    ///
    /// - Parameters:
    ///   - request: The request being sent.
    ///   - events: The consumer end of the events, made with its source by
    ///     ``TransferEvents/makeEvents(highWaterMark:lowWaterMark:)``; the transport keeps the source.
    ///   - controller: What cancel, suspend and resume do.
    public init(request: HTTPRequest, events: TransferEvents, controller: some TransferControlling) {
        self.request = request
        self.events = events
        self.controller = controller
    }

    /// Cancels the transfer without waiting; its events end with a cancellation failure.
    public func cancel() { controller.cancel() }

    /// Suspends the transfer.
    public func suspend() { controller.suspend() }

    /// Resumes a suspended transfer.
    public func resume() { controller.resume() }

    /// Reads the whole transfer into memory and returns the response, body and metrics.
    ///
    /// Meant for small bodies, tests and demos; stream ``events`` for large ones. A redirect response
    /// is returned as the result (with ``TransferResult/redirectLocation`` set), not followed.
    ///
    /// ```swift
    /// let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
    /// ```
    /// - Parameter limit: The largest body accepted; a longer body cancels the transfer.
    /// - Throws: The transfer's ``TransportError``, or one of category
    ///   ``TransportError/Category/limitExceeded`` when the body passes `limit`.
    public func collect(upTo limit: Int) async throws(TransportError) -> TransferResult {
        var head: HTTPResponse?
        var location: URL?
        var body = Data()
        for await event in events {
            switch event {
            case .response(let response):
                head = response
            case .redirect(let response, let target):
                head = response
                location = target
            case .body(let chunk):
                guard body.count + chunk.count <= limit else {
                    cancel()
                    throw TransportError(
                        category: .limitExceeded,
                        message: "the response body is longer than \(limit) bytes",
                        url: request.url
                    )
                }
                body.append(chunk)
            case .completed(let metrics):
                guard let head else {
                    throw TransportError(category: .other, message: "completed without a response", url: request.url)
                }
                return TransferResult(response: head, body: body, metrics: metrics, redirectLocation: location)
            case .failed(let error):
                throw error
            case .uploadProgress, .downloadProgress:
                continue
            }
        }
        throw TransportError(category: .cancelled, message: "the transfer was cancelled", url: request.url)
    }
}

/// A whole transfer read into memory by ``HTTPTransfer/collect(upTo:)``.
public struct TransferResult: Sendable {
    /// The response head.
    public let response: HTTPResponse
    /// The decoded body.
    public let body: Data
    /// The transfer's metrics.
    public let metrics: TransferMetrics
    /// The redirect target, when the response was a redirect.
    public let redirectLocation: URL?
}
