import CourierCurl
import CourierHTTP
import CourierTransport
import CourierWebSocket
import CourierWebSocketEngine
import Foundation
import Testing

/// wss to nginx's TLS port, which offers h2 in ALPN and proxies `/ws/` to `ws_server.py`: the raw
/// connection offers only `http/1.1` (libcurl 7.88 cannot hand over an HTTP/2 connection), so the
/// upgrade goes out as HTTP/1.1 on a port where ordinary transfers speak HTTP/2.
@Suite struct WebSocketOverHTTP2PortTests {
    static var hasServers: Bool {
        CurlTestServers.https != nil && CurlTestServers.caFile != nil && WebSocketTestServers.ws != nil
    }

    @Test(.enabled(if: hasServers, "TEST_HTTPS_URL, TEST_CA_FILE or COURIER_WS_URL not set"))
    func theUpgradeGoesOutAsHTTP1WhereTransfersSpeakHTTP2() async throws {
        let https = try #require(CurlTestServers.https)
        let host = try #require(https.host)
        let port = try #require(https.port)
        let transport = CurlTestServers.transport()
        do {
            // The control: an ordinary transfer on the same port negotiates HTTP/2.
            var metrics: TransferMetrics?
            for await event in transport.startTransfer(HTTPRequest(url: https)).events {
                if case .completed(let completed) = event { metrics = completed }
            }
            #expect(metrics?.protocolVersion == .http2)

            var request = HTTPRequest(url: try #require(URL(string: "wss://\(host):\(port)/ws/echo")))
            request.timeout = .seconds(20)
            let socket = try await WebSocketConnector().connect(
                request,
                configuration: WebSocketConfiguration(),
                over: transport
            )
            #expect(socket.handshakeResponse.status.code == 101)
            #expect(socket.handshakeResponse.version == .http1_1)
            try await socket.send(.text("through nginx"))
            var iterator = socket.messages.makeAsyncIterator()
            #expect(try await iterator.next() == .text("through nginx"))
            await socket.close()
            #expect(socket.closeStatus == WebSocketClose(code: .normalClosure))
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
    }
}
