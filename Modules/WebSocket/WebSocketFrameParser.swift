/// Reads the frames a server sends out of the bytes of the connection (RFC 6455 §5.2), in the
/// client's role.
///
/// Feed it whatever the connection delivers, split anywhere, then take frames until it returns
/// `nil` (it needs more bytes). Every header is checked before its payload is buffered: a server
/// frame that is masked, sets a reserved bit that no agreed extension defines, uses a reserved
/// opcode, has a control frame over 125 bytes or fragmented, or a 64-bit length with its top bit set
/// fails with the close code RFC 6455 names (1002); a payload over ``maximumFrameSize`` fails with
/// ``WebSocketError/frameTooBig(length:limit:)`` (1009) before a byte of it is kept. After a failure,
/// every later call throws the same error: the connection is done.
///
/// ```swift
/// var parser = WebSocketFrameParser(maximumFrameSize: 1 << 20, allowsCompression: agreed != nil)
/// parser.append(bytesFromTheConnection)
/// while let frame = try parser.nextFrame() {
///     handle(frame)
/// }
/// ```
public struct WebSocketFrameParser: Sendable {
    /// The largest payload a frame may announce.
    public let maximumFrameSize: Int
    /// Whether RSV1 may be set (permessage-deflate was agreed), on the first frame of a data message only.
    public let allowsCompression: Bool

    private var buffer: [UInt8] = []
    /// Where the next frame starts in `buffer`; the bytes before it are consumed.
    private var start = 0
    private var failure: WebSocketError?

    /// Creates a parser.
    ///
    /// ```swift
    /// var parser = WebSocketFrameParser(maximumFrameSize: configuration.maximumFrameSize)
    /// ```
    /// - Parameters:
    ///   - maximumFrameSize: The largest payload a frame may announce, in bytes.
    ///   - allowsCompression: Whether permessage-deflate was agreed, so that RSV1 may start a message.
    public init(maximumFrameSize: Int = 16 << 20, allowsCompression: Bool = false) {
        self.maximumFrameSize = max(maximumFrameSize, 0)
        self.allowsCompression = allowsCompression
    }

    /// Creates the parser for a connection the handshake opened: the configuration's frame limit,
    /// and RSV1 allowed when permessage-deflate was agreed.
    ///
    /// ```swift
    /// let agreement = try handshake.validate(response, sha1: sha1)
    /// var parser = WebSocketFrameParser(configuration: handshake.configuration, agreement: agreement)
    /// ```
    /// - Parameters:
    ///   - configuration: The configuration the handshake was made with.
    ///   - agreement: What the server agreed to.
    public init(configuration: WebSocketConfiguration, agreement: WebSocketHandshake.Agreement) {
        self.init(maximumFrameSize: configuration.maximumFrameSize, allowsCompression: agreement.deflate != nil)
    }

    /// The bytes received and not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends bytes received from the connection.
    ///
    /// ```swift
    /// parser.append([0x81, 0x05])
    /// ```
    /// - Parameter bytes: The next bytes, continuing where the last call stopped.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes received from the connection, straight from the transport's buffer.
    ///
    /// ```swift
    /// chunk.withUnsafeBytes { parser.append($0) }
    /// ```
    /// - Parameter bytes: The next bytes, continuing where the last call stopped.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or `nil` when more bytes are needed.
    ///
    /// ```swift
    /// while let frame = try parser.nextFrame() { assembler.receive(frame, inflater: inflater) }
    /// ```
    /// - Throws: ``WebSocketError/protocolViolation(_:reason:)`` (1002) for a frame the client must
    ///   refuse, ``WebSocketError/frameTooBig(length:limit:)`` for one over ``maximumFrameSize``.
    public mutating func nextFrame() throws(WebSocketError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try parseFrame()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func parseFrame() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw violation("reserved opcode \(first & 0x0F)")
        }
        let isFinal = first & 0x80 != 0
        let isCompressed = first & 0x40 != 0
        if first & 0x30 != 0 {
            throw violation("RSV2 or RSV3 is set, and no extension defines them")
        }
        if isCompressed {
            guard allowsCompression else { throw violation("RSV1 is set, and no extension was agreed") }
            // RFC 7692 §6.1: the bit marks a compressed message on its first frame only.
            guard !opcode.isControl && opcode != .continuation else {
                throw violation("RSV1 is set on a \(opcode) frame")
            }
        }
        if opcode.isControl && !isFinal { throw violation("a \(opcode) frame is fragmented") }
        // RFC 6455 §5.1: a client must close the connection on a masked frame from the server.
        if second & 0x80 != 0 { throw violation("the server masked a frame") }
        let shortLength = second & 0x7F
        if opcode.isControl && shortLength > 125 {
            throw violation("a \(opcode) frame carries more than 125 bytes")
        }
        let headerLength: Int
        let length: UInt64
        switch shortLength {
        case 126:
            guard available >= 4 else { return nil }
            headerLength = 4
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
        case 127:
            guard available >= 10 else { return nil }
            headerLength = 10
            length = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            if length & (1 << 63) != 0 { throw violation("a 64-bit payload length has its top bit set") }
        default:
            headerLength = 2
            length = UInt64(shortLength)
        }
        // A length in a longer form than it needs breaks RFC 6455 §5.2's "minimal number of bytes",
        // but that rule binds the sender and the length still reads the same, so it is accepted.
        guard length <= UInt64(maximumFrameSize) else {
            throw .frameTooBig(length: length, limit: maximumFrameSize)
        }
        let payloadLength = Int(length)
        guard available - headerLength >= payloadLength else { return nil }
        let payloadStart = start + headerLength
        let payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
        start = payloadStart + payloadLength
        return WebSocketFrame(isFinal: isFinal, isCompressed: isCompressed, opcode: opcode, payload: payload)
    }

    private func violation(_ reason: String) -> WebSocketError {
        .protocolViolation(.protocolError, reason: reason)
    }

    /// Drops the consumed bytes when they are most of the buffer, so that appending stays amortised
    /// O(1) and the buffer does not grow with the connection's lifetime.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 4_096 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
