import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct CurlTransportConfigurationTests {
    private func failure(_ adjust: (inout CurlTransport.Configuration) -> Void) -> TransportError? {
        var configuration = CurlTransport.Configuration()
        adjust(&configuration)
        do {
            try configuration.validate()
            return nil
        } catch {
            return error
        }
    }

    @Test func acceptsDefaults() throws {
        try CurlTransport.Configuration().validate()
        let defaults = CurlTransport.Configuration()
        #expect(defaults.maxConnectionsPerHost == 32)
        #expect(defaults.connectionCacheSize == 64)
        #expect(defaults.receiveBufferSize == 256 << 10)
        #expect(defaults.connectTimeout == .seconds(30))
        #expect(defaults.idleTimeout == .seconds(60))
        #expect(defaults.totalTimeout == nil)
        #expect(defaults.httpVersion == .automatic)
        #expect(defaults.proxy == .environment)
        #expect(defaults.tls.verifiesPeer && defaults.tls.verifiesHost)
        #expect(defaults.cookiePolicy == .enabled)
    }

    @Test func rejectsContradictions() {
        #expect(failure { $0.maxConnectionsPerHost = 0 }?.message == "maxConnectionsPerHost must be at least 1")
        #expect(failure { $0.maxTotalConnections = 0 }?.category == .configuration)
        #expect(failure { $0.connectTimeout = .zero }?.message == "connectTimeout must be positive")
        #expect(failure { $0.idleTimeout = .seconds(-1) }?.category == .configuration)
        #expect(failure { $0.receiveBufferSize = 100 }?.message == "receiveBufferSize must lie in 1 KiB...10 MiB")
        #expect(failure { $0.maximumHeaderSize = 10 }?.category == .configuration)
        #expect(failure { $0.unixSocketPath = "" }?.message == "unixSocketPath must not be empty")
        #expect(
            failure { $0.resolveOverrides = [.init(host: "a.test", port: 80, addresses: [])] }?.message
                == "a resolve override needs a host and at least one address"
        )
        #expect(failure { $0.tls.caFile = "/tmp/ca\n.pem" }?.category == .configuration)
    }

    @Test func formatsRoutingEntriesForLibcurl() {
        let resolve = CurlTransport.ResolveOverride(host: "api.test", port: 443, addresses: ["127.0.0.1", "::1"])
        #expect(resolve.curlValue == "api.test:443:127.0.0.1,::1")
        let connect = CurlTransport.ConnectOverride(
            host: "api.test",
            port: 80,
            targetHost: "127.0.0.1",
            targetPort: 8080
        )
        #expect(connect.curlValue == "api.test:80:127.0.0.1:8080")
        let wildcard = CurlTransport.ConnectOverride(host: "", port: nil, targetHost: "127.0.0.1", targetPort: nil)
        #expect(wildcard.curlValue == "::127.0.0.1:")
    }

    @Test func requiresOpenSSLAndHTTP2() {
        #expect(CurlRuntime.checkCapabilities(sslVersion: "OpenSSL/3.0.19", hasHTTP2: true) == nil)
        #expect(
            CurlRuntime.checkCapabilities(sslVersion: "GnuTLS/3.7.9", hasHTTP2: true)?.message
                == "libcurl uses GnuTLS/3.7.9, not OpenSSL; install the libcurl4-openssl flavour"
        )
        #expect(
            CurlRuntime.checkCapabilities(sslVersion: "OpenSSL/3.0.19", hasHTTP2: false)?.category == .configuration
        )
        #expect(CurlRuntime.startupError == nil)
    }

    @Test func failsTransfersOfAnInvalidConfigurationWithoutCrashing() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 0
        let transport = CurlTransport(configuration: configuration)
        #expect(transport.configurationError?.category == .configuration)
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        var failures: [TransportError] = []
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            if case .failed(let error) = event { failures.append(error) }
        }
        #expect(failures.map(\.category) == [.configuration])
        await transport.shutdown()
    }

    @Test func convertsDurationsToWholeMilliseconds() {
        #expect(CurlTransferState.milliseconds(.seconds(2)) == 2000)
        #expect(CurlTransferState.milliseconds(.microseconds(1500)) == 2)
        #expect(CurlTransferState.milliseconds(.nanoseconds(1)) == 1)
        #expect(CurlTransferState.milliseconds(.seconds(Int64.max)) == Int.max)
    }

    @Test func decidesWhichRequestsCarryBodies() throws {
        let url = try #require(URL(string: "http://127.0.0.1/"))
        #expect(!CurlTransferState.sendsBody(HTTPRequest(method: .get, url: url)))
        #expect(!CurlTransferState.sendsBody(HTTPRequest(method: .delete, url: url)))
        #expect(CurlTransferState.sendsBody(HTTPRequest(method: .post, url: url)))
        #expect(CurlTransferState.sendsBody(HTTPRequest(method: .put, url: url)))
        #expect(CurlTransferState.sendsBody(HTTPRequest(method: .delete, url: url, body: HTTPBody(Data([1])))))
        #expect(!CurlTransferState.sendsBody(HTTPRequest(method: .head, url: url, body: HTTPBody(Data([1])))))
    }
}
