/// The permessage-deflate extension a client offers (RFC 7692 §7.1).
///
/// The default offer is `permessage-deflate; client_max_window_bits`: it asks for compression,
/// leaves the server's window to the server, and lets the server limit the client's window. The
/// client decompresses what the server compresses; it sends its own messages uncompressed, which
/// RFC 7692 §6 allows message by message, so the client-side parameters cost it nothing.
///
/// ```swift
/// var offer = WebSocketDeflateOffer()
/// offer.serverNoContextTakeover = true  // ask the server to compress each message on its own
/// offer.extensionHeaderValue            // "permessage-deflate; server_no_context_takeover; client_max_window_bits"
/// ```
public struct WebSocketDeflateOffer: Sendable, Hashable {
    /// Asks the server to reset its compression context after each message (`server_no_context_takeover`).
    public var serverNoContextTakeover = false
    /// Announces that the client resets its context after each message (`client_no_context_takeover`).
    public var clientNoContextTakeover = false
    /// Asks the server to use an LZ77 window of at most 2^n bytes, 8–15 (`server_max_window_bits=n`),
    /// or `nil` to leave it to the server. Values outside 8–15 are clamped when the offer is written.
    public var serverMaxWindowBits: Int?
    /// Whether to send `client_max_window_bits` (without a value), which lets the server answer with
    /// a limit for the client's window; without it, a server that answers one fails the handshake.
    public var offersClientMaxWindowBits = true

    /// Creates the default offer.
    ///
    /// ```swift
    /// let offer = WebSocketDeflateOffer()
    /// ```
    public init() {}

    /// The offer as one element of `Sec-WebSocket-Extensions`.
    public var extensionHeaderValue: String {
        var parts = [WebSocketDeflateParameters.extensionName]
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if let bits = serverMaxWindowBits { parts.append("server_max_window_bits=\(min(max(bits, 8), 15))") }
        if offersClientMaxWindowBits { parts.append("client_max_window_bits") }
        return parts.joined(separator: "; ")
    }
}
