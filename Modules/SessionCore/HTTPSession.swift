public import CourierHTTP
public import CourierSerialization
public import CourierWebSocket
public import FoundationEssentials

/// The session layer as an app's API client sees it: sends requests and hands back what each one
/// ended with.
///
/// `SessionManager` and `HTTPSessionManager` (module `CourierSessionEngine`) conform, running
/// adapters, redirects, validation and retries over any transport; `MockSession` (module
/// `CourierTesting`) conforms with stubbed answers and no transport at all. An API client that
/// holds `any HTTPSession` can be tested either way.
///
/// The requirements take a request and one ``RequestOptions`` value, so that a new per-request
/// setting is a new field of the options, not a new requirement. The calls an app writes
/// (``decodable(_:_:parameters:headers:as:)``, ``data(_:_:parameters:headers:)``,
/// ``data(for:)``) are extensions over them: URL strings are resolved against ``baseURL`` and
/// parameters placed by ``requestSerializer`` the same way for every conformer.
///
/// ```swift
/// final class ProfileClient: Sendable {
///     let session: any HTTPSession
///     init(session: any HTTPSession) { self.session = session }
///
///     func profile() async throws(SessionError) -> Profile? {
///         try await session.decodable(.get, "me", as: Profile.self).value
///     }
/// }
/// ```
public protocol HTTPSession: Sendable {
    /// The base URL that the calls with URL strings resolve against (RFC 3986 §5.2), normalised
    /// as ``URLResolution/normalisedBase(_:)`` says; `nil` for none.
    var baseURL: URL? { get }

    /// Builds the request of a call with a method, a URL string and parameters: where the
    /// parameters go, the default headers.
    var requestSerializer: any EncodableRequestSerializing { get }

    /// Sends `request` and returns what it ended with, the error included; cancelling the calling
    /// task cancels the request.
    ///
    /// ```swift
    /// let response = await session.response(
    ///     for: request,
    ///     serializer: DecodableResponseSerializer<User>(),
    ///     options: RequestOptions()
    /// )
    /// if let user = response.value { greet(user) } else { report(response.error) }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - serializer: Validates and decodes the final response.
    ///   - options: How this request is sent and received.
    /// - Returns: The request sent, the response, value, error and metrics.
    func response<Serializer: ResponseSerializing>(
        for request: HTTPRequest,
        serializer: Serializer,
        options: RequestOptions
    ) async -> DataResponse<Serializer.Output>

    /// Downloads `request`'s response body to a file and returns where it went, or the error and,
    /// when the download can go on later, its resume data.
    ///
    /// ```swift
    /// let response = await session.download(
    ///     for: request,
    ///     to: { _, _ in DownloadDestination(path: "/var/tmp/report.pdf", replacesExistingFile: true) },
    ///     options: RequestOptions()
    /// )
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: Picks the final path from the temporary file and the response; `nil`
    ///     deletes the temporary file once the download completes.
    ///   - options: How this request is sent; ``RequestOptions/download`` places the partial file.
    /// - Returns: The final file, or the error and resume data.
    func download(
        for request: HTTPRequest,
        to destination: DownloadDestination.Choose?,
        options: RequestOptions
    ) async -> DownloadResponse

    /// Opens a WebSocket (RFC 6455) with `request` as the opening handshake, after the session's
    /// adapters ran on it; a refused handshake goes to the session's retriers (a `401` to an
    /// `AuthenticationInterceptor`, say), a redirect is not followed.
    ///
    /// A session without WebSocket support throws ``SessionError/Kind/webSocketUnavailable``: the
    /// default implementation does, so a conformer that does not open WebSockets need not
    /// implement it.
    ///
    /// ```swift
    /// var configuration = WebSocketConfiguration()
    /// configuration.subprotocols = ["chat.v1"]
    /// let socket = try await session.webSocket(
    ///     HTTPRequest(url: URL(string: "wss://chat.example/ws")!),
    ///     configuration: configuration
    /// )
    /// try await socket.send(.text("hello"))
    /// ```
    /// - Parameters:
    ///   - request: The handshake request: a `ws`, `wss`, `http` or `https` URL and the fields to
    ///     send (`Authorization`, `Origin`); the connector adds the handshake's own fields.
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: ``SessionError``: kind ``SessionError/Kind/webSocket`` with the
    ///   ``SessionError/webSocketError`` and the response of a refused or redirected handshake,
    ///   a transport kind when the connection failed, ``SessionError/Kind/adaptationFailed`` or
    ///   ``SessionError/Kind/retryFailed`` from the interceptors, ``SessionError/Kind/sessionInvalidated``.
    func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> any WebSocketConnection
}
