public import CourierHTTP
internal import CourierLocking
public import CourierTransport
public import CourierWebSocket
internal import FoundationEssentials

/// A double of the WebSocket engine: answers each handshake with a scripted connection or error,
/// and records every handshake request it got, after the session's adapters ran on it.
///
/// Put it in a session's configuration (`SessionConfiguration.webSocketConnector`) to test an
/// app's WebSocket code through the real session (adapters, retries on a `401`, events), as
/// `MockTransport` does for HTTP; `MockSession` has one of its own (`MockSession.webSocketConnector`).
///
/// ```swift
/// let connector = MockWebSocketConnector()
/// let socket = MockWebSocket(incoming: [.text("welcome")])
/// connector.stub(url: "wss://chat.example/ws", socket: socket)
/// var configuration = SessionConfiguration()
/// configuration.webSocketConnector = connector
/// let session = SessionManager(transport: MockTransport(), configuration: configuration, interceptor: auth)
/// _ = try await session.webSocket(HTTPRequest(url: URL(string: "wss://chat.example/ws")!))
/// #expect(connector.verify(.header("Authorization", "Bearer t0k3n"), called: 1) == nil)
/// ```
///
/// A handshake no stub answers fails with `WebSocketError.transport(_:)` of category `other`
/// naming the request, as an unstubbed request to `MockTransport` does.
public final class MockWebSocketConnector: WebSocketConnecting {
    /// Computes the answer to a handshake.
    public typealias Responder = @Sendable (HTTPRequest) async -> Result<any WebSocketConnection, WebSocketError>

    /// One handshake the connector received.
    public struct Handshake: Sendable {
        /// The request, as the session handed it over (adapted).
        public let request: HTTPRequest
        /// The configuration the caller passed.
        public let configuration: WebSocketConfiguration
    }

    private struct State {
        var stubs = StubList<Responder>()
        var handshakes: [Handshake] = []
    }

    private let state = Lock(State())

    /// Creates a connector with no stubs.
    ///
    /// ```swift
    /// let connector = MockWebSocketConnector()
    /// ```
    public init() {}

    // MARK: Stubs

    /// Answers the handshakes `matcher` accepts with `respond`'s result; the newest matching stub
    /// answers.
    ///
    /// ```swift
    /// connector.stub(matching: .path("/ws")) { request in .success(MockWebSocket()) }
    /// ```
    /// - Parameters:
    ///   - matcher: Which handshake requests the stub answers.
    ///   - times: How many handshakes it answers; `nil` for every one.
    ///   - respond: The connection or the error.
    public func stub(matching matcher: RequestMatcher = .any, times: Int? = nil, respond: @escaping Responder) {
        state.withLock { state in
            state.stubs.append(
                matching: { matcher.matches(MockTransport.RecordedRequest(request: $0, body: Data())) },
                times: times,
                respond: respond
            )
        }
    }

    /// Answers the handshakes `matcher` accepts with `socket`.
    ///
    /// ```swift
    /// connector.stub(matching: .url("wss://chat.example/ws"), socket: MockWebSocket(incoming: [.text("hi")]))
    /// ```
    /// - Parameters:
    ///   - matcher: Which handshake requests the stub answers.
    ///   - times: How many handshakes it answers; `nil` for every one.
    ///   - socket: The connection to return.
    public func stub(matching matcher: RequestMatcher = .any, times: Int? = nil, socket: any WebSocketConnection) {
        stub(matching: matcher, times: times) { _ in .success(socket) }
    }

    /// Answers the handshakes to `url` with `socket`.
    ///
    /// ```swift
    /// connector.stub(url: "wss://chat.example/ws", socket: socket)
    /// ```
    /// - Parameters:
    ///   - url: The absolute URL to match.
    ///   - times: How many handshakes it answers; `nil` for every one.
    ///   - socket: The connection to return.
    public func stub(url: String, times: Int? = nil, socket: any WebSocketConnection) {
        stub(matching: .url(url), times: times, socket: socket)
    }

    /// Fails the handshakes `matcher` accepts with `error`.
    ///
    /// ```swift
    /// connector.stub(failing: .transport(TransportError(category: .cannotConnect, message: "refused")), times: 1)
    /// ```
    /// - Parameters:
    ///   - matcher: Which handshake requests the stub answers.
    ///   - error: The failure.
    ///   - times: How many handshakes it answers; `nil` for every one.
    public func stub(matching matcher: RequestMatcher = .any, failing error: WebSocketError, times: Int? = nil) {
        stub(matching: matcher, times: times) { _ in .failure(error) }
    }

    /// Refuses the handshakes `matcher` accepts with a response of `status`: a 3xx is reported
    /// as `WebSocketError.redirectNotFollowed(_:)`, any other status as
    /// `WebSocketError.handshakeRefused(_:)`, as the engine reports them.
    ///
    /// ```swift
    /// connector.stub(refusingWith: 401, headers: try HTTPHeaders(["WWW-Authenticate": "Bearer"]), times: 1)
    /// ```
    /// - Parameters:
    ///   - matcher: Which handshake requests the stub answers.
    ///   - status: The response's status.
    ///   - headers: The response's fields (`Location` for a redirect).
    ///   - times: How many handshakes it answers; `nil` for every one.
    public func stub(
        matching matcher: RequestMatcher = .any,
        refusingWith status: Int,
        headers: HTTPHeaders = HTTPHeaders(),
        times: Int? = nil
    ) {
        stub(matching: matcher, times: times) { request in
            let response = HTTPResponse(status: HTTPStatus(code: status), headers: headers, url: request.url)
            return .failure(
                (300..<400).contains(status) ? .redirectNotFollowed(response) : .handshakeRefused(response)
            )
        }
    }

    // MARK: Records

    /// Every handshake received, in order.
    public var handshakes: [Handshake] { state.withLock { $0.handshakes } }

    /// Every handshake request received, in order, as adapted by the session.
    public var requests: [HTTPRequest] { handshakes.map(\.request) }

    /// Checks how many handshakes match, and says why when the count is wrong.
    ///
    /// ```swift
    /// #expect(connector.verify(.header("Authorization", "Bearer new"), called: 1) == nil)
    /// ```
    /// - Parameters:
    ///   - matcher: The condition; every handshake when left out.
    ///   - count: How many matching handshakes are expected; at least one by default.
    /// - Returns: `nil` when the count is right, else the description of the mismatch.
    public func verify(_ matcher: RequestMatcher = .any, called count: CallCount = .atLeast(1)) -> String? {
        matcher.verify(
            requests.map { MockTransport.RecordedRequest(request: $0, body: Data()) },
            called: count,
            receiver: "the WebSocket connector"
        )
    }

    // MARK: WebSocketConnecting

    /// Records the handshake and answers it from the newest matching stub.
    ///
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - configuration: The caller's configuration.
    ///   - transport: Unused: no connection is made.
    /// - Returns: The stubbed connection.
    /// - Throws: The stubbed error, or a transport error for an unstubbed handshake.
    public func connect(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        over transport: any HTTPTransport
    ) async throws(WebSocketError) -> any WebSocketConnection {
        let responder = state.withLock { state in
            state.handshakes.append(Handshake(request: request, configuration: configuration))
            return state.stubs.take(for: request)
        }
        guard let responder else {
            throw .transport(
                TransportError(
                    category: .other,
                    message: "MockWebSocketConnector: no stub for the handshake to \(request.url.absoluteString)",
                    url: request.url
                )
            )
        }
        return try await responder(request).get()
    }
}
