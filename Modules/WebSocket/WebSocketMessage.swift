/// A complete WebSocket message: the payload of one data frame, or of a fragmented run of them,
/// after reassembly, decompression and (for text) UTF-8 validation (RFC 6455 §5.6).
///
/// ```swift
/// switch message {
/// case .text(let string): print("text:", string)
/// case .binary(let bytes): print("binary:", bytes.count, "bytes")
/// }
/// ```
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message: valid UTF-8, sent with opcode 0x1.
    case text(String)
    /// A binary message: any bytes, sent with opcode 0x2.
    case binary([UInt8])

    /// The opcode of the message's first frame.
    public var opcode: WebSocketOpcode {
        switch self {
        case .text: .text
        case .binary: .binary
        }
    }

    /// The payload as it goes on the wire before masking (UTF-8 for text).
    public var payload: [UInt8] {
        switch self {
        case .text(let string): Array(string.utf8)
        case .binary(let bytes): bytes
        }
    }
}
