/// A frame's opcode (RFC 6455 §5.2 and §11.8).
///
/// Only the six defined opcodes exist as values: the frame parser rejects the reserved ones
/// (0x3–0x7 and 0xB–0xF) with a protocol error before a frame is made.
///
/// ```swift
/// let opcode = WebSocketOpcode(rawValue: 0x9)  // .ping
/// opcode?.isControl                             // true
/// ```
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// A continuation of a fragmented data message (0x0).
    case continuation = 0x0
    /// The first frame of a text message (0x1).
    case text = 0x1
    /// The first frame of a binary message (0x2).
    case binary = 0x2
    /// A close frame (0x8).
    case close = 0x8
    /// A ping (0x9).
    case ping = 0x9
    /// A pong (0xA).
    case pong = 0xA

    /// Whether this is a control opcode (close, ping or pong): at most 125 bytes of payload, never
    /// fragmented (RFC 6455 §5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
