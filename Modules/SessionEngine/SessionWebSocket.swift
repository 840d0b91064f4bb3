internal import CourierHTTP
internal import CourierLocking
internal import CourierSessionCore
internal import CourierWebSocket
internal import FoundationEssentials

/// A session's WebSocket: the connector's connection, which tells the session once when it ended
/// (its messages finished or failed, or the app closed it) so that the session reports it to its
/// monitors and stops tracking it.
final class SessionWebSocket: WebSocketConnection {
    /// The identifier the session's events carry.
    let identifier: Int
    let connection: any WebSocketConnection
    private let url: URL
    private let inner: WebSocketMessages
    /// Called once, when the connection ended: how, and the failure if it failed.
    private let ended: @Sendable (SessionWebSocket, WebSocketClose?, SessionError?) -> Void
    private let hasEnded = Lock(false)

    init(
        identifier: Int,
        connection: any WebSocketConnection,
        url: URL,
        ended: @escaping @Sendable (SessionWebSocket, WebSocketClose?, SessionError?) -> Void
    ) {
        self.identifier = identifier
        self.connection = connection
        self.url = url
        inner = connection.messages
        self.ended = ended
    }

    var handshakeResponse: HTTPResponse { connection.handshakeResponse }

    var agreement: WebSocketHandshake.Agreement { connection.agreement }

    var closeStatus: WebSocketClose? { connection.closeStatus }

    var messages: WebSocketMessages {
        // A WebSocketMessages iterator holds only its reader, so a fresh one per message reads on
        // where the last one stopped.
        WebSocketMessages { [inner] () async throws(WebSocketError) -> WebSocketMessage? in
            var iterator = inner.makeAsyncIterator()
            do throws(WebSocketError) {
                guard let message = try await iterator.next() else {
                    self.end(failure: nil)
                    return nil
                }
                return message
            } catch {
                self.end(failure: error)
                throw error
            }
        }
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        try await connection.send(message)
    }

    func ping() async throws(WebSocketError) -> Duration {
        try await connection.ping()
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        await connection.close(code: code, reason: reason)
        end(failure: nil)
    }

    /// Reports the end once, whichever way it is seen first.
    private func end(failure: WebSocketError?) {
        let first = hasEnded.withLock { ended in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        let close = connection.closeStatus ?? WebSocketClose(code: .abnormalClosure)
        ended(self, close, failure.map { SessionError.webSocket($0, url: url) })
    }
}
