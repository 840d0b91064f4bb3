/// Writes client frames (RFC 6455 §5.2): always masked (§5.3), with the shortest of the 7-, 16- and
/// 64-bit length forms, and splits long messages into fragments.
///
/// The masking key must be fresh for every frame and unpredictable (RFC 6455 §5.3, §10.3): the
/// engine draws it from `SystemRandomNumberGenerator`; it is a parameter so that this stays pure.
///
/// ```swift
/// var generator = SystemRandomNumberGenerator()
/// for frame in WebSocketFrameEncoder.fragments(of: .text("hello"), maximumFragmentSize: 1 << 16) {
///     let bytes = WebSocketFrameEncoder.encode(frame, maskingKey: generator.next())
///     try await connection.write(bytes)
/// }
/// ```
public enum WebSocketFrameEncoder {
    /// The frame's bytes on the wire, masked with `maskingKey`.
    ///
    /// ```swift
    /// let bytes = WebSocketFrameEncoder.encode(.ping(), maskingKey: 0x37fa_213d)
    /// ```
    /// - Parameters:
    ///   - frame: The frame to write.
    ///   - maskingKey: The four masking bytes, most significant first (`0x37fa213d` masks with
    ///     `37 fa 21 3d`).
    /// - Returns: The header, the masking key and the masked payload.
    public static func encode(_ frame: WebSocketFrame, maskingKey: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(frame, maskingKey: maskingKey, into: &bytes)
        return bytes
    }

    /// Appends the frame's bytes on the wire, masked with `maskingKey`, to `buffer`.
    ///
    /// ```swift
    /// var output: [UInt8] = []
    /// WebSocketFrameEncoder.encode(frame, maskingKey: generator.next(), into: &output)
    /// ```
    /// - Parameters:
    ///   - frame: The frame to write.
    ///   - maskingKey: The four masking bytes, most significant first.
    ///   - buffer: Where the bytes are appended.
    public static func encode(_ frame: WebSocketFrame, maskingKey: UInt32, into buffer: inout [UInt8]) {
        let count = frame.payload.count
        buffer.reserveCapacity(buffer.count + 14 + count)
        var first = frame.opcode.rawValue
        if frame.isFinal { first |= 0x80 }
        if frame.isCompressed { first |= 0x40 }
        buffer.append(first)
        switch count {
        case ..<126:
            buffer.append(0x80 | UInt8(count))
        case ...0xFFFF:
            buffer.append(0x80 | 126)
            buffer.append(UInt8(count >> 8))
            buffer.append(UInt8(count & 0xFF))
        default:
            buffer.append(0x80 | 127)
            let length = UInt64(count)
            for shift in stride(from: 56, through: 0, by: -8) {
                buffer.append(UInt8(truncatingIfNeeded: length >> UInt64(shift)))
            }
        }
        let key: [UInt8] = [
            UInt8(maskingKey >> 24), UInt8(truncatingIfNeeded: maskingKey >> 16),
            UInt8(truncatingIfNeeded: maskingKey >> 8), UInt8(truncatingIfNeeded: maskingKey),
        ]
        buffer.append(contentsOf: key)
        for (index, byte) in frame.payload.enumerated() {
            buffer.append(byte ^ key[index & 3])
        }
    }

    /// The frames of one message: a single frame when it fits in `maximumFragmentSize`, else a first
    /// frame with the message's opcode and continuations, the last one final (RFC 6455 §5.4).
    ///
    /// ```swift
    /// let frames = WebSocketFrameEncoder.fragments(of: .binary(bytes), maximumFragmentSize: 4_096)
    /// ```
    /// - Parameters:
    ///   - message: The message.
    ///   - maximumFragmentSize: The largest payload of one frame (at least 1).
    /// - Returns: The frames, in order, unmasked.
    public static func fragments(of message: WebSocketMessage, maximumFragmentSize: Int) -> [WebSocketFrame] {
        fragments(of: message.payload, opcode: message.opcode, maximumFragmentSize: maximumFragmentSize)
    }

    /// The frames of one message given as its payload: a first frame with `opcode` (and RSV1 when
    /// `isCompressed`), then continuations, the last one final.
    ///
    /// ```swift
    /// let frames = WebSocketFrameEncoder.fragments(of: compressed, opcode: .text, isCompressed: true,
    ///                                              maximumFragmentSize: 4_096)
    /// ```
    /// - Parameters:
    ///   - payload: The message's payload (compressed already when `isCompressed`).
    ///   - opcode: `.text` or `.binary`.
    ///   - isCompressed: Whether to set RSV1 on the first frame (RFC 7692 §6).
    ///   - maximumFragmentSize: The largest payload of one frame (at least 1).
    /// - Returns: The frames, in order, unmasked.
    public static func fragments(
        of payload: [UInt8],
        opcode: WebSocketOpcode,
        isCompressed: Bool = false,
        maximumFragmentSize: Int
    ) -> [WebSocketFrame] {
        let size = max(maximumFragmentSize, 1)
        guard payload.count > size else {
            return [WebSocketFrame(isCompressed: isCompressed, opcode: opcode, payload: payload)]
        }
        var frames: [WebSocketFrame] = []
        frames.reserveCapacity((payload.count + size - 1) / size)
        var offset = 0
        while offset < payload.count {
            let end = min(offset + size, payload.count)
            frames.append(
                WebSocketFrame(
                    isFinal: end == payload.count,
                    isCompressed: offset == 0 && isCompressed,
                    opcode: offset == 0 ? opcode : .continuation,
                    payload: Array(payload[offset..<end])
                )
            )
            offset = end
        }
        return frames
    }
}
