public import CourierHTTP
public import CourierTransport
public import FoundationEssentials
internal import Synchronization

/// A scripted transport for tests: canned responses by method and URL, and a record of every request.
///
/// Put it under the real session layer in an app's tests; nothing touches the network or libcurl.
/// The request body is read in full (so tests can assert on it), then the stub's response, body
/// chunks and completion are delivered through the same backpressured events a real transport uses.
///
/// ```swift
/// let transport = MockTransport()
/// transport.stub(url: "https://api.example.com/me", json: #"{"name":"Ada"}"#)
/// let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
/// #expect(transport.requests.map(\.url.absoluteString) == ["https://api.example.com/me"])
/// ```
///
/// A request that matches no stub fails with `TransportError` of category `.other`, naming the
/// request, so a missing stub is reported rather than hanging.
public final class MockTransport: HTTPTransport {
    /// What a stub answers.
    public struct Reply: Sendable {
        /// The response head; its URL is filled in from the request when `nil`.
        public var response: HTTPResponse
        /// The body, delivered as the chunks given (at least one when not empty).
        public var chunks: [Data]
        /// When set, the transfer fails with this error instead of answering.
        public var error: TransportError?
        /// When set, the redirect target: the reply is delivered as a redirect event.
        public var redirectLocation: URL?
        /// How long to wait before answering (a `Task.sleep`, never blocking).
        public var delay: Duration?

        /// A response with a body.
        ///
        /// ```swift
        /// let reply = MockTransport.Reply(status: 201, headers: ["Location": "/items/1"], body: Data())
        /// ```
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), chunkSize: Int? = nil) {
            var fields = HTTPHeaders()
            for name in headers.keys.sorted() {
                // Stub headers come from test code; an invalid one is dropped rather than trapping.
                try? fields.add(name: name, value: headers[name] ?? "")
            }
            response = HTTPResponse(status: HTTPStatus(code: status), headers: fields)
            chunks = Self.split(body, chunkSize: chunkSize)
        }

        /// A failure.
        ///
        /// ```swift
        /// let reply = MockTransport.Reply(error: TransportError(category: .timedOut, message: "slow"))
        /// ```
        public init(error: TransportError) {
            response = HTTPResponse(status: .ok)
            chunks = []
            self.error = error
        }

        private static func split(_ body: Data, chunkSize: Int?) -> [Data] {
            guard !body.isEmpty else { return [] }
            guard let chunkSize, chunkSize > 0, chunkSize < body.count else { return [body] }
            return stride(from: body.startIndex, to: body.endIndex, by: chunkSize).map { start in
                body[start..<Swift.min(start + chunkSize, body.endIndex)]
            }
        }
    }

    /// A request the transport received, with its body read in full.
    public struct RecordedRequest: Sendable {
        /// The request.
        public let request: HTTPRequest
        /// Its body bytes.
        public let body: Data

        /// The request URL.
        public var url: URL { request.url }
    }

    private struct Stub {
        let matches: @Sendable (HTTPRequest) -> Bool
        let reply: Reply
        var remainingUses: Int?
    }

    private struct State {
        var stubs: [Stub] = []
        var recorded: [RecordedRequest] = []
        var started: [HTTPRequest] = []
    }

    private let state = Mutex(State())
    /// The largest request body the mock reads; longer bodies fail the transfer.
    public let maximumRequestBodySize: Int

    /// Creates a transport with no stubs.
    ///
    /// - Parameter maximumRequestBodySize: The largest request body read into the record.
    public init(maximumRequestBodySize: Int = 64 << 20) {
        self.maximumRequestBodySize = maximumRequestBodySize
    }

    /// Answers requests that `matches` accepts with `reply`; later stubs win over earlier ones.
    ///
    /// ```swift
    /// transport.stub(matching: { $0.method == .post }, reply: .init(status: 201))
    /// ```
    /// - Parameters:
    ///   - matches: Whether the stub answers a request.
    ///   - reply: What it answers.
    ///   - times: How many requests the stub answers; `nil` for every one.
    public func stub(
        matching matches: @escaping @Sendable (HTTPRequest) -> Bool,
        reply: Reply,
        times: Int? = nil
    ) {
        state.withLock { $0.stubs.append(Stub(matches: matches, reply: reply, remainingUses: times)) }
    }

    /// Answers requests for `url` (compared as absolute strings), with `method` when given.
    ///
    /// ```swift
    /// transport.stub(url: "https://api.example.com/items", reply: .init(status: 404))
    /// ```
    public func stub(method: HTTPMethod? = nil, url: String, reply: Reply, times: Int? = nil) {
        stub(
            matching: { request in
                request.url.absoluteString == url && (method == nil || request.method == method)
            },
            reply: reply,
            times: times
        )
    }

    /// Answers requests for `url` with a JSON body and `Content-Type: application/json`.
    ///
    /// ```swift
    /// transport.stub(url: "https://api.example.com/me", json: #"{"name":"Ada"}"#)
    /// ```
    public func stub(method: HTTPMethod? = nil, url: String, status: Int = 200, json: String, times: Int? = nil) {
        stub(
            method: method,
            url: url,
            reply: Reply(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)),
            times: times
        )
    }

    /// Every request whose body has been read, in the order they were started.
    public var requests: [RecordedRequest] {
        state.withLock { $0.recorded }
    }

    /// Every request handed to ``startTransfer(_:options:)``, including those still reading their body.
    public var startedRequests: [HTTPRequest] {
        state.withLock { $0.started }
    }

    /// Removes every stub and record.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Starts a scripted transfer.
    public func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        let (consumerEvents, events) = TransferEvents.makeEvents(
            highWaterMark: options.highWaterMark,
            lowWaterMark: options.lowWaterMark
        )
        let reply = state.withLock { state -> Reply? in
            state.started.append(request)
            guard let index = state.stubs.lastIndex(where: { $0.matches(request) }) else { return nil }
            let stub = state.stubs[index]
            if let remaining = stub.remainingUses {
                if remaining <= 1 {
                    state.stubs.remove(at: index)
                } else {
                    state.stubs[index].remainingUses = remaining - 1
                }
            }
            return stub.reply
        }
        let demand = DemandSignal()
        let task = Task { [self] in
            await self.play(reply, for: request, demand: demand, into: events)
        }
        let controller = MockTransferController(task: task, events: events, url: request.url)
        events.setHandlers(onDemand: { demand.signal() }, onTermination: { task.cancel() })
        return HTTPTransfer(request: request, events: consumerEvents, controller: controller)
    }

    private func play(_ reply: Reply?, for request: HTTPRequest, demand: DemandSignal, into events: TransferEventSource)
        async
    {
        let body: Data
        do {
            body = try await request.body.collect(upTo: maximumRequestBodySize)
        } catch {
            events.yield(
                .failed(
                    TransportError(
                        category: .requestBodyFailed,
                        message: "the request body could not be read",
                        url: request.url,
                        underlying: error
                    )
                )
            )
            return
        }
        state.withLock { $0.recorded.append(RecordedRequest(request: request, body: body)) }
        events.yield(.uploadProgress(TransferProgress(completed: Int64(body.count), total: request.body.length)))
        guard let reply else {
            events.yield(.failed(TransportError(category: .other, message: "no stub for \(request)", url: request.url)))
            return
        }
        if let delay = reply.delay {
            do {
                try await Task.sleep(for: delay)
            } catch {
                events.yield(.failed(Self.cancelled(request.url)))
                return
            }
        }
        if let error = reply.error {
            events.yield(.failed(error))
            return
        }
        var response = reply.response
        if response.url == nil { response.url = request.url }
        var metrics = TransferMetrics()
        metrics.requestBodyBytes = Int64(body.count)
        metrics.protocolVersion = response.version
        if let location = reply.redirectLocation {
            events.yield(.redirect(response, location: location))
            events.yield(.completed(metrics))
            return
        }
        events.yield(.response(response))
        let total = reply.chunks.reduce(Int64(0)) { $0 + Int64($1.count) }
        var received: Int64 = 0
        for chunk in reply.chunks {
            while !Task.isCancelled && !events.hasRoomForBody() {
                await demand.wait()
            }
            if Task.isCancelled {
                events.yield(.failed(Self.cancelled(request.url)))
                return
            }
            events.yield(.body(chunk))
            received += Int64(chunk.count)
            events.yield(.downloadProgress(TransferProgress(completed: received, total: total)))
        }
        metrics.responseBodyBytes = received
        metrics.decodedBodyBytes = received
        events.yield(.completed(metrics))
    }

    static func cancelled(_ url: URL) -> TransportError {
        TransportError(category: .cancelled, message: "the transfer was cancelled", url: url)
    }
}

/// Cancels the scripted task; suspension is not modelled by the mock.
private final class MockTransferController: TransferControlling {
    let task: Task<Void, Never>
    let events: TransferEventSource
    let url: URL

    init(task: Task<Void, Never>, events: TransferEventSource, url: URL) {
        self.task = task
        self.events = events
        self.url = url
    }

    func cancel() {
        task.cancel()
        events.yield(.failed(MockTransport.cancelled(url)))
    }

    func suspend() {}
    func resume() {}
}

/// Wakes the scripted producer when the consumer has drained the buffer (or the task is cancelled).
private final class DemandSignal: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state in
            defer { state = (state.waiter == nil, nil) }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.signalled || Task.isCancelled {
                        state.signalled = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            signal()
        }
    }
}
