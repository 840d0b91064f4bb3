/// The status code of a close frame (RFC 6455 §7.4), with the registered codes named as the IANA
/// "WebSocket Close Code Number Registry" names them.
///
/// Any `UInt16` can be held; ``isValidOnWire`` says whether a code may appear in a close frame.
/// Applications may use 3000–4999 (3000–3999 are registered with IANA, 4000–4999 are private).
///
/// ```swift
/// let code = WebSocketCloseCode(rawValue: 4001)
/// code.isValidOnWire                         // true
/// WebSocketCloseCode.noStatusReceived.isValidOnWire  // false: 1005 is never sent
/// ```
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The numeric code.
    public let rawValue: UInt16

    /// Creates a code from its number.
    ///
    /// ```swift
    /// let code = WebSocketCloseCode(rawValue: 1000)  // .normalClosure
    /// ```
    /// - Parameter rawValue: The numeric code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: the endpoint is going away (a server shutting down, a page navigated away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: the endpoint received something that breaks the protocol.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: the endpoint received a type of data it cannot accept (binary on a text-only endpoint).
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1004: reserved; never sent.
    public static let reserved = WebSocketCloseCode(rawValue: 1004)
    /// 1005: no status code was present in the close frame; only reported, never sent.
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection closed without a close frame; only reported, never sent.
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a message's data did not match its type (text that is not UTF-8).
    public static let invalidFramePayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message broke the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message was too big to process.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected the server to negotiate an extension it did not.
    public static let mandatoryExtension = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server met an unexpected condition (IANA: "Internal Error").
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1012: the service is restarting.
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: try again later (a temporary overload).
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1014: a gateway or proxy received an invalid response from the upstream server.
    public static let badGateway = WebSocketCloseCode(rawValue: 1014)
    /// 1015: the TLS handshake failed; only reported, never sent.
    public static let tlsHandshake = WebSocketCloseCode(rawValue: 1015)

    /// Whether the code may appear in a close frame, sent or received (RFC 6455 §7.4.1 and §7.4.2).
    ///
    /// 0–999 are not used; 1004 is reserved; 1005, 1006 and 1015 only report a closure and are
    /// never sent; 1016–2999 are reserved for future RFCs; 3000–4999 belong to libraries and
    /// applications; nothing above 4999 is defined.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// The number and, for a registered code, its name: `1000 (normal closure)`.
    public var description: String {
        guard let name = Self.names[rawValue] else { return String(rawValue) }
        return "\(rawValue) (\(name))"
    }

    private static let names: [UInt16: String] = [
        1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
        1004: "reserved", 1005: "no status received", 1006: "abnormal closure",
        1007: "invalid frame payload data", 1008: "policy violation", 1009: "message too big",
        1010: "mandatory extension", 1011: "internal error", 1012: "service restart",
        1013: "try again later", 1014: "bad gateway", 1015: "TLS handshake",
    ]
}
