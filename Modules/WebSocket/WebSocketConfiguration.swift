public import CourierHTTP

/// What a WebSocket client offers and the limits it keeps.
///
/// The defaults offer permessage-deflate, accept messages and frames up to 16 MiB (counted after
/// decompression, so that a small compressed "bomb" is stopped at the limit), send no keep-alive
/// pings, and give the server 5 seconds to answer a close.
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.subprotocols = ["chat.v2", "chat.v1"]
/// configuration.pingInterval = .seconds(30)
/// configuration.maximumMessageSize = 1 << 20
/// ```
public struct WebSocketConfiguration: Sendable, Hashable {
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, most preferred first; empty offers none.
    /// Each must be an HTTP token (RFC 6455 §4.1).
    public var subprotocols: [String] = []
    /// The permessage-deflate offer (RFC 7692), or `nil` to offer no compression.
    public var perMessageDeflate: WebSocketDeflateOffer? = WebSocketDeflateOffer()
    /// The largest message accepted, in bytes after decompression; a larger one fails the connection
    /// with 1009.
    public var maximumMessageSize: Int = 16 << 20
    /// The largest frame payload accepted, in bytes, checked from the frame's header before its
    /// payload is read; a larger one fails the connection with 1009.
    public var maximumFrameSize: Int = 16 << 20
    /// How often the client pings an idle connection, or `nil` (the default) for never.
    public var pingInterval: Duration?
    /// How long the client waits for the server's close frame (and the end of the connection) after
    /// sending its own, before it drops the connection with ``WebSocketError/closeTimedOut``.
    public var closeTimeout: Duration = .seconds(5)
    /// How many received messages may wait unread before the client stops reading from the
    /// connection, so that a fast server cannot fill memory while the app is busy.
    public var readHighWaterMark: Int = 16
    /// Extra request headers for the upgrade (`Authorization`, `Origin`, cookies). They never replace
    /// the handshake's own fields: `Host`, `Upgrade`, `Connection` and the `Sec-WebSocket-*` fields
    /// given here are dropped.
    public var additionalHeaders = HTTPHeaders()

    /// Creates the default configuration.
    ///
    /// ```swift
    /// let configuration = WebSocketConfiguration()
    /// ```
    public init() {}
}
