public import CourierHTTP
public import CourierSessionCore
internal import CourierTransport
public import CourierWebSocket
internal import FoundationEssentials

extension SessionManager {
    /// Opens a WebSocket through the session's ``SessionConfiguration/webSocketConnector`` over
    /// its transport, with the session's adapters run on the handshake request.
    ///
    /// Each handshake is an attempt as a data task's are: the interceptor adapts it (a token, a
    /// signature), a refused handshake (a `401`, a `503`) or a failed connection goes to the
    /// retriers, and a retry is adapted again, so an `AuthenticationInterceptor` refreshes its
    /// credential and the next handshake carries the new one. A redirect is not followed: the
    /// error carries the response, its `Location` intact. The session's deadline covers every
    /// attempt. Monitors see `requestStarted` per attempt, `retryScheduled`, then
    /// `SessionEvent.Kind.webSocketOpened` and, when the connection ends (its messages finish
    /// or fail, or the app closes it) or the handshake fails, `SessionEvent.Kind.webSocketClosed`.
    /// An invalidation that cancels tasks (``shutdown()`` too) closes the open WebSockets with
    /// 1001 (going away).
    ///
    /// ```swift
    /// var configuration = SessionConfiguration()
    /// configuration.webSocketConnector = WebSocketConnector()
    /// let session = SessionManager(transport: CurlTransport(), configuration: configuration, interceptor: auth)
    /// let socket = try await session.webSocket(
    ///     HTTPRequest(url: URL(string: "wss://chat.example/ws")!),
    ///     configuration: WebSocketConfiguration()
    /// )
    /// ```
    /// - Parameters:
    ///   - request: The handshake request: a `ws`, `wss`, `http` or `https` URL and the fields to send.
    ///   - configuration: Subprotocols, compression, limits and timeouts.
    /// - Returns: The open connection.
    /// - Throws: `SessionError`: `webSocketUnavailable` without a connector, `sessionInvalidated`,
    ///   `webSocket` with the handshake's response for a refused, redirected or invalid handshake,
    ///   a transport kind when the connection failed, `adaptationFailed`, `retryFailed`,
    ///   `deadlineExceeded`, `cancelled`.
    public func webSocket(
        _ request: HTTPRequest,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> any WebSocketConnection {
        guard let connector = self.configuration.webSocketConnector else {
            throw .webSocketUnavailable(
                url: request.url,
                reason: "the session has no WebSocket connector (SessionConfiguration.webSocketConnector)"
            )
        }
        guard let identifier = reserveIdentifier() else { throw Self.invalidated(request.url) }
        do throws(SessionError) {
            let (sent, connection) = try await handshake(
                request,
                identifier: identifier,
                connector: connector,
                configuration: configuration
            )
            return try open(connection, identifier: identifier, request: sent)
        } catch {
            report(
                SessionEvent(
                    .webSocketClosed,
                    task: identifier,
                    request: request,
                    response: error.response,
                    error: error
                )
            )
            throw error
        }
    }

    /// The handshake's attempts: adapt, connect, and on a failure ask the retriers.
    private func handshake(
        _ request: HTTPRequest,
        identifier: Int,
        connector: any WebSocketConnecting,
        configuration: WebSocketConfiguration
    ) async throws(SessionError) -> (HTTPRequest, any WebSocketConnection) {
        let interception = AttemptInterception(interceptor: interceptor, configuration: self.configuration)
        let deadline = interception.deadlineFromNow()
        var retryCount = 0
        while true {
            if Task.isCancelled { throw .cancelled(request.url) }
            let context = AttemptContext(taskIdentifier: identifier, retryCount: retryCount, redirectCount: 0)
            let adapted: HTTPRequest
            switch await interception.adapt(request, context: context, deadline: deadline) {
            case .success(let request): adapted = request
            case .failure(let error): throw error
            }
            report(SessionEvent(.requestStarted, task: identifier, request: adapted))
            let failure: AttemptFailure
            do throws(WebSocketError) {
                return (adapted, try await connector.connect(adapted, configuration: configuration, over: transport))
            } catch {
                guard let asked = Self.retriable(error, url: adapted.url) else {
                    throw .webSocket(error, url: adapted.url)
                }
                failure = asked
            }
            switch await interception.retry(adapted, dueTo: failure, context: context) {
            case .finish: throw failure.error
            case .fail(let error): throw error
            case .retry(let delay):
                if let error = await interception.wait(delay, for: adapted.url, deadline: deadline) { throw error }
            }
            retryCount += 1
            report(SessionEvent(.retryScheduled, task: identifier, request: adapted, error: failure.error))
        }
    }

    /// Registers an open connection and reports it; a session invalidated meanwhile closes it.
    private func open(
        _ connection: any WebSocketConnection,
        identifier: Int,
        request: HTTPRequest
    ) throws(SessionError) -> any WebSocketConnection {
        let socket = SessionWebSocket(identifier: identifier, connection: connection, url: request.url) {
            [self] socket, close, error in
            webSockets.remove(socket.identifier)
            report(
                SessionEvent(
                    .webSocketClosed,
                    task: socket.identifier,
                    request: request,
                    error: error,
                    webSocketClose: close
                )
            )
        }
        guard webSockets.register(socket) else {
            Task { await connection.close(code: .goingAway, reason: "the session is shutting down") }
            throw Self.invalidated(request.url)
        }
        report(
            SessionEvent(.webSocketOpened, task: identifier, request: request, response: connection.handshakeResponse)
        )
        return socket
    }

    /// The failure the retriers are asked about: a refused handshake (a complete response, as a
    /// refused status is for a data task) or a failed connection; `nil` for the failures a retry
    /// cannot mend (an invalid request or handshake, a redirect that is not followed).
    private static func retriable(_ error: WebSocketError, url: URL) -> AttemptFailure? {
        switch error {
        case .handshakeRefused: .validation(.webSocket(error, url: url))
        case .transport(let transportError) where transportError.category != .cancelled:
            .transport(.webSocket(error, url: url))
        default: nil
        }
    }

    private static func invalidated(_ url: URL) -> SessionError {
        SessionError(kind: .sessionInvalidated, message: "the session was invalidated", failingURL: url)
    }
}
