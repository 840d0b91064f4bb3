public import CourierHTTP
public import CourierSessionCore
public import CourierWebSocket

extension HTTPSessionManager {
    /// Opens a WebSocket through ``session`` (`SessionManager.webSocket(_:configuration:)`): the
    /// session's connector, adapters and retriers. The request is sent as given; the calls with a
    /// URL string resolve it against ``baseURL`` first.
    ///
    /// ```swift
    /// let socket = try await api.webSocket("chat", protocols: ["chat.v1"])  // https://api.example.com/v1/chat, over TLS
    /// ```
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: `SessionError`, as `SessionManager.webSocket(_:configuration:)` says.
    public func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> any WebSocketConnection {
        try await session.webSocket(request, configuration: configuration)
    }
}
