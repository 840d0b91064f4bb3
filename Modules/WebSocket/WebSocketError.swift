public import CourierHTTP
public import CourierTransport

/// Why a WebSocket connection could not be opened or ended in failure.
///
/// The handshake cases carry the server's response, so an app can read its status and headers (a
/// 401's `WWW-Authenticate`, a 302's `Location`); a protocol violation carries the close code the
/// client sends before it drops the connection (``closeCode``).
///
/// ```swift
/// do {
///     try await socket.send(.text("hello"))
/// } catch .closedByServer(let code, let reason) {
///     print("server closed:", code, reason)
/// } catch {
///     print(error)
/// }
/// ```
public enum WebSocketError: Error, Sendable, CustomStringConvertible {
    /// The request could not be made: the URL is not `ws://` or `wss://` with a host, the key is
    /// not 16 bytes, a subprotocol is not a token. The string says which.
    case invalidRequest(String)
    /// The server answered the upgrade with a status other than 101 (and not a redirect).
    case handshakeRefused(HTTPResponse)
    /// The server answered the upgrade with a redirect (3xx), which a WebSocket client does not follow
    /// (RFC 6455 §4.1 leaves it to the client; Courier reports it with the `Location` intact).
    case redirectNotFollowed(HTTPResponse)
    /// The server answered 101 but the response breaks one of RFC 6455 §4.1's checks.
    case invalidHandshakeResponse(HandshakeCheck, HTTPResponse)
    /// The server broke the protocol; the client sends `code` (1002, 1007, ...) and fails the connection.
    case protocolViolation(WebSocketCloseCode, reason: String)
    /// A message would be larger than ``WebSocketConfiguration/maximumMessageSize`` (counted after
    /// decompression); the client closes with 1009.
    case messageTooBig(limit: Int)
    /// A frame announced a payload larger than ``WebSocketConfiguration/maximumFrameSize``; the
    /// client closes with 1009 without reading the payload.
    case frameTooBig(length: UInt64, limit: Int)
    /// The server closed the connection with this code (1005 when its close frame had none) and reason.
    case closedByServer(WebSocketCloseCode, reason: String)
    /// The client sent a close frame and the server did not answer within the close timeout.
    case closeTimedOut
    /// The connection underneath failed (connect, TLS, reset, shut down).
    case transport(TransportError)

    /// The handshake check a response failed (RFC 6455 §4.1, the client's steps 1–6, and RFC 7692 §7.1).
    public enum HandshakeCheck: Error, Sendable, Hashable, CustomStringConvertible {
        /// `Upgrade` is missing or is not `websocket`.
        case upgradeHeader
        /// `Connection` is missing or has no `Upgrade` token.
        case connectionHeader
        /// `Sec-WebSocket-Accept` is missing or does not match the key.
        case acceptHeader
        /// `Sec-WebSocket-Protocol` names a subprotocol that was not offered, or more than one.
        case subprotocol
        /// `Sec-WebSocket-Extensions` names an extension that was not offered, or has a bad parameter;
        /// the string says what was wrong.
        case extensions(String)

        /// What was wrong, in words.
        public var description: String {
            switch self {
            case .upgradeHeader: "the Upgrade header is not websocket"
            case .connectionHeader: "the Connection header has no Upgrade token"
            case .acceptHeader: "Sec-WebSocket-Accept does not match the key"
            case .subprotocol: "Sec-WebSocket-Protocol names a subprotocol that was not offered"
            case .extensions(let detail): "Sec-WebSocket-Extensions: \(detail)"
            }
        }
    }

    /// The close code the client sends when this error fails an open connection, or `nil` when no
    /// close frame is due (the handshake never finished, the server closed first, the transport failed).
    public var closeCode: WebSocketCloseCode? {
        switch self {
        case .protocolViolation(let code, _): code
        case .messageTooBig, .frameTooBig: .messageTooBig
        default: nil
        }
    }

    /// What happened, in words.
    public var description: String {
        switch self {
        case .invalidRequest(let detail): "invalid WebSocket request: \(detail)"
        case .handshakeRefused(let response): "the server refused the WebSocket upgrade: \(response.status)"
        case .redirectNotFollowed(let response):
            "the server redirected the WebSocket upgrade (\(response.status)) to "
                + (response.headers["Location"] ?? "nowhere") + "; redirects are not followed"
        case .invalidHandshakeResponse(let check, _): "invalid WebSocket handshake response: \(check)"
        case .protocolViolation(let code, let reason): "WebSocket protocol violation (\(code)): \(reason)"
        case .messageTooBig(let limit): "a WebSocket message exceeded \(limit) bytes"
        case .frameTooBig(let length, let limit): "a WebSocket frame of \(length) bytes exceeded \(limit) bytes"
        case .closedByServer(let code, let reason):
            reason.isEmpty
                ? "the server closed the WebSocket (\(code))" : "the server closed the WebSocket (\(code)): \(reason)"
        case .closeTimedOut: "the server did not answer the WebSocket close in time"
        case .transport(let error): "WebSocket transport failure: \(error)"
        }
    }
}
