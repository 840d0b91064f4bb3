internal import CourierHTTP
internal import CourierSessionCore
internal import CourierTransport
internal import CourierWebSocket
internal import FoundationEssentials

/// The one line `courier ws` prints when a WebSocket ends badly, and its exit status.
///
/// Transport failures (trust, TLS, proxies, timeouts) are worded by ``ErrorMessages``, as for the
/// HTTP commands; what only a WebSocket can meet (a refused upgrade, a close code, a broken frame)
/// is worded here. `--verbose` (or `--debug`) adds the library's description on a second line.
struct WebSocketErrorMessages {
    /// The HTTP commands' wording, with the command line's timeouts for the advice.
    let messages: ErrorMessages
    /// `127.0.0.1:8080`: the server, as ``ErrorMessages/place(_:)`` names it.
    let host: String

    /// The sentence for a close that ended the connection; `nil` for a normal one: 1000, or 1001
    /// (the server going away), whoever started the closing handshake.
    func closed(_ status: WebSocketClose?) -> String? {
        switch status?.code {
        case .normalClosure?, .goingAway?:
            return nil
        case nil, .noStatusReceived?:
            return "\(host) closed the WebSocket without a status code"
        case .abnormalClosure?:
            return "the connection to \(host) ended without a WebSocket close (1006)"
        case let code?:
            let reason = status?.reason ?? ""
            return "\(host) closed the WebSocket with \(code)" + (reason.isEmpty ? "" : ": \(reason)")
        }
    }

    /// The sentence for a WebSocket failure.
    func plain(_ error: WebSocketError) -> String {
        switch error {
        case .invalidRequest(let detail):
            return "the WebSocket request cannot be sent: \(detail)"
        case .handshakeRefused(let response):
            return "\(host) refused the WebSocket upgrade: HTTP \(response.status)"
        case .redirectNotFollowed(let response):
            let location = response.headers["Location"].map { " to \($0)" } ?? ""
            return "\(host) redirected the WebSocket upgrade (HTTP \(response.status))\(location); "
                + "redirects are not followed: connect to the new URL"
        case .invalidHandshakeResponse(let check, _):
            return "\(host) answered the upgrade with an invalid handshake: \(check)"
        case .protocolViolation(let code, let reason):
            return "\(host) broke the WebSocket protocol: \(reason) (closed with \(code))"
        case .messageTooBig(let limit):
            return "\(host) sent a message over \(limit) bytes; closed with 1009 (--max-message-size raises the limit)"
        case .frameTooBig(let length, let limit):
            return "\(host) sent a frame of \(length) bytes, over the limit of \(limit); closed with 1009 "
                + "(--max-message-size raises the limit)"
        case .closedByServer(let code, let reason):
            return closed(WebSocketClose(code: code, reason: reason))
                ?? "\(host) closed the WebSocket with \(code)"
        case .closeTimedOut:
            return "\(host) did not answer the WebSocket close in time; the connection was dropped"
        case .transport(let transport):
            return messages.transport(
                transport.category,
                host: transport.url.map(ErrorMessages.place) ?? host,
                message: transport.message
            )
        }
    }

    /// The sentence for a failed `webSocket(_:configuration:)` call: the WebSocket failure it
    /// carries, or else the session's own, worded as for the HTTP commands.
    func plain(_ error: SessionError) -> String {
        if let webSocket = Self.webSocketError(in: error) { return plain(webSocket) }
        return messages.plain(error)
    }

    /// The lines to print on stderr.
    func lines(_ error: SessionError) -> [String] {
        var lines = ["courier: " + plain(error)]
        if messages.verbose {
            lines.append("courier: details: \(Self.webSocketError(in: error).map { "\($0)" } ?? "\(error)")")
        }
        return lines
    }

    /// The lines to print on stderr for a failure after the handshake.
    func lines(_ error: WebSocketError) -> [String] {
        var lines = ["courier: " + plain(error)]
        if messages.verbose { lines.append("courier: details: \(error)") }
        return lines
    }

    /// The exit status: 2 for a timeout, 3, 4 or 5 for an upgrade refused with a 3xx, 4xx or 5xx
    /// (as `--check-status` has them), 1 for anything else.
    static func status(_ error: WebSocketError) -> Int32 {
        switch error {
        case .handshakeRefused(let response), .redirectNotFollowed(let response):
            let status = ExitStatus.of(status: response.status.code, follows: false)
            return status == ExitStatus.success ? ExitStatus.error : status
        case .transport(let transport) where transport.category == .timedOut:
            return ExitStatus.timedOut
        default:
            return ExitStatus.error
        }
    }

    /// The exit status for a failed `webSocket(_:configuration:)` call.
    static func status(_ error: SessionError) -> Int32 {
        webSocketError(in: error).map(status) ?? ExitStatus.of(error)
    }

    /// The ``WebSocketError`` a session error carries, however deep.
    static func webSocketError(in error: SessionError) -> WebSocketError? {
        var cause: (any Error)? = error.underlying
        while let current = cause {
            if let webSocket = current as? WebSocketError { return webSocket }
            cause = (current as? SessionError)?.underlying
        }
        return nil
    }
}
