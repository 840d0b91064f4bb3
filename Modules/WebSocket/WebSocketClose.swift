/// What a close frame carries: an optional status code and a UTF-8 reason (RFC 6455 §5.5.1).
///
/// Parsing a received payload applies the RFC's rules: empty, or at least two bytes; a code that
/// may appear on the wire; a reason that is valid UTF-8. Building a payload truncates the reason so
/// that the frame stays within the 125 bytes of a control frame.
///
/// ```swift
/// let close = try WebSocketClose(payload: frame.payload)
/// print(close.code ?? .noStatusReceived, close.reason)
/// ```
public struct WebSocketClose: Sendable, Hashable {
    /// The status code, or `nil` for a close frame without one (reported as 1005).
    public var code: WebSocketCloseCode?
    /// The reason, possibly empty. Only sent when there is a code.
    public var reason: String

    /// Creates a close with a code and a reason.
    ///
    /// ```swift
    /// let close = WebSocketClose(code: .goingAway, reason: "bye")
    /// ```
    /// - Parameters:
    ///   - code: The status code, or `nil` for an empty close frame.
    ///   - reason: A human-readable reason; cut to 123 bytes (on a character boundary) when sent.
    public init(code: WebSocketCloseCode?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Parses a received close frame's payload.
    ///
    /// ```swift
    /// let close = try WebSocketClose(payload: [0x03, 0xE8])  // 1000, no reason
    /// ```
    /// - Parameter payload: The close frame's unmasked payload.
    /// - Throws: ``WebSocketError/protocolViolation(_:reason:)`` with 1002 for a one-byte payload or
    ///   a code that may not appear on the wire, with 1007 for a reason that is not UTF-8.
    public init(payload: [UInt8]) throws(WebSocketError) {
        if payload.isEmpty {
            self.init(code: nil)
            return
        }
        guard payload.count >= 2 else {
            throw .protocolViolation(.protocolError, reason: "a close frame's payload has a single byte")
        }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else {
            throw .protocolViolation(.protocolError, reason: "close code \(code.rawValue) may not be sent")
        }
        let reasonBytes = payload[2...]
        var validator = UTF8StreamValidator()
        guard validator.validate(reasonBytes), validator.isComplete else {
            throw .protocolViolation(.invalidFramePayloadData, reason: "a close reason is not valid UTF-8")
        }
        self.init(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
    }

    /// The payload of a close frame carrying this close: empty without a code, else the code in
    /// network order and the reason, cut on a character boundary to fit 125 bytes.
    public var payload: [UInt8] {
        guard let code else { return [] }
        var bytes: [UInt8] = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        let limit = WebSocketFrame.maximumControlPayloadSize - 2
        var reasonBytes = 0
        for character in reason {
            let size = character.utf8.count
            guard reasonBytes + size <= limit else { break }
            bytes.append(contentsOf: character.utf8)
            reasonBytes += size
        }
        return bytes
    }
}
