import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlRoutingTests {
    @Test(.enabled(if: CurlTestServers.hasTLS && CurlTestServers.proxy != nil, "TEST_PROXY_URL not set"))
    func tunnelsThroughProxy() async throws {
        let base = try #require(CurlTestServers.https)
        let proxy = try #require(CurlTestServers.proxy)
        let transport = CurlTestServers.transport { $0.proxy = .explicit(url: proxy, credentials: nil, noProxy: []) }
        let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1024)
        #expect(result.response.status.code == 200)
        #expect(result.response.version == .http2)
        #expect(result.body.count == 100)
        #expect(result.metrics.remotePort == URL(string: proxy)?.port)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func bypassesProxyForNoProxyHosts() async throws {
        let base = try #require(CurlTestServers.http)
        let port = try closedLoopbackPort()
        let transport = CurlTestServers.transport {
            $0.proxy = .explicit(url: "http://127.0.0.1:\(port)", credentials: nil, noProxy: ["127.0.0.1"])
        }
        let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1024)
        #expect(result.response.status.code == 200)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.unixSocket != nil, "TEST_UNIX_SOCKET not set"))
    func connectsThroughUnixSocket() async throws {
        let socket = try #require(CurlTestServers.unixSocket)
        let transport = CurlTestServers.transport { $0.unixSocketPath = socket }
        let url = try #require(URL(string: "http://localhost/small"))
        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1024)
        #expect(result.response.status.code == 200)
        #expect(result.body.count == 100)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func resolvesOverriddenNames() async throws {
        let base = try #require(CurlTestServers.http)
        let port = try #require(base.port)
        let transport = CurlTestServers.transport {
            $0.resolveOverrides = [.init(host: "courier.test", port: port, addresses: ["127.0.0.1"])]
        }
        let url = try #require(URL(string: "http://courier.test:\(port)/request-headers"))
        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 16)
        #expect(String(decoding: result.body, as: UTF8.self).contains("\r\nHost: courier.test:\(port)\r\n"))
        #expect(result.metrics.remoteAddress == "127.0.0.1")
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func connectsToOverriddenTarget() async throws {
        let base = try #require(CurlTestServers.http)
        let port = try #require(base.port)
        let transport = CurlTestServers.transport {
            $0.connectOverrides = [.init(host: "api.example.test", port: 80, targetHost: "127.0.0.1", targetPort: port)]
        }
        let url = try #require(URL(string: "http://api.example.test/request-headers"))
        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 16)
        #expect(String(decoding: result.body, as: UTF8.self).contains("\r\nHost: api.example.test\r\n"))
        #expect(result.metrics.remotePort == port)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS && CurlTestServers.value("TEST_CLIENT_CERT") != nil, "no client cert"))
    func presentsClientCertificate() async throws {
        let base = try #require(CurlTestServers.https)
        let certificate = try #require(CurlTestServers.value("TEST_CLIENT_CERT"))
        let key = try #require(CurlTestServers.value("TEST_CLIENT_KEY"))
        let transport = CurlTestServers.transport {
            $0.tls.clientCertificate = .init(path: certificate, format: .pem, keyPath: key)
        }
        let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/client-cert"))).collect(
            upTo: 1024
        )
        #expect(String(decoding: result.body, as: UTF8.self).hasPrefix("SUCCESS CN=courier-test-client"))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func trustsHashedCADirectory() async throws {
        let base = try #require(CurlTestServers.https)
        let caFile = try #require(CurlTestServers.caFile)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: caFile, toPath: directory.appendingPathComponent("ca.pem").path)
        let rehash = try await runProcess("/usr/bin/openssl", ["rehash", directory.path])
        #expect(rehash == 0)
        let transport = CurlTestServers.transport {
            $0.tls.caFile = "/nonexistent-bundle.pem"
            $0.tls.caDirectory = directory.path
        }
        // CAINFO that does not exist is an error even with a CA directory: name none instead.
        let failing = await record(transport.startTransfer(HTTPRequest(url: base.adding("/small"))))
        #expect(failing.error?.category == .tlsFailed)
        #expect(failing.error?.code == 77)
        await transport.shutdown()
        let directoryOnly = CurlTestServers.transport {
            $0.tls.caFile = nil
            $0.tls.caDirectory = directory.path
        }
        let result = try await directoryOnly.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1024)
        #expect(result.response.status.code == 200)
        await directoryOnly.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS && CurlTestServers.value("TEST_OTHER_CA_FILE") != nil, "no other CA"))
    func rejectsUntrustedServer() async throws {
        let base = try #require(CurlTestServers.https)
        let transport = CurlTestServers.transport { $0.tls.caFile = CurlTestServers.value("TEST_OTHER_CA_FILE") }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/small"))))
        #expect(recorded.error?.category == .serverTrustFailed)
        #expect(recorded.error?.code == 60)
        #expect(recorded.response == nil)
        await transport.shutdown()
    }
}

/// Runs an executable and awaits its exit status without blocking a cooperative thread.
func runProcess(_ path: String, _ arguments: [String]) async throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    return process.terminationStatus
}
