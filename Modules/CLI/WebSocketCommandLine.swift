internal import CourierWebSocket

/// What `courier ws URL [HEADER:VALUE ...]` asked for, before anything is read or sent.
///
/// The trust, proxy, header, authentication and timeout options are the request grammar's, kept in
/// ``request`` so that the HTTP commands' client, trust loading and error wording apply unchanged.
struct WebSocketCommandLine {
    /// The request grammar's view: the URL (mapped to `http://` or `https://`), header and query
    /// items, and the shared options.
    var request = RequestCommandLine()
    /// `--subprotocol NAME` (repeatable): offered in `Sec-WebSocket-Protocol`, in order.
    var subprotocols: [String] = []
    /// `--no-compression`: no permessage-deflate offer.
    var compresses = true
    /// `--max-message-size BYTES`: the largest message (and frame) accepted, after decompression.
    var maximumMessageSize: Int?
    /// `--ping-interval SECONDS`: a keep-alive ping this often.
    var pingInterval: Duration?
    /// `--binary-to FILE`: binary messages are appended to FILE instead of printed as base64.
    var binaryFile: String?
    /// `--max-messages N`: close (1000) after N messages have arrived, instead of at stdin's end.
    var maximumMessages: Int?
    /// `--help`: print the usage.
    var showsHelp = false

    /// Whether stdin's lines are sent; `-I/--ignore-stdin` sends nothing and waits for the server
    /// to close. (``request`` always ignores stdin: it is never a handshake body.)
    var readsStandardInput = true

    /// The connection's settings: the offer, limits and keep-alive the options ask for.
    var configuration: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = subprotocols
        if !compresses { configuration.perMessageDeflate = nil }
        if let maximumMessageSize {
            configuration.maximumMessageSize = maximumMessageSize
            // A frame larger than the largest message can never be accepted anyway.
            configuration.maximumFrameSize = min(configuration.maximumFrameSize, maximumMessageSize)
        }
        configuration.pingInterval = pingInterval
        return configuration
    }
}
