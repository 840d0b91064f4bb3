public import CourierHTTP
public import CourierTransport
public import CourierWebSocket
internal import FoundationEssentials

/// Opens WebSocket connections (RFC 6455, with permessage-deflate from RFC 7692) over any
/// transport that opens raw connections: libcurl's `CurlTransport` gives them its trust policy,
/// pins, revocation checks, proxies and client identity before the handshake's first byte.
///
/// The connector writes the opening handshake itself over the transport's `RawConnection` (it
/// never names libcurl, so a transport with native WebSocket support could carry it as well):
/// the request's headers, the transport's cookies for the URL, a key from
/// `SystemRandomNumberGenerator`; it reads the response head, stores its `Set-Cookie` fields,
/// checks `Sec-WebSocket-Accept` with OpenSSL's SHA-1 and returns the open connection. A redirect
/// is not followed and a refusal is not retried: both come back as a ``CourierWebSocket/WebSocketError``
/// carrying the response, for the session's retriers to judge.
///
/// ```swift
/// let transport = try CurlTransport()
/// let socket = try await WebSocketConnector().connect(
///     HTTPRequest(url: URL(string: "wss://chat.example/ws")!),
///     configuration: WebSocketConfiguration(),
///     over: transport
/// )
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages { print(message) }
/// ```
///
/// The request's `timeout` bounds the handshake (connecting, sending the request, reading the
/// response head); its `connectTimeout` goes to the transport. Once open, the connection has no
/// overall deadline: keep-alive pings (``CourierWebSocket/WebSocketConfiguration/pingInterval``)
/// find a dead peer instead.
public struct WebSocketConnector: WebSocketConnecting {
    /// Creates a connector. It keeps no state: one serves any number of connections.
    ///
    /// ```swift
    /// let connector: any WebSocketConnecting = WebSocketConnector()
    /// ```
    public init() {}

    /// Opens a connection: the opening handshake over a new raw connection of `transport`.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: URL(string: "ws://127.0.0.1:8080/echo")!)
    /// request.timeout = .seconds(10)
    /// let socket = try await WebSocketConnector().connect(request, configuration: WebSocketConfiguration(), over: transport)
    /// ```
    /// - Parameters:
    ///   - request: The URL (`ws`, `wss`, `http` or `https`), the header fields to send (the
    ///     handshake's own fields win over them), `timeout` for the whole handshake,
    ///     `handlesCookies` to send and store the transport's cookies (the transport's default
    ///     when `nil`).
    ///   - configuration: Subprotocols, compression, limits, keep-alive and close timeouts.
    ///   - transport: The transport that opens the raw connection.
    /// - Returns: The open connection.
    /// - Throws: ``CourierWebSocket/WebSocketError``: `.transport` when connecting fails (trust, proxy,
    ///   refused connection; `timedOut` when the handshake outlives the request's timeout; a
    ///   response head that is not HTTP/1.1, with category `protocolViolation`),
    ///   `.handshakeRefused` or `.redirectNotFollowed` with the response, `.invalidHandshakeResponse`
    ///   naming the check that failed, `.invalidRequest` for a URL that is not a WebSocket URL.
    public func connect(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration,
        over transport: any HTTPTransport
    ) async throws(WebSocketError) -> any WebSocketConnection {
        var generator = SystemRandomNumberGenerator()
        let keyBytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        var offered = configuration
        var headers = HTTPHeaders()
        for field in request.headers { headers.add(field) }
        for field in configuration.additionalHeaders { headers.add(field) }
        offered.additionalHeaders = headers
        let handshake = try WebSocketHandshake(url: request.url, configuration: offered, keyBytes: keyBytes)
        var upgrade = handshake.request
        upgrade.connectTimeout = request.connectTimeout
        upgrade.handlesCookies = request.handlesCookies
        upgrade.credential = request.credential
        let handlesCookies = request.handlesCookies ?? transport.requestDefaults.handlesCookies
        let cookieStore = handlesCookies ? transport.cookieStore : nil
        if let cookieStore, !upgrade.headers.contains(name: "Cookie"),
            let cookies = try? await cookieStore.cookies(for: upgrade.url),
            let value = Cookie.headerValue(for: cookies)
        {
            try? upgrade.headers.add(name: "Cookie", value: value)
        }
        let opening = HandshakeExchange(
            handshake: handshake,
            request: upgrade,
            transport: transport,
            cookieStore: cookieStore
        )
        let opened = try await opening.run(timeout: request.timeout)
        return WebSocketEngineConnection(
            raw: opened.raw,
            handshakeResponse: opened.response,
            agreement: opened.agreement,
            configuration: configuration,
            deflater: opened.deflater,
            received: opened.remainder
        )
    }
}
