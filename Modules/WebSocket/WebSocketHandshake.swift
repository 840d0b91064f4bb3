public import CourierHTTP
public import FoundationEssentials

/// The opening handshake of RFC 6455 §4.1, client side: the upgrade request, and the checks the
/// server's response must pass.
///
/// The engine draws 16 random bytes for the key, sends ``request`` through the transport's raw
/// connection, and hands the response head to ``validate(_:sha1:)`` with its SHA-1 function (this
/// module links no C library); what comes back is what was agreed.
///
/// ```swift
/// var generator = SystemRandomNumberGenerator()
/// let keyBytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
/// let handshake = try WebSocketHandshake(url: URL(string: "wss://echo.example/chat")!, keyBytes: keyBytes)
/// let response = try await connection.open(handshake.request)
/// let agreement = try handshake.validate(response, sha1: OpenSSLDigest.sha1)
/// print(agreement.subprotocol ?? "no subprotocol", agreement.deflate != nil)
/// ```
public struct WebSocketHandshake: Sendable {
    /// The GUID that RFC 6455 §1.3 appends to the key before hashing it.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The header fields the handshake owns; ``WebSocketConfiguration/additionalHeaders`` cannot set them.
    static let handshakeFieldNames = [
        "Host", "Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol",
        "Sec-WebSocket-Extensions", "Sec-WebSocket-Accept",
    ]

    /// The `ws://` or `wss://` URL the connection was asked for.
    public let url: URL
    /// The upgrade request, with the URL mapped to `http://` or `https://` for the transport.
    public let request: HTTPRequest
    /// The `Sec-WebSocket-Key` sent: the 16 key bytes in base64.
    public let key: String
    /// The configuration the request was built from (its subprotocols and deflate offer are what
    /// the response is checked against).
    public let configuration: WebSocketConfiguration

    /// What the server agreed to in a valid response.
    public struct Agreement: Sendable, Hashable {
        /// The subprotocol the server chose from those offered, or `nil`.
        public var subprotocol: String?
        /// The permessage-deflate parameters, or `nil` when compression was not agreed.
        public var deflate: WebSocketDeflateParameters?

        /// Creates an agreement.
        ///
        /// ```swift
        /// let agreement = WebSocketHandshake.Agreement(subprotocol: "chat", deflate: nil)
        /// ```
        /// - Parameters:
        ///   - subprotocol: The subprotocol chosen, or `nil`.
        ///   - deflate: The agreed permessage-deflate parameters, or `nil`.
        public init(subprotocol: String? = nil, deflate: WebSocketDeflateParameters? = nil) {
            self.subprotocol = subprotocol
            self.deflate = deflate
        }
    }

    /// Builds the upgrade request.
    ///
    /// ```swift
    /// let handshake = try WebSocketHandshake(url: url, configuration: configuration, keyBytes: keyBytes)
    /// ```
    /// - Parameters:
    ///   - url: A `ws://` or `wss://` URL (`http://` and `https://` are taken as their equivalents)
    ///     with a host and no fragment (RFC 6455 §3).
    ///   - configuration: The subprotocols, the deflate offer and the extra headers.
    ///   - keyBytes: 16 random bytes, fresh for this handshake (RFC 6455 §4.1, step 7).
    /// - Throws: ``WebSocketError/invalidRequest(_:)`` for another scheme, no host, a fragment, a key
    ///   that is not 16 bytes, or a subprotocol that is not a token or is offered twice.
    public init(
        url: URL,
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        keyBytes: [UInt8]
    ) throws(WebSocketError) {
        guard keyBytes.count == 16 else {
            throw .invalidRequest("the key must be 16 random bytes, not \(keyBytes.count)")
        }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            throw .invalidRequest("\(url.absoluteString) is not a URL")
        }
        switch components.scheme?.lowercased() {
        case "ws", "http": components.scheme = "http"
        case "wss", "https": components.scheme = "https"
        default: throw .invalidRequest("\(url.absoluteString) is not a ws:// or wss:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw .invalidRequest("\(url.absoluteString) has no host")
        }
        guard components.fragment == nil else {
            throw .invalidRequest("\(url.absoluteString) has a fragment, which a WebSocket URL may not have")
        }
        var seen: Set<String> = []
        for subprotocol in configuration.subprotocols {
            guard ExtensionHeaderParser.isToken(subprotocol) else {
                throw .invalidRequest("subprotocol \"\(subprotocol)\" is not a token")
            }
            guard seen.insert(subprotocol).inserted else {
                throw .invalidRequest("subprotocol \(subprotocol) is offered twice")
            }
        }
        guard let httpURL = components.url else {
            throw .invalidRequest("\(url.absoluteString) cannot be mapped to HTTP")
        }
        let key = Data(keyBytes).base64EncodedString()
        let hostField = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        var fields: [HTTPHeaders.Field] = []
        func field(_ name: String, _ value: String) throws(WebSocketError) {
            do {
                fields.append(try HTTPHeaders.Field(name: name, value: value))
            } catch {
                throw .invalidRequest("header \(name): \(error)")
            }
        }
        try field("Host", components.port.map { "\(hostField):\($0)" } ?? hostField)
        try field("Upgrade", "websocket")
        try field("Connection", "Upgrade")
        try field("Sec-WebSocket-Key", key)
        try field("Sec-WebSocket-Version", "13")
        if !configuration.subprotocols.isEmpty {
            try field("Sec-WebSocket-Protocol", configuration.subprotocols.joined(separator: ", "))
        }
        if let offer = configuration.perMessageDeflate {
            try field("Sec-WebSocket-Extensions", offer.extensionHeaderValue)
        }
        var headers = HTTPHeaders()
        for field in fields { headers.add(field) }
        for field in configuration.additionalHeaders
        where !Self.handshakeFieldNames.contains(where: { HTTPHeaders.namesMatch($0, field.name) }) {
            headers.add(field)
        }
        self.url = url
        self.key = key
        self.configuration = configuration
        self.request = HTTPRequest(method: .get, url: httpURL, headers: headers)
    }

    /// The `Sec-WebSocket-Accept` value a server must answer `key` with: base64(SHA-1(key + GUID)).
    ///
    /// ```swift
    /// WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==", sha1: sha1)
    /// // "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="  (RFC 6455 §1.3)
    /// ```
    /// - Parameters:
    ///   - key: The `Sec-WebSocket-Key` sent.
    ///   - sha1: A SHA-1 function: 20 bytes of digest for the bytes given.
    /// - Returns: The expected accept value.
    public static func acceptValue(forKey key: String, sha1: ([UInt8]) -> [UInt8]) -> String {
        Data(sha1(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// Checks the server's response to ``request`` (RFC 6455 §4.1, the client's checks 1–6).
    ///
    /// ```swift
    /// let agreement = try handshake.validate(response, sha1: OpenSSLDigest.sha1)
    /// ```
    /// - Parameters:
    ///   - response: The response head.
    ///   - sha1: A SHA-1 function: 20 bytes of digest for the bytes given.
    /// - Returns: The subprotocol and extension the server agreed to.
    /// - Throws: ``WebSocketError/redirectNotFollowed(_:)`` for a 3xx,
    ///   ``WebSocketError/handshakeRefused(_:)`` for another status than 101, and
    ///   ``WebSocketError/invalidHandshakeResponse(_:_:)`` naming the first check that failed.
    public func validate(_ response: HTTPResponse, sha1: ([UInt8]) -> [UInt8]) throws(WebSocketError) -> Agreement {
        switch response.status.code {
        case 101: break
        case 300...399: throw .redirectNotFollowed(response)
        default: throw .handshakeRefused(response)
        }
        let headers = response.headers
        guard Self.tokens(headers.values(for: "Upgrade")).contains(where: { $0.lowercased() == "websocket" }) else {
            throw .invalidHandshakeResponse(.upgradeHeader, response)
        }
        guard Self.tokens(headers.values(for: "Connection")).contains(where: { $0.lowercased() == "upgrade" }) else {
            throw .invalidHandshakeResponse(.connectionHeader, response)
        }
        let accept = headers.values(for: "Sec-WebSocket-Accept")
        guard accept.count == 1, ExtensionHeaderParser.trimmed(accept[0]) == Self.acceptValue(forKey: key, sha1: sha1)
        else {
            throw .invalidHandshakeResponse(.acceptHeader, response)
        }
        var agreement = Agreement()
        let chosen = Self.tokens(headers.values(for: "Sec-WebSocket-Protocol"))
        if !chosen.isEmpty {
            guard chosen.count == 1, configuration.subprotocols.contains(chosen[0]) else {
                throw .invalidHandshakeResponse(.subprotocol, response)
            }
            agreement.subprotocol = chosen[0]
        }
        do {
            agreement.deflate = try WebSocketDeflateParameters.negotiate(
                responseExtensions: headers.values(for: "Sec-WebSocket-Extensions"),
                offer: configuration.perMessageDeflate
            )
        } catch {
            throw .invalidHandshakeResponse(error, response)
        }
        return agreement
    }

    /// The comma-separated elements of every value, trimmed, empty ones dropped.
    private static func tokens(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { ExtensionHeaderParser.trimmed(String($0)) }.filter {
            !$0.isEmpty
        }
    }
}
