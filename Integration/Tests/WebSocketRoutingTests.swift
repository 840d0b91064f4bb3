import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import CourierWebSocket
import CourierWebSocketEngine
import Foundation
import Testing

/// WebSockets through the proxies (RFC 6455 §4.1: a CONNECT tunnel, for ws as well as wss) and
/// under pinned trust policies, decided before the handshake's first byte.
///
/// Not covered: wss through nginx's HTTP/2 TLS port. That nginx does not proxy WebSockets (no
/// `Upgrade` pass-through in its configuration), so there is no WebSocket to reach on it; the raw
/// connection's own tests show that ALPN offers `http/1.1` only there.
@Suite struct WebSocketRoutingTests {
    static var proxy: String? { CurlTestServers.value("TEST_PROXY_URL") }
    static var httpsProxy: String? { CurlTestServers.value("TEST_HTTPS_PROXY_URL") }
    static var hasProxies: Bool { proxy != nil && httpsProxy != nil && WebSocketEchoTests.hasServers }

    @Test(
        .enabled(if: hasProxies, "TEST_PROXY_URL, TEST_HTTPS_PROXY_URL or the WebSocket servers not set"),
        arguments: [
            ("TEST_PROXY_URL", false), ("TEST_PROXY_URL", true), ("TEST_HTTPS_PROXY_URL", false),
            ("TEST_HTTPS_PROXY_URL", true),
        ]
    )
    func echoesThroughTheProxies(proxyKey: String, secure: Bool) async throws {
        let proxy = try #require(CurlTestServers.value(proxyKey))
        let throughProxy: (inout CurlTransport.Configuration) -> Void = {
            $0.proxy = .explicit(url: proxy, credentials: nil, noProxy: [])
            $0.proxyTLS.caFile = CurlTestServers.caFile
        }
        try await WebSocketTestServers.withConnection(secure: secure, path: "/echo", adjust: throughProxy) { socket in
            let text = String(repeating: "through the tunnel ", count: 100)
            try await socket.send(.text(text))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text(text))
        }
    }

    @Test(.enabled(if: WebSocketEchoTests.hasServers, "the WebSocket servers or TEST_CA_FILE not set"))
    func pinnedPolicyAcceptsTheServer() async throws {
        let verifier = OpenSSLCertificateVerifier()
        let certificateFile = try #require(CurlTestServers.value("TEST_SERVER_CERT"))
        let certificates = try PinnedCertificateLoader.certificates(contentsOfFile: certificateFile, using: verifier)
        let leaf = try #require(certificates.first)
        for mode in [PinningMode.certificate, .publicKey] {
            let pinned: (inout CurlTransport.Configuration) -> Void = {
                $0.trustInstaller = OpenSSLTrustHook(
                    evaluator: SecurityPolicy(pinningMode: mode, pinnedCertificates: [leaf], verifier: verifier)
                )
            }
            try await WebSocketTestServers.withConnection(secure: true, path: "/echo", adjust: pinned) { socket in
                try await socket.send(.text("pinned"))
                var iterator = socket.messages.makeAsyncIterator()
                #expect(try await iterator.next() == .text("pinned"))
            }
        }
    }

    @Test(.enabled(if: TLSByteCounter.isAvailable, "COURIER_PYTHON or TEST_SERVER_KEY not set"))
    func refusedPinSendsNoHandshakeByte() async throws {
        let verifier = OpenSSLCertificateVerifier()
        let other = try PinnedCertificateLoader.certificates(
            contentsOfFile: try #require(CurlTestServers.value("TEST_OTHER_CA_FILE")),
            using: verifier
        )
        let server = try await TLSByteCounter.start(connections: 2)
        let port = try #require(server.ready["PORT"])
        let url = try #require(URL(string: "wss://127.0.0.1:\(port)/probe"))
        let pinned = CurlTestServers.transport {
            $0.trustInstaller = OpenSSLTrustHook(
                evaluator: SecurityPolicy(pinningMode: .certificate, pinnedCertificates: other, verifier: verifier)
            )
        }
        let error = await WebSocketEchoTests.webSocketError {
            _ = try await WebSocketConnector().connect(
                HTTPRequest(url: url),
                configuration: WebSocketConfiguration(),
                over: pinned
            )
        }
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            await pinned.shutdown()
            return
        }
        #expect(transportError.category == .serverTrustFailed)
        await pinned.shutdown()
        // The control: trusted, the handshake's request line arrives (the counter answers 200: refused).
        let trusting = CurlTestServers.transport()
        let control = await WebSocketEchoTests.webSocketError {
            _ = try await WebSocketConnector().connect(
                HTTPRequest(url: url),
                configuration: WebSocketConfiguration(),
                over: trusting
            )
        }
        await trusting.shutdown()
        guard case .handshakeRefused(let response) = control else {
            Issue.record("the control was not answered 200: \(String(describing: control))")
            return
        }
        #expect(response.status.code == 200)
        try await TLSByteCounter.expectRejectionsThenControl(server, rejected: 1)
    }
}
