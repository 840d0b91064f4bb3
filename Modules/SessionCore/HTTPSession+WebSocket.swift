public import CourierHTTP
internal import CourierSerialization
public import CourierWebSocket
public import FoundationEssentials

// WebSockets for every HTTPSession: the same URL resolution and handshake request whether the
// session is the engine or a double.
extension HTTPSession {
    /// Throws ``SessionError/Kind/webSocketUnavailable``: a session opens WebSockets only when it
    /// implements this requirement (`SessionManager` does, given a connector).
    ///
    /// ```swift
    /// do {
    ///     _ = try await session.webSocket(request, configuration: WebSocketConfiguration())
    /// } catch let error where error.kind == .webSocketUnavailable {
    ///     print("this session has no WebSocket support")
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The handshake request.
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: Never returns.
    /// - Throws: ``SessionError/Kind/webSocketUnavailable``, always.
    public func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> any WebSocketConnection {
        throw .webSocketUnavailable(url: request.url)
    }

    /// Opens a WebSocket with `request` as the handshake and the default configuration.
    ///
    /// ```swift
    /// let socket = try await session.webSocket(HTTPRequest(url: URL(string: "wss://chat.example/ws")!))
    /// ```
    /// - Parameter request: The handshake request.
    /// - Returns: The open connection.
    /// - Throws: ``SessionError``, as ``webSocket(_:configuration:)`` says.
    public func webSocket(_ request: HTTPRequest) async throws(SessionError) -> any WebSocketConnection {
        try await webSocket(request, configuration: WebSocketConfiguration())
    }

    /// Opens a WebSocket to a URL string resolved against ``baseURL`` (RFC 3986 §5.2): `ws`,
    /// `wss`, `http` and `https` URLs are accepted, so `"chat"` against
    /// `https://api.example.com/v1/` opens `wss://api.example.com/v1/chat` over TLS.
    ///
    /// ```swift
    /// let socket = try await session.webSocket("wss://chat.example/ws", protocols: ["chat.v1"])
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages { print(message) }
    /// ```
    /// - Parameters:
    ///   - urlString: The URL, relative to ``baseURL`` when there is one.
    ///   - protocols: The subprotocols to offer, most preferred first; empty keeps the
    ///     configuration's.
    ///   - headers: Fields to send with the handshake (`Authorization`, `Origin`).
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: ``SessionError``: kind ``SessionError/Kind/webSocket`` with
    ///   `WebSocketError.invalidRequest(_:)` for a string that is not such a URL, and as
    ///   ``webSocket(_:configuration:)`` says.
    public func webSocket(
        _ urlString: String,
        protocols: [String] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(SessionError) -> any WebSocketConnection {
        guard let url = url(for: urlString) else {
            throw SessionError(
                kind: .webSocket,
                message: "\(urlString.debugDescription) is not a URL",
                failingURL: nil,
                underlying: WebSocketError.invalidRequest("\(urlString.debugDescription) is not a URL")
            )
        }
        return try await webSocket(url, protocols: protocols, headers: headers, configuration: configuration)
    }

    /// Opens a WebSocket to an absolute `ws`, `wss`, `http` or `https` URL.
    ///
    /// ```swift
    /// let socket = try await session.webSocket(
    ///     URL(string: "wss://chat.example/ws")!,
    ///     headers: try HTTPHeaders(["Authorization": "Bearer abc"])
    /// )
    /// ```
    /// - Parameters:
    ///   - url: The URL.
    ///   - protocols: The subprotocols to offer, most preferred first; empty keeps the
    ///     configuration's.
    ///   - headers: Fields to send with the handshake (`Authorization`, `Origin`).
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: ``SessionError``, as ``webSocket(_:configuration:)`` says.
    public func webSocket(
        _ url: URL,
        protocols: [String] = [],
        headers: HTTPHeaders = HTTPHeaders(),
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws(SessionError) -> any WebSocketConnection {
        let request = try webSocketRequest(url, headers: headers)
        var configuration = configuration
        if !protocols.isEmpty { configuration.subprotocols = protocols }
        return try await webSocket(request, configuration: configuration)
    }

    /// The handshake request a WebSocket call sends before the adapters run: the request
    /// serializer's timeout and cookie setting, and `headers`.
    ///
    /// ```swift
    /// let request = try session.webSocketRequest(URL(string: "wss://chat.example/ws")!)
    /// print(request.url)
    /// ```
    /// - Parameters:
    ///   - url: A `ws`, `wss`, `http` or `https` URL with a host.
    ///   - headers: Fields to send with the handshake.
    /// - Returns: The request.
    /// - Throws: ``SessionError`` of kind ``SessionError/Kind/webSocket`` with
    ///   `WebSocketError.invalidRequest(_:)` for another URL.
    public func webSocketRequest(_ url: URL, headers: HTTPHeaders = HTTPHeaders()) throws(SessionError) -> HTTPRequest {
        guard let scheme = url.scheme?.lowercased(), ["ws", "wss", "http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw .webSocket(
                .invalidRequest("\(url.absoluteString) is not a ws, wss, http or https URL with a host"),
                url: url
            )
        }
        return requestSerializer.makeRequest(method: .get, url: url).replacingHeaders(with: headers)
    }
}
