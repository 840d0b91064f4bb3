public import CourierHTTP
internal import CourierLocking
internal import CourierTransport
public import CourierWebSocket
internal import FoundationEssentials

/// A double of an open WebSocket: scripted messages from the server, then a close or a failure,
/// and a record of what the app sent and how it asked to close. No socket, no frames.
///
/// Hand one to ``MockWebSocketConnector`` (or to `MockSession.webSocketConnector`) so that the
/// app's code gets it from `webSocket(...)`, or give it to the app's code directly. Messages can be
/// scripted up front or pushed while the app reads (``receive(_:)``), and the server's close
/// (``closeFromServer(code:reason:)``) or a failure (``fail(_:)``) ends the messages.
///
/// ```swift
/// let socket = MockWebSocket(incoming: [.text("welcome")])
/// let chat = ChatClient(socket: socket)
/// try await chat.say("hi")
/// socket.receive(.text("hi back"))
/// socket.closeFromServer(code: .normalClosure)
/// #expect(socket.sentMessages == [.text("hi")])
/// ```
public final class MockWebSocket: WebSocketConnection {
    /// How the scripted conversation ends once its messages have been read.
    public enum Ending: Sendable {
        /// The connection stays open: the reader waits for ``MockWebSocket/receive(_:)``.
        case staysOpen
        /// The server closes with this code and reason: the messages finish.
        case closedByServer(WebSocketClose)
        /// The connection fails with this error: the messages throw it.
        case failed(WebSocketError)
    }

    private enum Phase {
        case open
        /// Closed (by either side); the messages finish once the buffer is read.
        case closed
        /// Failed; the messages throw once the buffer is read.
        case failed(WebSocketError)
    }

    private struct State {
        var buffer: [WebSocketMessage] = []
        var phase = Phase.open
        var closeStatus: WebSocketClose?
        var reader: CheckedContinuation<Result<WebSocketMessage?, WebSocketError>, Never>?
        var sent: [WebSocketMessage] = []
        var closeRequests: [WebSocketClose] = []
        var pings = 0
    }

    private let state = Lock(State())

    /// The handshake's `101` response.
    public let handshakeResponse: HTTPResponse
    /// The subprotocol and compression the scripted server agreed to.
    public let agreement: WebSocketHandshake.Agreement
    /// The round-trip time ``ping()`` returns.
    public let pingRoundTrip: Duration

    /// Creates an open socket with scripted messages and an ending.
    ///
    /// ```swift
    /// let socket = MockWebSocket(
    ///     incoming: [.text("one"), .binary([1, 2])],
    ///     then: .closedByServer(WebSocketClose(code: .goingAway, reason: "restart"))
    /// )
    /// ```
    /// - Parameters:
    ///   - incoming: The messages the server sends first, in order.
    ///   - ending: What happens once they have been read: stay open (the default), a close by the
    ///     server, or a failure.
    ///   - agreement: The subprotocol and compression to report as agreed.
    ///   - handshakeResponse: The `101` response; one with `Upgrade: websocket` when `nil`.
    ///   - pingRoundTrip: What ``ping()`` returns.
    public init(
        incoming: [WebSocketMessage] = [],
        then ending: Ending = .staysOpen,
        agreement: WebSocketHandshake.Agreement = WebSocketHandshake.Agreement(),
        handshakeResponse: HTTPResponse? = nil,
        pingRoundTrip: Duration = .milliseconds(1)
    ) {
        self.agreement = agreement
        self.pingRoundTrip = pingRoundTrip
        self.handshakeResponse = handshakeResponse ?? Self.switchingProtocols(agreement)
        state.withLock { state in
            state.buffer = incoming
            switch ending {
            case .staysOpen: break
            case .closedByServer(let close):
                state.phase = .closed
                state.closeStatus = close
            case .failed(let error):
                state.phase = .failed(error)
                state.closeStatus = WebSocketClose(code: error.closeCode ?? .abnormalClosure)
            }
        }
    }

    // MARK: Scripting while the app runs

    /// The server sends a message: the reader gets it next (or after those already waiting).
    /// Ignored once the connection has ended.
    ///
    /// ```swift
    /// socket.receive(.text("{\"type\":\"ping\"}"))
    /// ```
    /// - Parameter message: The message.
    public func receive(_ message: WebSocketMessage) {
        let reader = state.withLock { state -> CheckedContinuation<Result<WebSocketMessage?, WebSocketError>, Never>? in
            guard case .open = state.phase else { return nil }
            guard let reader = state.reader else {
                state.buffer.append(message)
                return nil
            }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: .success(message))
    }

    /// The server closes the connection: the messages finish after those already waiting, and
    /// ``closeStatus`` is the server's code and reason.
    ///
    /// ```swift
    /// socket.closeFromServer(code: .goingAway, reason: "maintenance")
    /// ```
    /// - Parameters:
    ///   - code: The server's close code; `nil` for a close frame without one (reported as 1005).
    ///   - reason: The server's reason.
    public func closeFromServer(code: WebSocketCloseCode?, reason: String = "") {
        end(.closed, status: WebSocketClose(code: code ?? .noStatusReceived, reason: reason))
    }

    /// The connection fails: the messages throw `error` after those already waiting.
    ///
    /// ```swift
    /// socket.fail(.protocolViolation(.protocolError, reason: "a masked frame"))
    /// ```
    /// - Parameter error: The failure.
    public func fail(_ error: WebSocketError) {
        end(.failed(error), status: WebSocketClose(code: error.closeCode ?? .abnormalClosure))
    }

    // MARK: What the app did

    /// Every message the app sent, in order.
    public var sentMessages: [WebSocketMessage] { state.withLock { $0.sent } }

    /// The text of every text message the app sent, in order.
    public var sentTexts: [String] {
        sentMessages.compactMap { message in
            if case .text(let text) = message { return text }
            return nil
        }
    }

    /// The close the app asked for first (``close(code:reason:)``), or `nil` when it has not
    /// closed (a close by the server is ``closeStatus``).
    public var closeRequest: WebSocketClose? { state.withLock { $0.closeRequests.first } }

    /// How many pings the app sent.
    public var pingCount: Int { state.withLock { $0.pings } }

    // MARK: WebSocketConnection

    /// How the connection ended, once it has: the server's close, the app's (echoed by the
    /// scripted server), or 1006 and the failure's code after a failure.
    public var closeStatus: WebSocketClose? { state.withLock { $0.closeStatus } }

    /// The scripted and pushed messages, then the end. Read from one task at a time.
    public var messages: WebSocketMessages {
        WebSocketMessages { [self] () async throws(WebSocketError) -> WebSocketMessage? in
            try await next().get()
        }
    }

    /// Records the message; throws once the connection has ended, as a real one does.
    ///
    /// - Parameter message: The message.
    public func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        let refusal = state.withLock { state -> WebSocketError? in
            switch state.phase {
            case .open:
                state.sent.append(message)
                return nil
            case .failed(let error):
                return error
            case .closed:
                let close = state.closeStatus ?? WebSocketClose(code: .noStatusReceived)
                return .closedByServer(close.code ?? .noStatusReceived, reason: close.reason)
            }
        }
        if let refusal { throw refusal }
    }

    /// Counts the ping and returns ``pingRoundTrip``; throws once the connection has ended.
    ///
    /// - Returns: ``pingRoundTrip``.
    public func ping() async throws(WebSocketError) -> Duration {
        let refusal = state.withLock { state -> WebSocketError? in
            switch state.phase {
            case .open:
                state.pings += 1
                return nil
            case .failed(let error): return error
            case .closed: return .closedByServer(state.closeStatus?.code ?? .noStatusReceived, reason: "")
            }
        }
        if let refusal { throw refusal }
        return pingRoundTrip
    }

    /// Records the app's close; the scripted server echoes its code, so the messages finish.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: The reason.
    public func close(code: WebSocketCloseCode, reason: String) async {
        state.withLock { $0.closeRequests.append(WebSocketClose(code: code, reason: reason)) }
        end(.closed, status: WebSocketClose(code: code, reason: reason))
    }

    // MARK: Internals

    private func end(_ phase: Phase, status: WebSocketClose) {
        let reader = state.withLock { state -> CheckedContinuation<Result<WebSocketMessage?, WebSocketError>, Never>? in
            guard case .open = state.phase else { return nil }
            state.phase = phase
            state.closeStatus = status
            defer { state.reader = nil }
            return state.reader
        }
        guard let reader else { return }
        switch phase {
        case .failed(let error): reader.resume(returning: .failure(error))
        default: reader.resume(returning: .success(nil))
        }
    }

    private func next() async -> Result<WebSocketMessage?, WebSocketError> {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Result<WebSocketMessage?, WebSocketError>? in
                if !state.buffer.isEmpty { return .success(state.buffer.removeFirst()) }
                switch state.phase {
                case .closed: return .success(nil)
                case .failed(let error): return .failure(error)
                case .open:
                    state.reader = continuation
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private static func switchingProtocols(_ agreement: WebSocketHandshake.Agreement) -> HTTPResponse {
        var headers = HTTPHeaders()
        try? headers.set(name: "Upgrade", value: "websocket")
        try? headers.set(name: "Connection", value: "Upgrade")
        if let subprotocol = agreement.subprotocol {
            try? headers.set(name: "Sec-WebSocket-Protocol", value: subprotocol)
        }
        return HTTPResponse(status: HTTPStatus(code: 101), headers: headers)
    }
}
