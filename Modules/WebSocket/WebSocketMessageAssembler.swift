/// Turns the frames the parser yields into messages and control events (RFC 6455 §5.4–§5.6).
///
/// It enforces fragmentation (a continuation with nothing to continue, or a new data frame while a
/// fragmented message is open, fails with 1002), passes control frames through in the middle of a
/// fragmented message, checks text as UTF-8 while it arrives and fails as soon as a prefix can no
/// longer be valid (1007, as Autobahn's 6.x cases expect), counts the message size after
/// decompression (1009), inflates messages whose first frame has RSV1 through the engine's
/// ``WebSocketInflating`` (RFC 7692 §7.2.2), and checks close payloads (1002, 1007). After a
/// failure, every later call throws the same error.
///
/// ```swift
/// var assembler = WebSocketMessageAssembler(maximumMessageSize: 1 << 20, deflate: agreed)
/// while let frame = try parser.nextFrame() {
///     switch try assembler.receive(frame, inflater: inflater) {
///     case .message(let message)?: deliver(message)
///     case .ping(let payload)?: send(.pong(payload))
///     case .pong?: break
///     case .close(let close)?: answer(close)
///     case nil: break  // a fragment of a message still arriving
///     }
/// }
/// ```
public struct WebSocketMessageAssembler: Sendable {
    /// What one frame completed.
    public enum Output: Sendable, Hashable {
        /// A whole message.
        case message(WebSocketMessage)
        /// A ping with its payload, which the pong must echo.
        case ping([UInt8])
        /// A pong with its payload (an unsolicited pong is allowed and needs no answer).
        case pong([UInt8])
        /// The server's close frame, checked.
        case close(WebSocketClose)
    }

    /// The largest message accepted, in bytes after decompression.
    public let maximumMessageSize: Int
    /// The agreed permessage-deflate parameters, or `nil` when compression was not agreed.
    public let deflate: WebSocketDeflateParameters?

    private var message: PartialMessage?
    private var failure: WebSocketError?

    /// A data message whose final frame has not arrived yet.
    private struct PartialMessage: Sendable {
        let isText: Bool
        let isCompressed: Bool
        var bytes: [UInt8] = []
        var validator = UTF8StreamValidator()
    }

    /// Creates an assembler.
    ///
    /// ```swift
    /// var assembler = WebSocketMessageAssembler(maximumMessageSize: configuration.maximumMessageSize)
    /// ```
    /// - Parameters:
    ///   - maximumMessageSize: The largest message accepted, in bytes after decompression.
    ///   - deflate: The agreed permessage-deflate parameters, or `nil`.
    public init(maximumMessageSize: Int = 16 << 20, deflate: WebSocketDeflateParameters? = nil) {
        self.maximumMessageSize = max(maximumMessageSize, 0)
        self.deflate = deflate
    }

    /// Creates the assembler for a connection the handshake opened: the configuration's message
    /// limit, and the agreed permessage-deflate parameters.
    ///
    /// ```swift
    /// var assembler = WebSocketMessageAssembler(configuration: handshake.configuration, agreement: agreement)
    /// ```
    /// - Parameters:
    ///   - configuration: The configuration the handshake was made with.
    ///   - agreement: What the server agreed to.
    public init(configuration: WebSocketConfiguration, agreement: WebSocketHandshake.Agreement) {
        self.init(maximumMessageSize: configuration.maximumMessageSize, deflate: agreement.deflate)
    }

    /// Whether a fragmented message has begun and not yet ended.
    public var isAssemblingMessage: Bool { message != nil }

    /// Takes the next frame.
    ///
    /// ```swift
    /// if case .message(let message)? = try assembler.receive(frame, inflater: inflater) {
    ///     deliver(message)
    /// }
    /// ```
    /// - Parameters:
    ///   - frame: The next frame from the parser.
    ///   - inflater: The engine's inflater when permessage-deflate was agreed; it keeps its window
    ///     from call to call, so pass the same one every time.
    /// - Returns: What the frame completed, or `nil` when it was a fragment of an unfinished message.
    /// - Throws: ``WebSocketError/protocolViolation(_:reason:)`` with the close code to send (1002 for
    ///   fragmentation and close-payload errors, 1007 for invalid UTF-8 or compressed data),
    ///   ``WebSocketError/messageTooBig(limit:)`` (1009).
    public mutating func receive(
        _ frame: WebSocketFrame,
        inflater: (any WebSocketInflating)? = nil
    ) throws(WebSocketError) -> Output? {
        if let failure { throw failure }
        do {
            return try process(frame, inflater: inflater)
        } catch {
            failure = error
            message = nil
            throw error
        }
    }

    private mutating func process(
        _ frame: WebSocketFrame,
        inflater: (any WebSocketInflating)?
    ) throws(WebSocketError) -> Output? {
        if frame.opcode.isControl {
            // The parser refuses these first; checked again for frames that come from elsewhere.
            guard frame.isFinal, !frame.isCompressed,
                frame.payload.count <= WebSocketFrame.maximumControlPayloadSize
            else { throw .protocolViolation(.protocolError, reason: "a malformed \(frame.opcode) frame") }
            switch frame.opcode {
            case .ping: return .ping(frame.payload)
            case .pong: return .pong(frame.payload)
            default: return .close(try WebSocketClose(payload: frame.payload))
            }
        }
        var partial: PartialMessage
        if frame.opcode == .continuation {
            guard let open = message else {
                throw .protocolViolation(.protocolError, reason: "a continuation frame with no message to continue")
            }
            guard !frame.isCompressed else {
                throw .protocolViolation(.protocolError, reason: "RSV1 is set on a continuation frame")
            }
            partial = open
        } else {
            guard message == nil else {
                throw .protocolViolation(.protocolError, reason: "a new message began before the last one ended")
            }
            if frame.isCompressed && deflate == nil {
                throw .protocolViolation(.protocolError, reason: "RSV1 is set, and no extension was agreed")
            }
            partial = PartialMessage(isText: frame.opcode == .text, isCompressed: frame.isCompressed)
        }
        message = nil
        if partial.isCompressed {
            guard let inflater else {
                throw .protocolViolation(.internalError, reason: "a compressed message arrived with no inflater")
            }
            try inflate(frame.payload, into: &partial, with: inflater)
            if frame.isFinal {
                // RFC 7692 §7.2.2: the sender removed this empty stored block's tail from the message.
                try inflate([0x00, 0x00, 0xFF, 0xFF], into: &partial, with: inflater)
                if deflate?.serverNoContextTakeover == true {
                    do {
                        try inflater.resetContext()
                    } catch {
                        throw .protocolViolation(.internalError, reason: "the inflater could not be reset: \(error)")
                    }
                }
            }
        } else {
            guard frame.payload.count <= maximumMessageSize - partial.bytes.count else {
                throw .messageTooBig(limit: maximumMessageSize)
            }
            try append(frame.payload, to: &partial)
        }
        guard frame.isFinal else {
            message = partial
            return nil
        }
        guard partial.isText else { return .message(.binary(partial.bytes)) }
        guard partial.validator.isComplete else {
            throw .protocolViolation(.invalidFramePayloadData, reason: "a text message ends inside a character")
        }
        return .message(.text(String(decoding: partial.bytes, as: UTF8.self)))
    }

    /// Feeds compressed bytes and takes the output in slices, never more than the message may still
    /// hold plus one byte, which is how a bomb is caught at the limit.
    private func inflate(
        _ compressed: [UInt8],
        into partial: inout PartialMessage,
        with inflater: any WebSocketInflating
    ) throws(WebSocketError) {
        inflater.feed(compressed)
        while true {
            let room = maximumMessageSize - partial.bytes.count
            let output: [UInt8]
            do {
                output = try inflater.read(maximumCount: min(room, Self.inflateSlice - 1) + 1)
            } catch {
                throw .protocolViolation(
                    .invalidFramePayloadData,
                    reason: "the compressed message is invalid: \(error)"
                )
            }
            if output.isEmpty { return }
            guard output.count <= room else { throw .messageTooBig(limit: maximumMessageSize) }
            try append(output, to: &partial)
        }
    }

    private static let inflateSlice = 64 << 10

    private func append(_ bytes: [UInt8], to partial: inout PartialMessage) throws(WebSocketError) {
        if partial.isText && !partial.validator.validate(bytes) {
            throw .protocolViolation(.invalidFramePayloadData, reason: "a text message is not valid UTF-8")
        }
        partial.bytes.append(contentsOf: bytes)
    }
}
