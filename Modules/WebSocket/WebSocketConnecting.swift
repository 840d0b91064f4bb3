public import CourierHTTP
public import CourierTransport

/// Opens WebSocket connections over a transport's raw connection: the seam between the session
/// and a WebSocket engine.
///
/// `CourierWebSocketEngine` implements it on any `HTTPTransport` that opens raw
/// connections (libcurl's does: its trust policy, pins, proxies and client identity apply before
/// the handshake's first byte); `CourierTesting` has a scripted double. The session runs its
/// adapters on the request first and hands the result here.
///
/// ```swift
/// let connector: any WebSocketConnecting = WebSocketConnector()
/// var request = HTTPRequest(url: URL(string: "wss://chat.example/ws")!)
/// request.headers["Authorization"] = "Bearer abc"
/// let socket = try await connector.connect(request, configuration: WebSocketConfiguration(), over: transport)
/// ```
public protocol WebSocketConnecting: Sendable {
    /// Opens a raw connection to the request's origin, sends the opening handshake (the request's
    /// headers included, and the transport's cookies for the URL), checks the response and
    /// returns the open connection.
    ///
    /// - Parameters:
    ///   - request: The handshake request: a `ws://`, `wss://`, `http://` or `https://` URL and
    ///     the header fields to send (the handshake's own fields are set by the connector).
    ///   - configuration: Subprotocols, compression, limits, timeouts.
    ///   - transport: The transport whose raw connection carries the WebSocket.
    /// - Returns: The open connection.
    /// - Throws: ``WebSocketError``: the transport's failure, a refused or invalid handshake with
    ///   the response, a redirect (not followed).
    func connect(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        over transport: any HTTPTransport
    ) async throws(WebSocketError) -> any WebSocketConnection
}
