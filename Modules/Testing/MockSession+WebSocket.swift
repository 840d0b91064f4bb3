public import CourierHTTP
public import CourierSessionCore
public import CourierWebSocket

extension MockSession {
    /// Answers the handshake from ``webSocketConnector``'s stubs (the request is recorded there,
    /// not in ``calls``); a handshake no stub answers fails with a transport error naming it.
    ///
    /// ```swift
    /// let session = MockSession(baseURL: URL(string: "https://chat.example/"))
    /// session.webSocketConnector.stub(url: "https://chat.example/ws", socket: MockWebSocket(incoming: [.text("hi")]))
    /// let socket = try await session.webSocket("ws")
    /// ```
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - configuration: Recorded with the handshake.
    /// - Returns: The stubbed connection.
    /// - Throws: `SessionError`, as a session reports the stubbed `WebSocketError`.
    public func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> any WebSocketConnection {
        do {
            return try await webSocketConnector.connect(
                request,
                configuration: configuration,
                over: UnimplementedTransport()
            )
        } catch {
            throw .webSocket(error, url: request.url)
        }
    }
}
