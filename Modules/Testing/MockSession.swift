public import CourierHTTP
internal import CourierLocking
public import CourierSerialization
public import CourierSessionCore
internal import CourierTransport
public import FoundationEssentials

/// A double of the whole session layer: stubbed answers by request, a record of every call, and a
/// typed failure for a call no stub answers. No transport, no tasks, no network.
///
/// Hand it to an API client that holds `any HTTPSession`, to test the client's own logic (which
/// call it makes, what it does with each answer) apart from the session pipeline. The calls an
/// app writes (`decodable`, `data`, the URL-string calls) are `HTTPSession`'s own extensions, so
/// URL resolution against ``baseURL`` and parameter placement are the real ones; an answer's
/// response goes through the call's serializer, so validation and decoding errors are the real
/// ones too. To test the pipeline itself (adapters, retries, redirects) put `MockTransport` under
/// the engine's `SessionManager` instead.
///
/// ```swift
/// let session = MockSession(baseURL: URL(string: "https://api.example.com/v1/"))
/// session.stub(url: "me", answer: .json(#"{"id":1,"name":"Ada"}"#))
/// let client = ProfileClient(session: session)
/// #expect(try await client.profile() == Profile(id: 1, name: "Ada"))
/// #expect(session.verify(.method(.get) && .path("/v1/me"), called: 1) == nil)
/// ```
///
/// A call that matches no stub fails with a `SessionError` of kind `.transport(.other)` naming
/// the request, as an unstubbed request to `MockTransport` does under a real session, and is
/// passed to ``onUnstubbedCall(_:)``'s handler (`CourierTestingExpectations` turns it into a test
/// failure: `MockSession.failingTestOnUnstubbedCall()`).
public final class MockSession: HTTPSession {
    /// A call the session received, with its request body read in full.
    public typealias RecordedRequest = MockTransport.RecordedRequest

    /// Computes an answer from the recorded request.
    public typealias Responder = @Sendable (RecordedRequest) async -> Answer

    /// One call: its request, which requirement it came through, and its options.
    public struct Call: Sendable {
        /// Which requirement a call came through.
        public enum Kind: Sendable, Hashable {
            /// `response(for:serializer:options:)`: a data call.
            case data
            /// `download(for:to:options:)`.
            case download
        }

        /// The request, with its body.
        public let request: RecordedRequest
        /// The requirement the call came through.
        public let kind: Kind
        /// The options the caller passed.
        public let options: RequestOptions
    }

    private struct State {
        var stubs = StubList<Responder>()
        var calls: [Call] = []
        var requestSerializer: any EncodableRequestSerializing
        var unstubbedHandler: (@Sendable (HTTPRequest) -> Void)?
    }

    private let state: Lock<State>
    /// The base URL the URL-string calls and the stubs' relative URLs resolve against.
    public let baseURL: URL?
    /// The largest request body read into the record; a longer one fails the call.
    public let maximumRequestBodySize: Int
    /// Answers the session's WebSocket handshakes (`webSocket(...)`) and records them.
    ///
    /// ```swift
    /// session.webSocketConnector.stub(url: "wss://chat.example/ws", socket: MockWebSocket(incoming: [.text("hi")]))
    /// ```
    public let webSocketConnector = MockWebSocketConnector()

    /// Creates a session with no stubs.
    ///
    /// ```swift
    /// let session = MockSession(baseURL: URL(string: "https://api.example.com/v1"), requestSerializer: JSONRequestSerializer())
    /// ```
    /// - Parameters:
    ///   - baseURL: The base URL, normalised as `HTTPSessionManager` normalises it; `nil` for none.
    ///   - requestSerializer: Places the URL-string calls' parameters; form encoding by default,
    ///     as `HTTPSessionManager`'s.
    ///   - maximumRequestBodySize: The largest request body read into the record.
    public init(
        baseURL: URL? = nil,
        requestSerializer: any EncodableRequestSerializing = HTTPRequestSerializer(),
        maximumRequestBodySize: Int = 64 << 20
    ) {
        self.baseURL = baseURL.map(URLResolution.normalisedBase)
        self.maximumRequestBodySize = maximumRequestBodySize
        state = Lock(State(requestSerializer: requestSerializer))
    }

    /// Places the URL-string calls' parameters.
    public var requestSerializer: any EncodableRequestSerializing {
        get { state.withLock { $0.requestSerializer } }
        set { state.withLock { $0.requestSerializer = newValue } }
    }

    // MARK: Stubs

    /// Answers calls whose request `matches` accepts with the answer `respond` computes; later
    /// stubs win over earlier ones.
    ///
    /// ```swift
    /// session.stub(matching: { $0.method == .post }, respond: { recorded in .response(status: 201, body: recorded.body) })
    /// ```
    /// - Parameters:
    ///   - matches: Whether the stub answers a request.
    ///   - times: How many calls the stub answers; `nil` for every one.
    ///   - respond: Computes the answer once the request body has been read.
    public func stub(
        matching matches: @escaping @Sendable (HTTPRequest) -> Bool,
        times: Int? = nil,
        respond: @escaping Responder
    ) {
        state.withLock { $0.stubs.append(matching: matches, times: times, respond: respond) }
    }

    /// Answers calls for `url` (absolute, or relative to ``baseURL``), with `method` when given.
    ///
    /// ```swift
    /// session.stub(method: .put, url: "me", answer: .response(status: 409), times: 1)
    /// ```
    /// - Parameters:
    ///   - method: The method to match; any when `nil`.
    ///   - url: The URL to match, compared as an absolute string after resolution.
    ///   - answer: What the stub answers.
    ///   - times: How many calls the stub answers; `nil` for every one.
    public func stub(method: HTTPMethod? = nil, url: String, answer: Answer, times: Int? = nil) {
        let target = self.url(for: url)?.absoluteString ?? url
        stub(
            matching: { request in
                request.url.absoluteString == target && (method == nil || request.method == method)
            },
            times: times,
            respond: { _ in answer }
        )
    }

    /// Answers calls for `url` with a JSON body and `Content-Type: application/json`.
    ///
    /// ```swift
    /// session.stub(url: "https://api.example.com/v1/me", json: #"{"id":1,"name":"Ada"}"#)
    /// ```
    /// - Parameters:
    ///   - method: The method to match; any when `nil`.
    ///   - url: The URL to match (absolute, or relative to ``baseURL``).
    ///   - status: The status code.
    ///   - json: The JSON text of the body.
    ///   - times: How many calls the stub answers; `nil` for every one.
    public func stub(method: HTTPMethod? = nil, url: String, status: Int = 200, json: String, times: Int? = nil) {
        stub(method: method, url: url, answer: .json(json, status: status), times: times)
    }

    /// Calls `handler` with every request that matches no stub, before its call fails.
    ///
    /// ```swift
    /// session.onUnstubbedCall { request in print("no stub for \(request)") }
    /// ```
    /// - Parameter handler: Called once per unstubbed call; it replaces the handler set before and
    ///   survives ``reset()``.
    public func onUnstubbedCall(_ handler: @escaping @Sendable (HTTPRequest) -> Void) {
        state.withLock { $0.unstubbedHandler = handler }
    }

    // MARK: Records

    /// Every call, in the order it was made.
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Every call's request with its body, in call order: what `RequestMatcher` and
    /// ``verify(_:called:)`` look at.
    public var requests: [RecordedRequest] { calls.map(\.request) }

    /// Removes every stub and record.
    public func reset() {
        state.withLock { state in
            state = State(requestSerializer: state.requestSerializer, unstubbedHandler: state.unstubbedHandler)
        }
    }

    // MARK: HTTPSession

    /// Records the call and answers it from the newest matching stub, through `serializer`.
    ///
    /// ```swift
    /// let response = await session.response(for: request, serializer: DataResponseSerializer(), options: RequestOptions())
    /// ```
    /// - Parameters:
    ///   - request: The request; its body is read in full into the record.
    ///   - serializer: Validates and decodes the stubbed response.
    ///   - options: Recorded with the call.
    /// - Returns: The stubbed response with the serializer's value or error, or the stubbed error.
    public func response<Serializer: ResponseSerializing>(
        for request: HTTPRequest,
        serializer: Serializer,
        options: RequestOptions
    ) async -> DataResponse<Serializer.Output> {
        var retries = 0
        let final = await intercepted(request, interceptor: options.interceptor) { adapted in
            defer { retries += 1 }
            let (response, body, failure) = await answer(adapted, kind: .data, options: options)
            if let failure {
                return AnsweredAttempt(
                    response: DataResponse(
                        request: adapted,
                        response: response,
                        data: body,
                        value: nil,
                        error: failure
                    ),
                    failure: .transport(failure)
                )
            }
            let serialized = serializer.serializedResponse(response: response, data: body, request: adapted)
            let error = serialized.error.map {
                SessionError.serialization($0, request: adapted, response: response, data: body)
            }
            return AnsweredAttempt(
                response: DataResponse(
                    request: adapted,
                    response: response,
                    data: body,
                    value: serialized.value,
                    error: error
                ),
                failure: error.map(AttemptFailure.classifying)
            )
        } failed: { adapted, error in
            DataResponse<Serializer.Output>(
                request: adapted,
                response: error.response,
                data: error.data,
                value: nil,
                error: error
            )
        }
        guard retries > 1 else { return final }
        return DataResponse(
            request: final.request,
            response: final.response,
            data: final.data,
            value: final.value,
            error: final.error,
            retryCount: retries - 1
        )
    }

    /// Records the call and answers it from the newest matching stub: a response's body is written
    /// to the file `destination` picks, after the status check a real download makes.
    ///
    /// ```swift
    /// let saved = await session.download(for: request, to: { _, _ in .init(path: path) }, options: RequestOptions())
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Picks the final path from a temporary file holding the stubbed body.
    ///   - options: Recorded with the call.
    /// - Returns: The file, or the error.
    public func download(
        for request: HTTPRequest,
        to destination: DownloadDestination.Choose?,
        options: RequestOptions
    ) async -> DownloadResponse {
        await intercepted(request, interceptor: options.interceptor) { adapted in
            await answerDownload(adapted, to: destination, options: options)
        } failed: { adapted, error in
            DownloadResponse(request: adapted, response: error.response, filePath: nil, error: error)
        }
    }

    /// One download attempt: a body the status check refuses is still saved, with the error beside
    /// it, as a session's download leaves it at the destination.
    private func answerDownload(
        _ request: HTTPRequest,
        to destination: DownloadDestination.Choose?,
        options: RequestOptions
    ) async -> AnsweredAttempt<DownloadResponse> {
        let (response, body, failure) = await answer(request, kind: .download, options: options)
        if let failure {
            return AnsweredAttempt(
                response: DownloadResponse(request: request, response: response, filePath: nil, error: failure),
                failure: .transport(failure)
            )
        }
        let refusal = DownloadValidation.refusal(of: response, for: request)
            .map { SessionError.serialization($0, request: request, response: response, data: nil) }
        guard let destination, let response else {
            return AnsweredAttempt(
                response: DownloadResponse(request: request, response: response, filePath: nil, error: refusal),
                failure: refusal.map(AttemptFailure.validation)
            )
        }
        let saved = MockDownloadWriter.save(body ?? Data(), for: request, response: response, to: destination)
        guard let refusal, saved.error == nil else { return AnsweredAttempt(response: saved, failure: nil) }
        return AnsweredAttempt(
            response: DownloadResponse(request: request, response: response, filePath: saved.filePath, error: refusal),
            failure: .validation(refusal)
        )
    }

    // MARK: Answering

    /// Records the call and finds its answer: the stub's, a cancellation, or the unstubbed failure.
    private func answer(
        _ request: HTTPRequest,
        kind: Call.Kind,
        options: RequestOptions
    ) async -> (response: HTTPResponse?, body: Data?, error: SessionError?) {
        let body: Data
        do {
            body = try await request.body.collect(upTo: maximumRequestBodySize)
        } catch {
            let failure = TransportError(
                category: .requestBodyFailed,
                message: "the request body could not be read",
                url: request.url,
                underlying: error
            )
            return (nil, nil, .transport(failure, url: request.url, response: nil, data: nil))
        }
        let recorded = RecordedRequest(request: request, body: body)
        let (respond, unstubbed) = state.withLock { state -> (Responder?, (@Sendable (HTTPRequest) -> Void)?) in
            state.calls.append(Call(request: recorded, kind: kind, options: options))
            return (state.stubs.take(for: request), state.unstubbedHandler)
        }
        guard let respond else {
            unstubbed?(request)
            let failure = TransportError(
                category: .other,
                message: "MockSession has no stub for \(request)",
                url: request.url
            )
            return (nil, nil, .transport(failure, url: request.url, response: nil, data: nil))
        }
        let answer = await respond(recorded)
        if Task.isCancelled { return (nil, nil, .cancelled(request.url)) }
        return answer.outcome(for: request)
    }

}
