public import CourierHTTP
internal import CourierLocking
public import CourierTransport
public import FoundationEssentials

/// A scripted transport for tests: canned or computed replies by request, and a record of every
/// request and every control call.
///
/// Put it under the real session layer in an app's tests; nothing touches the network or libcurl.
/// It keeps the contract of a real transport: the request body is read in full (so tests can
/// assert on it; a one-shot body read before fails the transfer with
/// `requestBodyAlreadyConsumed`), then the reply's steps are played through the same backpressured
/// events, in `TransferEvent`'s order. A `.file` destination writes the file (with the resume
/// rules of the libcurl transport), the request's `maximumResponseBodySize` is honoured, and
/// cancel, suspend and resume are recorded and take effect.
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
    /// A request the transport received, with its body read in full.
    public struct RecordedRequest: Sendable {
        /// The request, as the transport sent it (with the `Range` fields a resumed download adds).
        public let request: HTTPRequest
        /// Its body bytes.
        public let body: Data

        /// The request URL.
        public var url: URL { request.url }
    }

    /// A cancel, suspend or resume call on one of the transport's transfers.
    public struct ControlCall: Sendable, Hashable {
        /// What was asked.
        public enum Action: Sendable, Hashable {
            /// `cancel()`
            case cancel
            /// `suspend()`
            case suspend
            /// `resume()`
            case resume
        }

        /// The URL of the transfer.
        public let url: URL
        /// What was asked.
        public let action: Action

        /// Creates a record, to compare with ``MockTransport/controlCalls``.
        ///
        /// ```swift
        /// #expect(transport.controlCalls == [.init(url: url, action: .cancel)])
        /// ```
        /// - Parameters:
        ///   - url: The URL of the transfer.
        ///   - action: What was asked.
        public init(url: URL, action: Action) {
            self.url = url
            self.action = action
        }
    }

    /// Computes a reply from the recorded request (its body read in full).
    public typealias Responder = @Sendable (RecordedRequest) async -> Reply

    private struct State {
        var stubs = StubList<Responder>()
        /// One entry per started transfer, in start order; the body is set once it has been read.
        var records: [(request: HTTPRequest, body: Data?)] = []
        var controlCalls: [ControlCall] = []
        var unstubbedHandler: (@Sendable (HTTPRequest) -> Void)?
    }

    private let state = Lock(State())
    /// The raw connections to hand out (see `MockTransport+RawConnection`).
    let rawConnections = Lock(RawConnectionStubs())
    /// The largest request body the mock reads; longer bodies fail the transfer.
    public let maximumRequestBodySize: Int
    /// The largest response body when a request does not say; `nil` for no limit.
    public let maximumResponseBodySize: Int64?
    /// The cookies the transport sends and stores, as a real transport's jar: a request that does
    /// not opt out (`handlesCookies`) gets their `Cookie` field, and every response head's
    /// `Set-Cookie` fields (redirects included) are stored. `nil` when cookies are off.
    public let cookies: InMemoryCookieStore?

    /// The transport's cookie store, ``cookies``.
    public var cookieStore: (any CookieStore)? { cookies }

    /// Creates a transport with no stubs.
    ///
    /// ```swift
    /// let transport = MockTransport(maximumResponseBodySize: 1 << 20)
    /// ```
    /// - Parameters:
    ///   - maximumRequestBodySize: The largest request body read into the record.
    ///   - maximumResponseBodySize: The default response body limit (a request's own wins).
    ///   - cookies: The cookie store; a new empty one by default, `nil` to turn cookies off.
    public init(
        maximumRequestBodySize: Int = 64 << 20,
        maximumResponseBodySize: Int64? = nil,
        cookies: InMemoryCookieStore? = InMemoryCookieStore()
    ) {
        self.maximumRequestBodySize = maximumRequestBodySize
        self.maximumResponseBodySize = maximumResponseBodySize
        self.cookies = cookies
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
        stub(matching: matches, times: times) { _ in reply }
    }

    /// Answers requests that `matches` accepts with the reply `respond` computes from the recorded
    /// request; later stubs win over earlier ones.
    ///
    /// ```swift
    /// transport.stub(
    ///     matching: { $0.method == .post },
    ///     respond: { recorded in MockTransport.Reply(status: 200, body: recorded.body) }  // an echo
    /// )
    /// ```
    /// - Parameters:
    ///   - matches: Whether the stub answers a request.
    ///   - times: How many requests the stub answers; `nil` for every one.
    ///   - respond: Computes the reply once the request body has been read.
    public func stub(
        matching matches: @escaping @Sendable (HTTPRequest) -> Bool,
        times: Int? = nil,
        respond: @escaping Responder
    ) {
        state.withLock { $0.stubs.append(matching: matches, times: times, respond: respond) }
    }

    /// Answers requests for `url` (compared as absolute strings), with `method` when given.
    ///
    /// ```swift
    /// transport.stub(url: "https://api.example.com/items", reply: .init(status: 404))
    /// ```
    /// - Parameters:
    ///   - method: The method to match; any when `nil`.
    ///   - url: The absolute URL to match.
    ///   - reply: What the stub answers.
    ///   - times: How many requests the stub answers; `nil` for every one.
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
    /// - Parameters:
    ///   - method: The method to match; any when `nil`.
    ///   - url: The absolute URL to match.
    ///   - status: The status code.
    ///   - json: The JSON text of the body.
    ///   - times: How many requests the stub answers; `nil` for every one.
    public func stub(method: HTTPMethod? = nil, url: String, status: Int = 200, json: String, times: Int? = nil) {
        stub(
            method: method,
            url: url,
            reply: Reply(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)),
            times: times
        )
    }

    /// Calls `handler` with every request that matches no stub, before its transfer fails.
    ///
    /// `CourierTestingExpectations` uses it to fail the running test
    /// (`MockTransport.failingTestOnUnstubbedRequest()`); a test can also collect them:
    ///
    /// ```swift
    /// let missed = Mutex<[HTTPRequest]>([])
    /// transport.onUnstubbedRequest { request in missed.withLock { $0.append(request) } }
    /// ```
    /// - Parameter handler: Called once per unstubbed request, from the transfer's task; it
    ///   replaces the handler set before and survives ``reset()``.
    public func onUnstubbedRequest(_ handler: @escaping @Sendable (HTTPRequest) -> Void) {
        state.withLock { $0.unstubbedHandler = handler }
    }

    /// Every request whose body has been read, in the order the transfers were started.
    public var requests: [RecordedRequest] {
        state.withLock { state in
            state.records.compactMap { record in
                record.body.map { RecordedRequest(request: record.request, body: $0) }
            }
        }
    }

    /// Every request handed to ``startTransfer(_:options:)``, including those still reading their
    /// body, in start order.
    public var startedRequests: [HTTPRequest] {
        state.withLock { $0.records.map(\.request) }
    }

    /// Every cancel, suspend and resume call on this transport's transfers, in call order.
    public var controlCalls: [ControlCall] {
        state.withLock { $0.controlCalls }
    }

    /// Removes every stub and record.
    public func reset() {
        state.withLock { state in
            state = State(unstubbedHandler: state.unstubbedHandler)
        }
    }

    /// Starts a scripted transfer and returns at once; the script plays in a task.
    ///
    /// ```swift
    /// let transfer = transport.startTransfer(request, options: TransferOptions())
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is read in full before the reply starts.
    ///   - options: Where the body goes (a `.file` destination is written) and the water marks.
    /// - Returns: The transfer.
    public func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        let (events, source) = TransferEvents.makeEvents(
            highWaterMark: options.highWaterMark,
            lowWaterMark: options.lowWaterMark
        )
        let demand = MockDemandSignal()
        let control = MockTransferControl(source: source, url: request.url) { [weak self] action in
            self?.state.withLock { $0.controlCalls.append(ControlCall(url: request.url, action: action)) }
        }
        let jar = request.handlesCookies == false ? nil : cookies
        var player = MockTransferPlayer(
            request: request,
            options: options,
            source: source,
            control: control,
            demand: demand,
            maximumResponseBodySize: request.maximumResponseBodySize ?? maximumResponseBodySize,
            storeCookies: { headers in _ = jar?.storeCookies(from: headers, for: request.url) }
        )
        var sent = request
        for field in player.file?.requestFields ?? [] {
            sent.headers.remove(name: field.name)
            try? sent.headers.add(name: field.name, value: field.value)
        }
        if let stored = jar?.cookieHeaderValue(for: request.url),
            let jarField = try? HTTPHeaders.Field(name: "Cookie", value: stored)
        {
            // As libcurl 7.88 sends them: the jar's cookies in a `Cookie` field of their own, before
            // the request's fields (a `Cookie` field the request names itself comes after it).
            var headers = HTTPHeaders()
            headers.add(jarField)
            for field in sent.headers { headers.add(field) }
            sent.headers = headers
        }
        let (index, respond) = state.withLock { state -> (Int, Responder?) in
            state.records.append((sent, nil))
            return (state.records.count - 1, state.stubs.take(for: sent))
        }
        source.setHandlers(onDemand: { demand.signal() }, onTermination: { control.stopPlaying() })
        let task = Task { [self] in
            guard let body = await self.readBody(of: sent, source: source) else { return }
            let recorded = RecordedRequest(request: sent, body: body)
            self.state.withLock { $0.records[index].body = body }
            if !body.isEmpty || sent.body.kind != .empty {
                source.yield(.uploadProgress(TransferProgress(completed: Int64(body.count), total: sent.body.length)))
            }
            guard let respond else {
                self.state.withLock { $0.unstubbedHandler }?(sent)
                source.yield(.failed(TransportError(category: .other, message: "no stub for \(sent)", url: sent.url)))
                return
            }
            await player.play(await respond(recorded), sentBytes: Int64(body.count))
        }
        control.attach(task)
        return HTTPTransfer(request: request, events: events, controller: control)
    }

    /// Reads the request body in full, or reports why it cannot be read and returns `nil`.
    private func readBody(of request: HTTPRequest, source: TransferEventSource) async -> Data? {
        do {
            return try await request.body.collect(upTo: maximumRequestBodySize)
        } catch let error as HTTPValueError where error.code == .bodyAlreadyConsumed {
            source.yield(.failed(.requestBodyAlreadyConsumed(error, url: request.url)))
        } catch {
            source.yield(
                .failed(
                    TransportError(
                        category: .requestBodyFailed,
                        message: "the request body could not be read",
                        url: request.url,
                        underlying: error
                    )
                )
            )
        }
        return nil
    }

    static func cancelled(_ url: URL) -> TransportError {
        TransportError(category: .cancelled, message: "the transfer was cancelled", url: url)
    }
}
