/// The close handshake and ping rules of one connection (RFC 6455 §5.5 and §7), as a state machine
/// the engine drives and whose answers it sends.
///
/// `open` becomes `closing` when the app closes (the client sends a close), and `closed` when the
/// server's close arrives, when the server's close arrives first (the client echoes its code), when
/// the client fails the connection, or when the connection ends. Once `closed`,
/// the client waits for the server to end the TCP connection (RFC 6455 §7.1.1) for at most the close
/// timeout. A ping is answered with a pong carrying its payload while the connection is open; an
/// unsolicited pong needs no answer.
///
/// ```swift
/// var state = WebSocketConnectionState()
/// if let frame = state.close(WebSocketClose(code: .normalClosure)) { send(frame) }  // now closing
/// if let echo = state.receivedClose(serverClose) { send(echo) }                     // now closed
/// state.isDone  // true: wait for the server to end the connection, then stop
/// ```
public struct WebSocketConnectionState: Sendable {
    /// Where the close handshake stands.
    public enum Phase: Sendable, Hashable {
        /// Messages flow both ways.
        case open
        /// The client sent a close and waits for the server's.
        case closing
        /// Both closes were exchanged, or the connection ended.
        case closed
    }

    /// Where the close handshake stands.
    public private(set) var phase = Phase.open
    /// The close the client sent, once it has.
    public private(set) var sentClose: WebSocketClose?
    /// The close the server sent, once it has.
    public private(set) var receivedClose: WebSocketClose?
    /// The payload of the last ping the client sent that no pong has answered yet.
    public private(set) var outstandingPing: [UInt8]?

    /// Creates the state of a connection that has just opened.
    ///
    /// ```swift
    /// var state = WebSocketConnectionState()
    /// ```
    public init() {}

    /// Whether the client may still send messages: no close has been sent or received.
    public var canSendMessages: Bool { phase == .open }

    /// Whether the close handshake is over (or the connection ended): nothing more is sent.
    public var isDone: Bool { phase == .closed }

    /// The client closes the connection.
    ///
    /// ```swift
    /// if let frame = state.close(WebSocketClose(code: .goingAway, reason: "app closing")) { send(frame) }
    /// ```
    /// - Parameter close: The code and reason to send.
    /// - Returns: The close frame to send (and start the close timeout), or `nil` when a close was
    ///   already sent or received.
    public mutating func close(_ close: WebSocketClose) -> WebSocketFrame? {
        guard phase == .open else { return nil }
        phase = .closing
        sentClose = close
        return .close(close)
    }

    /// The client fails the connection (RFC 6455 §7.1.7): it sends a close with the error's code
    /// when there is one and the connection is still open, then ends the connection without
    /// waiting for the server's close, since nothing more the server sends may be processed.
    ///
    /// ```swift
    /// if let frame = state.fail(error) { send(frame) }
    /// connection.close()
    /// ```
    /// - Parameter error: Why the connection fails; its ``WebSocketError/closeCode`` is sent.
    /// - Returns: The close frame to send before ending the connection, or `nil` when none is due.
    public mutating func fail(_ error: WebSocketError) -> WebSocketFrame? {
        defer { phase = .closed }
        guard let code = error.closeCode else { return nil }
        return close(WebSocketClose(code: code))
    }

    /// The server's close arrived.
    ///
    /// ```swift
    /// if let echo = state.receivedClose(close) { send(echo) }
    /// ```
    /// - Parameter close: The server's close, as the assembler checked it.
    /// - Returns: The close to echo (the server's code, no reason; RFC 6455 §5.5.1) when the server
    ///   closed first, else `nil`.
    public mutating func receivedClose(_ close: WebSocketClose) -> WebSocketFrame? {
        guard receivedClose == nil else { return nil }
        receivedClose = close
        let wasOpen = phase == .open
        phase = .closed
        guard wasOpen else { return nil }
        let echo = WebSocketClose(code: close.code)
        sentClose = echo
        return .close(echo)
    }

    /// A ping arrived.
    ///
    /// ```swift
    /// if let pong = state.receivedPing(payload) { send(pong) }
    /// ```
    /// - Parameter payload: The ping's payload.
    /// - Returns: The pong to send, carrying the same payload (RFC 6455 §5.5.2), or `nil` once a
    ///   close was sent or received.
    public func receivedPing(_ payload: [UInt8]) -> WebSocketFrame? {
        phase == .open ? .pong(payload) : nil
    }

    /// The client pings (a keep-alive): records the payload so that the pong can be recognised.
    ///
    /// ```swift
    /// if let ping = state.ping([0x01]) { send(ping) }
    /// ```
    /// - Parameter payload: The ping's payload (at most 125 bytes).
    /// - Returns: The ping to send, or `nil` once a close was sent or received.
    public mutating func ping(_ payload: [UInt8]) -> WebSocketFrame? {
        guard phase == .open else { return nil }
        let frame = WebSocketFrame.ping(payload)
        outstandingPing = frame.payload
        return frame
    }

    /// A pong arrived. An unsolicited one (RFC 6455 §5.5.3 allows it as a heartbeat) changes nothing.
    ///
    /// ```swift
    /// if state.receivedPong(payload) { lastPongTime = .now }
    /// ```
    /// - Parameter payload: The pong's payload.
    /// - Returns: Whether it answers the outstanding ping.
    @discardableResult
    public mutating func receivedPong(_ payload: [UInt8]) -> Bool {
        guard let outstandingPing, outstandingPing == payload else { return false }
        self.outstandingPing = nil
        return true
    }

    /// The connection underneath ended (the server closed it, or it failed).
    ///
    /// ```swift
    /// state.connectionEnded()
    /// ```
    public mutating func connectionEnded() {
        phase = .closed
    }

    /// How the connection ended, for the app: the server's code and reason (1005 when its close had
    /// no code), or 1006 when it ended without a close from the server; `nil` while not closed.
    public var closeStatus: WebSocketClose? {
        guard phase == .closed else { return nil }
        guard let receivedClose else { return WebSocketClose(code: .abnormalClosure) }
        return WebSocketClose(code: receivedClose.code ?? .noStatusReceived, reason: receivedClose.reason)
    }
}
