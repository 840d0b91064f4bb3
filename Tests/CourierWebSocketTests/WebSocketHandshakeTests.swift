import CourierHTTP
import CourierWebSocket
import Foundation
import Testing

@Suite struct WebSocketHandshakeTests {
    // RFC 6455 §1.3 and §4.1: the sample nonce "the sample nonce" is the 16 key bytes.
    private let keyBytes = Array("the sample nonce".utf8)
    private let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="
    private let sampleAccept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private func handshake(
        _ url: String = "ws://server.example.com/chat",
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) throws -> WebSocketHandshake {
        try WebSocketHandshake(url: try #require(URL(string: url)), configuration: configuration, keyBytes: keyBytes)
    }

    private func response(status: Int = 101, _ fields: [(String, String)]) throws -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: status), headers: try HTTPHeaders(fields))
    }

    private var validFields: [(String, String)] {
        [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", sampleAccept)]
    }

    @Test func computesTheRFCsAcceptValue() {
        #expect(WebSocketHandshake.acceptValue(forKey: sampleKey, sha1: sha1) == sampleAccept)
    }

    @Test func buildsTheUpgradeRequest() throws {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["chat", "superchat"]
        let handshake = try handshake("ws://server.example.com/chat?room=1", configuration: configuration)
        let request = handshake.request
        #expect(request.method == .get)
        #expect(request.url.absoluteString == "http://server.example.com/chat?room=1")
        #expect(handshake.key == sampleKey)
        #expect(request.headers["Host"] == "server.example.com")
        #expect(request.headers["Upgrade"] == "websocket")
        #expect(request.headers["Connection"] == "Upgrade")
        #expect(request.headers["Sec-WebSocket-Key"] == sampleKey)
        #expect(request.headers["Sec-WebSocket-Version"] == "13")
        #expect(request.headers["Sec-WebSocket-Protocol"] == "chat, superchat")
        #expect(request.headers["Sec-WebSocket-Extensions"] == "permessage-deflate; client_max_window_bits")
    }

    @Test func mapsSecureURLsAndKeepsPorts() throws {
        let secure = try handshake("wss://example.com:8443/socket")
        #expect(secure.request.url.absoluteString == "https://example.com:8443/socket")
        #expect(secure.request.headers["Host"] == "example.com:8443")
        let ipv6 = try handshake("ws://[::1]:9000/")
        #expect(ipv6.request.headers["Host"] == "[::1]:9000")
        #expect(try handshake("WSS://example.com").request.url.scheme == "https")
    }

    @Test func leavesOutWhatIsNotOffered() throws {
        var configuration = WebSocketConfiguration()
        configuration.perMessageDeflate = nil
        let request = try handshake(configuration: configuration).request
        #expect(!request.headers.contains(name: "Sec-WebSocket-Extensions"))
        #expect(!request.headers.contains(name: "Sec-WebSocket-Protocol"))
    }

    @Test func keepsExtraHeadersWithoutOverridingTheHandshake() throws {
        var configuration = WebSocketConfiguration()
        configuration.additionalHeaders = try HTTPHeaders([
            ("Authorization", "Bearer t"), ("Origin", "https://app.example"), ("Upgrade", "h2c"),
            ("sec-websocket-key", "forged"), ("Host", "evil.example"), ("Sec-WebSocket-Version", "8"),
        ])
        let headers = try handshake(configuration: configuration).request.headers
        #expect(headers["Authorization"] == "Bearer t")
        #expect(headers["Origin"] == "https://app.example")
        #expect(headers.values(for: "Upgrade") == ["websocket"])
        #expect(headers.values(for: "Sec-WebSocket-Key") == [sampleKey])
        #expect(headers.values(for: "Host") == ["server.example.com"])
        #expect(headers.values(for: "Sec-WebSocket-Version") == ["13"])
    }

    @Test func refusesRequestsThatCannotBeMade() throws {
        let url = try #require(URL(string: "ws://example.com/"))
        func reason(_ body: () throws(WebSocketError) -> WebSocketHandshake) -> String? {
            if case .invalidRequest(let detail) = caught(body) { return detail }
            return nil
        }
        #expect(reason { () throws(WebSocketError) in try WebSocketHandshake(url: url, keyBytes: [1, 2]) } != nil)
        for bad in ["ftp://example.com/", "ws:///path", "ws://example.com/#fragment"] {
            let badURL = try #require(URL(string: bad))
            #expect(
                reason { () throws(WebSocketError) in try WebSocketHandshake(url: badURL, keyBytes: keyBytes) } != nil,
                "\(bad)"
            )
        }
        for subprotocols in [["a b"], [""], ["chat", "chat"]] {
            var configuration = WebSocketConfiguration()
            configuration.subprotocols = subprotocols
            #expect(
                reason { () throws(WebSocketError) in
                    try WebSocketHandshake(url: url, configuration: configuration, keyBytes: keyBytes)
                } != nil
            )
        }
    }

    @Test func acceptsAValidResponse() throws {
        let agreement = try handshake().validate(try response(validFields), sha1: sha1)
        #expect(agreement == WebSocketHandshake.Agreement())
    }

    @Test func matchesUpgradeAndConnectionTokensCaseInsensitively() throws {
        let fields = [
            ("Upgrade", "WebSocket"), ("Connection", "keep-alive, UPGRADE"), ("Sec-WebSocket-Accept", sampleAccept),
        ]
        #expect(throws: Never.self) { try handshake().validate(try response(fields), sha1: sha1) }
    }

    @Test func reportsRefusalsAndRedirectsWithTheResponse() throws {
        let handshake = try handshake()
        let forbidden = try response(status: 403, [("X", "y")])
        let refused = caught { () throws(WebSocketError) in try handshake.validate(forbidden, sha1: sha1) }
        guard case .handshakeRefused(let refusal)? = refused else {
            Issue.record("expected handshakeRefused, got \(String(describing: refused))")
            return
        }
        #expect(refusal.status.code == 403)
        let found = try response(status: 302, [("Location", "wss://other.example/")])
        let redirected = caught { () throws(WebSocketError) in try handshake.validate(found, sha1: sha1) }
        guard case .redirectNotFollowed(let redirect)? = redirected else {
            Issue.record("expected redirectNotFollowed, got \(String(describing: redirected))")
            return
        }
        #expect(redirect.headers["Location"] == "wss://other.example/")
        #expect(refused?.closeCode == nil)
    }

    private func check(_ fields: [(String, String)], configuration: WebSocketConfiguration = WebSocketConfiguration())
        throws
        -> WebSocketError.HandshakeCheck?
    {
        let handshake = try handshake(configuration: configuration)
        let response = try response(fields)
        if case .invalidHandshakeResponse(let check, let carried) = caught({ () throws(WebSocketError) in
            try handshake.validate(response, sha1: sha1)
        }) {
            #expect(carried == response)
            return check
        }
        return nil
    }

    @Test func namesTheCheckThatFailed() throws {
        let accept = ("Sec-WebSocket-Accept", sampleAccept)
        #expect(try check([("Connection", "Upgrade"), accept]) == .upgradeHeader)
        #expect(try check([("Upgrade", "h2c"), ("Connection", "Upgrade"), accept]) == .upgradeHeader)
        #expect(try check([("Upgrade", "websocket"), accept]) == .connectionHeader)
        #expect(try check([("Upgrade", "websocket"), ("Connection", "close"), accept]) == .connectionHeader)
        #expect(try check([("Upgrade", "websocket"), ("Connection", "Upgrade")]) == .acceptHeader)
        #expect(
            try check([("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "AAAA")])
                == .acceptHeader
        )
    }

    @Test func acceptsOnlyAnOfferedSubprotocol() throws {
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["chat", "superchat"]
        let handshake = try handshake(configuration: configuration)
        let chosen = try handshake.validate(
            try response(validFields + [("Sec-WebSocket-Protocol", "superchat")]),
            sha1: sha1
        )
        #expect(chosen.subprotocol == "superchat")
        #expect(
            try check(validFields + [("Sec-WebSocket-Protocol", "other")], configuration: configuration) == .subprotocol
        )
        #expect(
            try check(validFields + [("Sec-WebSocket-Protocol", "chat, superchat")], configuration: configuration)
                == .subprotocol
        )
        #expect(try check(validFields + [("Sec-WebSocket-Protocol", "chat")]) == .subprotocol)  // none offered
    }

    @Test func agreesToDeflateOrRefusesAnUnofferedExtension() throws {
        let agreement = try handshake().validate(
            try response(
                validFields + [("Sec-WebSocket-Extensions", "permessage-deflate; server_no_context_takeover")]
            ),
            sha1: sha1
        )
        #expect(agreement.deflate == WebSocketDeflateParameters(serverNoContextTakeover: true))
        let configuration = WebSocketConfiguration()
        let parser = WebSocketFrameParser(configuration: configuration, agreement: agreement)
        #expect(parser.allowsCompression && parser.maximumFrameSize == 16 << 20)
        let assembler = WebSocketMessageAssembler(configuration: configuration, agreement: agreement)
        #expect(assembler.deflate == agreement.deflate && assembler.maximumMessageSize == 16 << 20)
        let plain = WebSocketFrameParser(configuration: configuration, agreement: WebSocketHandshake.Agreement())
        #expect(!plain.allowsCompression)
        var noDeflate = WebSocketConfiguration()
        noDeflate.perMessageDeflate = nil
        let unoffered = try check(
            validFields + [("Sec-WebSocket-Extensions", "permessage-deflate")],
            configuration: noDeflate
        )
        guard case .extensions? = unoffered else {
            Issue.record("expected an extensions check, got \(String(describing: unoffered))")
            return
        }
    }
}
