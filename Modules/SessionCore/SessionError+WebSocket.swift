internal import CourierHTTP
public import CourierWebSocket
public import FoundationEssentials

extension SessionError {
    /// The WebSocket's own error, for kind ``Kind/webSocket``: a refused or redirected handshake
    /// (with the response), an invalid one, a protocol violation, a close by the server.
    ///
    /// ```swift
    /// do {
    ///     let socket = try await session.webSocket("wss://chat.example/ws")
    /// } catch let error {
    ///     if case .redirectNotFollowed(let response)? = error.webSocketError {
    ///         print("moved to", response.headers["Location"] ?? "-")
    ///     }
    /// }
    /// ```
    public var webSocketError: WebSocketError? { underlying as? WebSocketError }

    /// A WebSocket failure, as a session reports it: a failure of the connection underneath
    /// becomes a transport error (as ``transport(_:url:response:data:)`` makes it, so a cancel is
    /// -999 and a rejected certificate -1202), anything else is kind ``Kind/webSocket`` with the
    /// error underneath and the handshake's response when there was one.
    ///
    /// ```swift
    /// let url = URL(string: "wss://chat.example/ws")!
    /// let refused = HTTPResponse(status: HTTPStatus(code: 403), url: url)
    /// let error = SessionError.webSocket(.handshakeRefused(refused), url: url)
    /// assert(error.kind == .webSocket && error.response?.status.code == 403)
    /// ```
    /// - Parameters:
    ///   - error: The WebSocket's error.
    ///   - url: The URL of the handshake request.
    /// - Returns: The error a session throws.
    public static func webSocket(_ error: WebSocketError, url: URL) -> SessionError {
        if case .transport(let transportError) = error {
            return .transport(transportError, url: url)
        }
        return SessionError(
            kind: .webSocket,
            message: error.description,
            failingURL: url,
            response: error.handshakeResponse,
            underlying: error
        )
    }

    /// The error of a session that cannot open WebSockets: kind ``Kind/webSocketUnavailable``.
    ///
    /// ```swift
    /// let error = SessionError.webSocketUnavailable(url: URL(string: "wss://chat.example/ws")!)
    /// assert(error.urlErrorCode == -1002)
    /// ```
    /// - Parameters:
    ///   - url: The URL of the handshake request.
    ///   - reason: Why, in words.
    /// - Returns: An error of kind ``Kind/webSocketUnavailable``.
    public static func webSocketUnavailable(
        url: URL?,
        reason: String = "this session has no WebSocket support"
    ) -> SessionError {
        SessionError(kind: .webSocketUnavailable, message: reason, failingURL: url)
    }
}

extension WebSocketError {
    /// The server's answer to the handshake, for the errors that carry one.
    var handshakeResponse: HTTPResponse? {
        switch self {
        case .handshakeRefused(let response), .redirectNotFollowed(let response),
            .invalidHandshakeResponse(_, let response):
            response
        default: nil
        }
    }
}
