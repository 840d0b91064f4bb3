public import CourierHTTP

/// An open WebSocket connection (RFC 6455): the messages the server sends, the messages the app
/// sends, pings, and the closing handshake.
///
/// A connector (``WebSocketConnecting``) opens one after a valid opening handshake. Reading has
/// backpressure: while ``messages`` has ``WebSocketConfiguration/readHighWaterMark`` messages
/// waiting, the connection stops reading its socket, so a slow reader slows the server down
/// instead of growing memory. Sends suspend while the socket is full.
///
/// ```swift
/// let socket = try await session.webSocket(HTTPRequest(url: URL(string: "wss://chat.example/ws")!))
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     if case .text(let text) = message { print(text) }
/// }
/// print(socket.closeStatus?.code ?? .abnormalClosure)
/// ```
public protocol WebSocketConnection: Sendable {
    /// The server's `101 Switching Protocols` response.
    var handshakeResponse: HTTPResponse { get }

    /// The subprotocol and the permessage-deflate parameters the server agreed to.
    var agreement: WebSocketHandshake.Agreement { get }

    /// The messages from the server, in order. The sequence finishes after the closing handshake
    /// (whoever started it, whatever the code: read ``closeStatus``), and throws a
    /// ``WebSocketError`` when the connection fails. Iterate it from one task at a time.
    var messages: WebSocketMessages { get }

    /// Sends one message: fragmented as the connection's settings say, compressed when
    /// permessage-deflate was agreed, masked with a fresh key per frame.
    ///
    /// Suspends while the socket cannot take more bytes; throws when the connection is closing,
    /// closed or failed.
    /// - Parameter message: The message.
    func send(_ message: WebSocketMessage) async throws(WebSocketError)

    /// Sends a ping and returns when its pong arrives.
    ///
    /// - Returns: The round-trip time.
    func ping() async throws(WebSocketError) -> Duration

    /// Starts the closing handshake (when it has not started yet) and returns when it has
    /// finished, or when the configuration's close timeout has passed (then the connection is
    /// dropped). Closing a closed connection does nothing.
    ///
    /// - Parameters:
    ///   - code: The close code to send; one that is valid on the wire.
    ///   - reason: The reason, cut to fit the 125 bytes of a control frame.
    func close(code: WebSocketCloseCode, reason: String) async

    /// How the connection ended, once it has: the server's close code and reason, 1005 when its
    /// close frame had no code, 1006 when the connection ended without one; `nil` while open.
    var closeStatus: WebSocketClose? { get }
}

extension WebSocketConnection {
    /// Closes the connection normally (1000, no reason).
    ///
    /// ```swift
    /// await socket.close()
    /// ```
    public func close() async {
        await close(code: .normalClosure, reason: "")
    }
}
