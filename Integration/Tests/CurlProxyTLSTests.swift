import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// Transfers through the HTTPS proxies of `ci/servers` (stunnel in front of tinyproxy), with the
/// proxy's own TLS settings (`CurlTransport.Configuration.proxyTLS`).
@Suite struct CurlProxyTLSTests {
    static var httpsProxy: String? { CurlTestServers.value("TEST_HTTPS_PROXY_URL") }
    static var clientCertificateProxy: String? { CurlTestServers.value("TEST_MTLS_PROXY_URL") }
    static var clientCertificate: String? { CurlTestServers.value("TEST_CLIENT_CERT") }
    static var clientKey: String? { CurlTestServers.value("TEST_CLIENT_KEY") }
    static var otherCA: String? { CurlTestServers.value("TEST_OTHER_CA_FILE") }
    static var ready: Bool { httpsProxy != nil && CurlTestServers.hasHTTP && CurlTestServers.hasTLS }

    private func transport(
        proxy: String,
        _ adjust: (inout CurlTransport.Configuration) -> Void
    ) -> CurlTransport {
        CurlTestServers.transport {
            $0.proxy = .explicit(url: proxy, credentials: nil, noProxy: [])
            adjust(&$0)
        }
    }

    private func fetchSmall(_ base: URL, through transport: CurlTransport) async -> RecordedTransfer {
        await record(transport.startTransfer(HTTPRequest(url: base.adding("/small"))))
    }

    @Test(.enabled(if: ready, "TEST_HTTPS_PROXY_URL not set"))
    func passesThroughAnHTTPSProxyWhoseCAIsGiven() async throws {
        let proxy = try #require(Self.httpsProxy)
        for base in [try #require(CurlTestServers.http), try #require(CurlTestServers.https)] {
            let transport = transport(proxy: proxy) { $0.proxyTLS.caFile = CurlTestServers.caFile }
            let result = await fetchSmall(base, through: transport)
            #expect(result.error == nil, "\(base): \(String(describing: result.error))")
            #expect(result.response?.status.code == 200)
            #expect(result.body.count == 100)
            #expect(result.metrics?.remotePort == URL(string: proxy)?.port)
            await transport.shutdown()
        }
    }

    @Test(.enabled(if: ready, "TEST_HTTPS_PROXY_URL not set"))
    func failsWithATrustErrorWithoutTheProxysCA() async throws {
        let proxy = try #require(Self.httpsProxy)
        let base = try #require(CurlTestServers.http)
        // The server's CA alone does not make the proxy trusted: the proxy has its own anchors.
        let transport = transport(proxy: proxy) { $0.proxyTLS.caFile = Self.otherCA }
        let result = await fetchSmall(base, through: transport)
        #expect(result.response == nil)
        #expect(result.error?.category == .serverTrustFailed)
        #expect(result.error?.code == 60)
        #expect(result.error?.message.hasPrefix("the HTTPS proxy's certificate did not verify") == true)
        await transport.shutdown()
    }

    @Test(.enabled(if: ready, "TEST_HTTPS_PROXY_URL not set"))
    func anUntrustedServerBehindATrustedProxyFailsItsHandshake() async throws {
        let proxy = try #require(Self.httpsProxy)
        let base = try #require(CurlTestServers.https)
        let transport = transport(proxy: proxy) {
            $0.proxyTLS.caFile = CurlTestServers.caFile
            $0.tls.caFile = Self.otherCA
        }
        let result = await fetchSmall(base, through: transport)
        // libcurl 7.88 (the curl tool too) reports an untrusted server behind an HTTPS proxy as 35
        // "SSL_ERROR_SYSCALL", not 60, and leaves no verify result that tells it apart from another
        // handshake failure: the error mapping can only say tlsFailed.
        #expect(result.error?.category == .tlsFailed)
        #expect(result.error?.code == 35)
        #expect(result.error?.message.contains("proxy") == false, "\(String(describing: result.error))")
        await transport.shutdown()
    }

    @Test(.enabled(if: ready, "TEST_HTTPS_PROXY_URL not set"))
    func skipsTheProxysChainAndHostWhenVerificationIsOff() async throws {
        let proxy = try #require(Self.httpsProxy)
        let base = try #require(CurlTestServers.http)
        let transport = transport(proxy: proxy) {
            $0.proxyTLS.caFile = Self.otherCA
            $0.proxyTLS.verifiesPeer = false
            $0.proxyTLS.verifiesHost = false
        }
        let result = await fetchSmall(base, through: transport)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.response?.status.code == 200)
        await transport.shutdown()
    }

    @Test(.enabled(if: ready && clientCertificateProxy != nil, "TEST_MTLS_PROXY_URL not set"))
    func presentsAClientCertificateToTheProxy() async throws {
        let proxy = try #require(Self.clientCertificateProxy)
        let base = try #require(CurlTestServers.http)
        let identity = CurlTransport.ClientCertificate(
            path: try #require(Self.clientCertificate),
            keyPath: Self.clientKey
        )
        let withCertificate = transport(proxy: proxy) {
            $0.proxyTLS.caFile = CurlTestServers.caFile
            $0.proxyTLS.clientCertificate = identity
        }
        let accepted = await fetchSmall(base, through: withCertificate)
        #expect(accepted.error == nil, "\(String(describing: accepted.error))")
        #expect(accepted.body.count == 100)
        await withCertificate.shutdown()

        // The server's client certificate is not the proxy's: without a proxy identity, stunnel refuses.
        let withoutCertificate = transport(proxy: proxy) {
            $0.proxyTLS.caFile = CurlTestServers.caFile
            $0.tls.clientCertificate = identity
        }
        let refused = await fetchSmall(base, through: withoutCertificate)
        #expect(refused.response == nil)
        // Over TLS 1.3 the proxy checks the certificate after the client's handshake is done, so
        // libcurl sees the refusal as a broken connection (55, measured) or, when the alert
        // arrives first, as a TLS failure; never a response.
        let category = try #require(refused.error?.category)
        #expect([.tlsFailed, .connectionLost, .proxyFailed].contains(category), "\(String(describing: refused.error))")
        await withoutCertificate.shutdown()
    }

    @Test func rejectsLineBreaksInProxyTLSPaths() {
        var configuration = CurlTransport.Configuration()
        configuration.proxyTLS.caFile = "/etc/ca.pem\nX: y"
        #expect(throws: TransportError.self) { try configuration.validate() }
    }
}
