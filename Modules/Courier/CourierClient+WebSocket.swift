public import CourierHTTP
public import CourierSessionCore
public import CourierWebSocket
public import FoundationEssentials

extension CourierClient {
    /// Opens a WebSocket (RFC 6455) over the client's transport, so it gets the same trust policy,
    /// pins, proxy, cookies, interceptors and event monitors as the client's HTTP calls; a URL
    /// string is resolved against the base URL (`ws`, `wss`, `http` and `https` are accepted).
    ///
    /// The interceptors adapt the handshake, a `401` goes to the retriers (an
    /// `AuthenticationInterceptor` refreshes and the handshake is sent again), a redirect is not
    /// followed (the error carries the response), and ``shutdown()`` closes the open WebSockets
    /// with 1001.
    ///
    /// ```swift
    /// let client = try CourierClient(baseURL: URL(string: "https://chat.example/v1"))
    /// let socket = try await client.webSocket("rooms/42", protocols: ["chat.v1"])
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages {
    ///     if case .text(let text) = message { print(text) }
    /// }
    /// print(socket.closeStatus?.code ?? .abnormalClosure)
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to the base URL when there is one.
    ///   - protocols: The subprotocols to offer, most preferred first; empty keeps the
    ///     configuration's.
    ///   - headers: Fields to send with the handshake (`Authorization`, `Origin`).
    ///   - configuration: Compression, limits, keep-alive pings and the close timeout.
    /// - Returns: The open connection.
    /// - Throws: `SessionError`: kind `webSocket` with `webSocketError` (and the response of a
    ///   refused or redirected handshake), a transport kind when the connection failed, and the
    ///   interceptors' kinds.
    public func webSocket(
        _ urlString: String,
        protocols: [String] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(SessionError) -> any WebSocketConnection {
        try await session.webSocket(urlString, protocols: protocols, headers: headers, configuration: configuration)
    }

    /// Opens a WebSocket to an absolute URL, as ``webSocket(_:protocols:headers:configuration:)-(String,_,_,_)`` does.
    ///
    /// ```swift
    /// let socket = try await client.webSocket(URL(string: "wss://chat.example/ws")!)
    /// await socket.close()
    /// ```
    /// - Parameters:
    ///   - url: A `ws`, `wss`, `http` or `https` URL.
    ///   - protocols: The subprotocols to offer, most preferred first; empty keeps the
    ///     configuration's.
    ///   - headers: Fields to send with the handshake.
    ///   - configuration: Compression, limits, keep-alive pings and the close timeout.
    /// - Returns: The open connection.
    /// - Throws: `SessionError`, as the URL-string variant says.
    public func webSocket(
        _ url: URL,
        protocols: [String] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(SessionError) -> any WebSocketConnection {
        try await session.webSocket(url, protocols: protocols, headers: headers, configuration: configuration)
    }

    /// Opens a WebSocket with a handshake request of the app's own, sent as given (after the
    /// interceptors).
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "wss://chat.example/ws")!)
    /// try request.headers.set(name: "Origin", value: "https://chat.example")
    /// let socket = try await client.webSocket(request)
    /// ```
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: `SessionError`, as the URL-string variant says.
    public func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(SessionError) -> any WebSocketConnection {
        try await session.webSocket(request, configuration: configuration)
    }
}
