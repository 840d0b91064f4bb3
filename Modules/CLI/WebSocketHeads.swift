internal import CourierHTTP
internal import CourierWebSocket

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier ws --verbose`: the opening handshake's request and response heads on stderr, in the
/// HTTP commands' layout, so that stdout keeps only the messages.
struct WebSocketHeads {
    private let writer: MessageWriter

    init() {
        var line = RequestCommandLine()
        line.print = "Hh"
        line.pretty = StandardStreams.errorIsTerminal ? "colors" : "none"
        writer = MessageWriter(
            selection: OutputSelection(line, stdoutIsTerminal: false),
            descriptor: STDERR_FILENO,
            isTerminal: false
        )
    }

    /// The head the connector sends for `request`: the handshake's fields, then the request's.
    /// The key is drawn per connection by the connector, so it is shown as a placeholder.
    func writeRequest(_ request: HTTPRequest, configuration: WebSocketConfiguration) throws(CommandFailure) {
        try writer.writeRequest(Self.handshakeRequest(request, configuration: configuration))
    }

    /// The server's answer to the upgrade.
    func writeResponse(_ response: HTTPResponse) throws(CommandFailure) {
        try writer.writeHead(response)
    }

    static let keyPlaceholder = "<16 random bytes, base64>"

    /// The handshake request as ``CourierWebSocket/WebSocketHandshake`` builds it, with the key
    /// field holding ``keyPlaceholder``; `request` itself when it cannot be built (the connector
    /// then reports why).
    static func handshakeRequest(_ request: HTTPRequest, configuration: WebSocketConfiguration) -> HTTPRequest {
        var configuration = configuration
        configuration.additionalHeaders = request.headers
        guard
            var handshake = try? WebSocketHandshake(
                url: request.url,
                configuration: configuration,
                keyBytes: [UInt8](repeating: 0, count: 16)
            ).request
        else { return request }
        try? handshake.headers.set(name: "Sec-WebSocket-Key", value: keyPlaceholder)
        handshake.sendsPathAsIs = request.sendsPathAsIs
        return handshake
    }
}
