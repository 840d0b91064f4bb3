/// One WebSocket frame as the parser yields it and the encoder writes it (RFC 6455 §5.2), unmasked.
///
/// RSV2 and RSV3 have no field: no extension Courier negotiates uses them, so the parser refuses
/// them. RSV1 is ``isCompressed``, the "Per-Message Compressed" bit of RFC 7692 §6, set only on the
/// first frame of a compressed message.
///
/// ```swift
/// let frame = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))
/// let bytes = WebSocketFrameEncoder.encode(frame, maskingKey: 0x37fa_213d)
/// ```
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message (the FIN bit).
    public var isFinal: Bool
    /// Whether RSV1 is set: the message this frame starts is compressed (RFC 7692 §6).
    public var isCompressed: Bool
    /// The opcode.
    public var opcode: WebSocketOpcode
    /// The payload, unmasked.
    public var payload: [UInt8]

    /// Creates a frame.
    ///
    /// ```swift
    /// let first = WebSocketFrame(isFinal: false, opcode: .binary, payload: [1, 2, 3])
    /// ```
    /// - Parameters:
    ///   - isFinal: Whether this is the last frame of its message.
    ///   - isCompressed: Whether RSV1 is set (the first frame of a compressed message).
    ///   - opcode: The opcode.
    ///   - payload: The unmasked payload.
    public init(isFinal: Bool = true, isCompressed: Bool = false, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.isFinal = isFinal
        self.isCompressed = isCompressed
        self.opcode = opcode
        self.payload = payload
    }

    /// The largest payload of a control frame (RFC 6455 §5.5).
    public static let maximumControlPayloadSize = 125

    /// A ping carrying `payload` (at most 125 bytes; the engine sends its own short payloads).
    ///
    /// ```swift
    /// let ping = WebSocketFrame.ping([0x01])
    /// ```
    /// - Parameter payload: The application data the pong must echo.
    public static func ping(_ payload: [UInt8] = []) -> WebSocketFrame {
        WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(maximumControlPayloadSize)))
    }

    /// A pong carrying `payload`: the reply to a ping echoes the ping's payload (RFC 6455 §5.5.3).
    ///
    /// ```swift
    /// let pong = WebSocketFrame.pong(ping.payload)
    /// ```
    /// - Parameter payload: The ping's application data.
    public static func pong(_ payload: [UInt8]) -> WebSocketFrame {
        WebSocketFrame(opcode: .pong, payload: Array(payload.prefix(maximumControlPayloadSize)))
    }

    /// A close frame carrying `close` (its code and reason), or an empty one for a close without code.
    ///
    /// ```swift
    /// let frame = WebSocketFrame.close(WebSocketClose(code: .normalClosure))
    /// ```
    /// - Parameter close: The code and reason to send.
    public static func close(_ close: WebSocketClose) -> WebSocketFrame {
        WebSocketFrame(opcode: .close, payload: close.payload)
    }
}
