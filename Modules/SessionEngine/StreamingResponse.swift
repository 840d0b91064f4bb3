public import CourierHTTP
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

/// A response whose body is read as it arrives, chunk by chunk, with backpressure.
///
/// The head comes after adapters, redirects and retries have run; once it is here nothing is
/// retried, since the caller may already have acted on it. Validation is the caller's: the status
/// is in ``response``. Reading slowly pauses the transfer (no bytes pile up in memory); stopping
/// early, dropping the body unread or cancelling the reading task cancels the transfer.
///
/// ```swift
/// let stream = try await session.streamingResponse(for: HTTPRequest(url: eventsURL))
/// guard stream.response.status.code == 200 else { return }
/// for try await chunk in stream.body { parser.feed(chunk) }
/// ```
public struct StreamingResponse: Sendable {
    /// The request that received ``response`` (after adapters and redirects).
    public let request: HTTPRequest
    /// The response head.
    public let response: HTTPResponse
    /// The task behind the stream: its identifier, state, progress and metrics.
    public let task: SessionTask
    /// The body, chunk by chunk; it throws `SessionError` when the transfer fails mid-way.
    public let body: ResponseBody
}

/// A streamed response body: an async sequence of chunks that can be iterated once.
///
/// ```swift
/// var received = 0
/// for try await chunk in stream.body { received += chunk.count }
/// ```
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body as it arrived.
    public typealias Element = Data
    /// What ends the body early.
    public typealias Failure = SessionError

    let reader: Reader

    /// Returns the iterator; the body's chunks go to whichever iterator asks first.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }

    /// Reads the rest of the body into memory, refusing more than `limit` bytes.
    ///
    /// ```swift
    /// let text = String(decoding: try await stream.body.collect(upTo: 1 << 20), as: UTF8.self)
    /// ```
    /// - Parameter limit: The most bytes accepted; more cancels the task.
    /// - Returns: The bytes.
    /// - Throws: `SessionError` when the transfer failed, or of kind
    ///   `transport(.limitExceeded)` when the body passed `limit`.
    public func collect(upTo limit: Int) async throws(SessionError) -> Data {
        var collected = Data()
        var iterator = makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard collected.count + chunk.count <= limit else {
                reader.task.cancel()
                throw SessionError(
                    kind: .transport(.limitExceeded),
                    message: "the streamed body passed \(limit) bytes",
                    failingURL: reader.task.currentRequest.url
                )
            }
            collected.append(chunk)
        }
        return collected
    }

    /// Iterates over the chunks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next chunk, `nil` at the end of the body.
        ///
        /// - Throws: `SessionError` when the transfer failed or the reading task was cancelled.
        public mutating func next() async throws(SessionError) -> Data? {
            try await reader.next()
        }

        /// The next chunk, `nil` at the end of the body.
        ///
        /// - Parameter actor: The caller's isolation.
        /// - Throws: `SessionError` when the transfer failed or the reading task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SessionError) -> Data? {
            try await reader.next()
        }
    }

    /// The consumer's end of the channel; dropping the last copy of the body cancels the task.
    final class Reader: Sendable {
        let channel: ResponseBodyChannel
        let task: SessionTask

        init(channel: ResponseBodyChannel, task: SessionTask) {
            self.channel = channel
            self.task = task
        }

        func next() async throws(SessionError) -> Data? {
            let result = await withTaskCancellationHandler {
                await channel.next(abandoned: .cancelled(task.currentRequest.url))
            } onCancel: {
                leave()
            }
            return try result.get()
        }

        private func leave() {
            channel.consumerDidLeave()
            task.cancel()
        }

        deinit { leave() }
    }
}

extension SessionManager {
    /// Sends `request` and returns as soon as the final response head arrives, with the body to
    /// read as it comes (Alamofire's `DataStreamRequest`, AFNetworking's become-stream).
    ///
    /// Adapters, redirects and retries run up to the head; the response disposition, event
    /// monitors and the task registry see the task as any other. The body is not validated.
    ///
    /// ```swift
    /// let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
    /// for try await chunk in stream.body { print(chunk.count) }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - options: How the body is received (its buffer sizes).
    /// - Returns: The head, the task and the body.
    /// - Throws: `SessionError` when no head arrived (transport, redirect, interceptor failures,
    ///   or cancellation of the calling task).
    public func streamingResponse(
        for request: HTTPRequest,
        options: TransferOptions = TransferOptions()
    ) async throws(SessionError) -> StreamingResponse {
        let channel = ResponseBodyChannel()
        let task = makeTask(request: request, options: options, progress: .none, bodyChannel: channel) {
            [self] task, result in
            self.finishTask(task, result, error: result.error) { channel.finish(error: result.error) }
        }
        let reader = ResponseBody.Reader(channel: channel, task: task)
        task.resume()
        let head = await withTaskCancellationHandler {
            await channel.head()
        } onCancel: {
            task.cancel()
        }
        return StreamingResponse(
            request: task.currentRequest,
            response: try head.get(),
            task: task,
            body: ResponseBody(reader: reader)
        )
    }
}
