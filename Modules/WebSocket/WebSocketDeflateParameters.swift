/// The permessage-deflate parameters the server agreed to (RFC 7692 §7.1), which the engine sets its
/// inflater up with.
///
/// A raw-deflate inflater with a 15-bit window decodes any server window of 8–15 bits, and keeping
/// the window between messages is harmless when the server resets its own, so an engine may use
/// one persistent inflater whatever was agreed; ``serverNoContextTakeover`` only says it may reset
/// it after each message to free the window early.
///
/// ```swift
/// let agreed = try WebSocketDeflateParameters.negotiate(
///     responseExtensions: ["permessage-deflate; server_no_context_takeover"],
///     offer: WebSocketDeflateOffer()
/// )
/// agreed?.serverNoContextTakeover  // true
/// ```
public struct WebSocketDeflateParameters: Sendable, Hashable {
    /// The extension's registered name.
    public static let extensionName = "permessage-deflate"

    /// The server resets its compression context after each message.
    public var serverNoContextTakeover: Bool
    /// The client must reset its compression context after each message (it sends uncompressed
    /// messages, so this does not concern it).
    public var clientNoContextTakeover: Bool
    /// The server's LZ77 window, 8–15 bits (15 when the server did not say).
    public var serverMaxWindowBits: Int
    /// The largest window the client may compress with, 8–15 bits (15 when the server did not say).
    public var clientMaxWindowBits: Int

    /// Creates agreed parameters.
    ///
    /// ```swift
    /// let defaults = WebSocketDeflateParameters()
    /// ```
    /// - Parameters:
    ///   - serverNoContextTakeover: Whether the server resets its context after each message.
    ///   - clientNoContextTakeover: Whether the client must reset its context after each message.
    ///   - serverMaxWindowBits: The server's window, 8–15 bits.
    ///   - clientMaxWindowBits: The client's window, 8–15 bits.
    public init(
        serverNoContextTakeover: Bool = false,
        clientNoContextTakeover: Bool = false,
        serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// Reads the server's `Sec-WebSocket-Extensions` answer against what the client offered.
    ///
    /// ```swift
    /// let agreed = try WebSocketDeflateParameters.negotiate(
    ///     responseExtensions: response.headers.values(for: "Sec-WebSocket-Extensions"),
    ///     offer: configuration.perMessageDeflate
    /// )
    /// ```
    /// - Parameters:
    ///   - responseExtensions: Every `Sec-WebSocket-Extensions` value of the response, in order.
    ///   - offer: What the client offered, or `nil` when it offered no extension.
    /// - Returns: The agreed parameters, or `nil` when the server accepted no extension.
    /// - Throws: ``WebSocketError/HandshakeCheck/extensions(_:)`` when the server names an extension
    ///   that was not offered, names permessage-deflate twice, or gives a parameter that is unknown,
    ///   repeated, not offered (`client_max_window_bits`) or has a bad value (RFC 7692 §7.1: the
    ///   client must then fail the connection).
    public static func negotiate(
        responseExtensions: [String],
        offer: WebSocketDeflateOffer?
    ) throws(WebSocketError.HandshakeCheck) -> WebSocketDeflateParameters? {
        let elements = try ExtensionHeaderParser.elements(of: responseExtensions)
        guard let element = elements.first else { return nil }
        guard let offer else {
            throw .extensions("the server accepted \(element.name), which was not offered")
        }
        guard element.name.lowercased() == extensionName else {
            throw .extensions("the server accepted \(element.name), which was not offered")
        }
        guard elements.count == 1 else {
            throw .extensions("the server accepted more than one extension")
        }
        var agreed = WebSocketDeflateParameters()
        var seen: Set<String> = []
        for (name, value) in element.parameters {
            let key = name.lowercased()
            guard seen.insert(key).inserted else { throw .extensions("\(name) is repeated") }
            switch key {
            case "server_no_context_takeover":
                guard value == nil else { throw .extensions("\(name) takes no value") }
                agreed.serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard value == nil else { throw .extensions("\(name) takes no value") }
                agreed.clientNoContextTakeover = true
            case "server_max_window_bits":
                let bits = try windowBits(name, value)
                if let offered = offer.serverMaxWindowBits, bits > offered {
                    throw .extensions("\(name)=\(bits) is larger than the \(offered) offered")
                }
                agreed.serverMaxWindowBits = bits
            case "client_max_window_bits":
                guard offer.offersClientMaxWindowBits else { throw .extensions("\(name) was not offered") }
                agreed.clientMaxWindowBits = try windowBits(name, value)
            default:
                throw .extensions("unknown parameter \(name)")
            }
        }
        return agreed
    }

    /// A window size as RFC 7692 §7.1.2 writes it: 8–15 in decimal, no leading zero.
    private static func windowBits(_ name: String, _ value: String?) throws(WebSocketError.HandshakeCheck) -> Int {
        guard let value, let bits = Int(value), (8...15).contains(bits), String(bits) == value else {
            throw .extensions("\(name) needs a value from 8 to 15")
        }
        return bits
    }
}
