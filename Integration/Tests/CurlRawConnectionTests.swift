import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `CurlTransport.openRawConnection` over the loopback servers: an HTTP/1.1 exchange written by
/// hand over plain TCP, TLS, tinyproxy's tunnel and the stunnel HTTPS proxy; trust decided before
/// a byte goes out; read and write backpressure; close and shutdown.
@Suite struct CurlRawConnectionTests {
    static var proxy: String? { CurlTestServers.value("TEST_PROXY_URL") }
    static var httpsProxy: String? { CurlTestServers.value("TEST_HTTPS_PROXY_URL") }
    static var hasProxies: Bool {
        proxy != nil && httpsProxy != nil && CurlTestServers.hasHTTP && CurlTestServers.hasTLS
    }

    /// `GET path` with `Connection: close`, so that the server ends the stream after the answer.
    static func request(_ path: String, host: String = "127.0.0.1") -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
    }

    /// Writes `GET path` and reads the answer to the end of the stream.
    static func exchange(_ connection: any RawConnection, path: String) async throws -> String {
        try await connection.write(request(path))
        var received: [UInt8] = []
        while let bytes = try await connection.read() {
            #expect(!bytes.isEmpty)
            received += bytes
        }
        #expect(try await connection.read() == nil)  // the end stays the end
        await connection.close()
        return String(decoding: received, as: UTF8.self)
    }

    /// The answer to `GET /small` (nginx's 100-byte file) over HTTP/1.1.
    static func expectSmallAnswer(_ answer: String) {
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.prefix(200))")
        #expect(answer.contains("\r\nContent-Length: 100\r\n"))
        let body = answer.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        #expect(body.utf8.count == 100)
    }

    static func open(
        _ url: URL,
        options: RawConnectionOptions = RawConnectionOptions(),
        adjust: (inout CurlTransport.Configuration) -> Void = { _ in }
    ) async throws -> (CurlTransport, any RawConnection) {
        let transport = CurlTestServers.transport(adjust)
        do {
            return (transport, try await transport.openRawConnection(to: HTTPRequest(url: url), options: options))
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The error `body` throws, as a `TransportError`.
    static func transportError(_ body: () async throws -> Void) async -> TransportError? {
        do {
            try await body()
            return nil
        } catch let error as TransportError {
            return error
        } catch {
            Issue.record("not a TransportError: \(error)")
            return nil
        }
    }

    // MARK: Exchanges

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func exchangesHTTP11OverPlainTCP() async throws {
        let (transport, connection) = try await Self.open(try #require(CurlTestServers.http))
        Self.expectSmallAnswer(try await Self.exchange(connection, path: "/small"))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func offersOnlyHTTP11ToTheH2Port() async throws {
        // nginx's TLS port offers h2 in ALPN and answers HTTP/1.1 only when h2 was not offered.
        let (transport, connection) = try await Self.open(try #require(CurlTestServers.https))
        Self.expectSmallAnswer(try await Self.exchange(connection, path: "/small"))
        await transport.shutdown()
    }

    @Test(
        .enabled(if: hasProxies, "TEST_PROXY_URL or TEST_HTTPS_PROXY_URL not set"),
        arguments: [
            ("TEST_PROXY_URL", "TEST_HTTP_URL"), ("TEST_PROXY_URL", "TEST_HTTPS_URL"),
            ("TEST_HTTPS_PROXY_URL", "TEST_HTTP_URL"), ("TEST_HTTPS_PROXY_URL", "TEST_HTTPS_URL"),
        ]
    )
    func tunnelsThroughTheProxies(proxyKey: String, originKey: String) async throws {
        let proxy = try #require(CurlTestServers.value(proxyKey))
        let origin = try #require(CurlTestServers.url(originKey))
        let (transport, connection) = try await Self.open(origin) {
            $0.proxy = .explicit(url: proxy, credentials: nil, noProxy: [])
            $0.proxyTLS.caFile = CurlTestServers.caFile
        }
        Self.expectSmallAnswer(try await Self.exchange(connection, path: "/small"))
        await transport.shutdown()
    }

    @Test(.enabled(if: proxy != nil, "TEST_PROXY_URL not set"))
    func aProxyThatRefusesTheTunnelIsAProxyFailure() async throws {
        // tinyproxy allows CONNECT to the test servers' ports only: 9 (discard) is refused with 403.
        let proxy = try #require(Self.proxy)
        let error = await Self.transportError {
            _ = try await Self.open(try #require(URL(string: "http://127.0.0.1:9/"))) {
                $0.proxy = .explicit(url: proxy, credentials: nil, noProxy: [])
            }
        }
        #expect(error?.category == .proxyFailed, "\(String(describing: error))")
    }

    // MARK: Trust

    @Test(.enabled(if: TLSByteCounter.isAvailable, "COURIER_PYTHON or TEST_SERVER_KEY not set"))
    func trustIsDecidedBeforeAnyByteIsWritten() async throws {
        let verifier = OpenSSLCertificateVerifier()
        func certificates(_ key: String) throws -> [Certificate] {
            try PinnedCertificateLoader.certificates(
                contentsOfFile: try #require(CurlTestServers.value(key)),
                using: verifier
            )
        }
        let other = try certificates("TEST_OTHER_CA_FILE")
        let leaf = try #require(try certificates("TEST_SERVER_CERT").first)
        let rejecting: [(inout CurlTransport.Configuration) -> Void] = [
            {
                $0.trustInstaller = OpenSSLTrustHook(
                    evaluator: SecurityPolicy(pinningMode: .certificate, pinnedCertificates: other, verifier: verifier)
                )
            },
            {
                $0.trustInstaller = OpenSSLTrustHook(
                    evaluator: SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: other, verifier: verifier)
                )
            },
            // No policy: libcurl's own verification against a CA that did not sign the server.
            { $0.tls.caFile = CurlTestServers.value("TEST_OTHER_CA_FILE") },
        ]
        let server = try await TLSByteCounter.start(connections: rejecting.count + 1)
        let port = try #require(server.ready["PORT"])
        let url = try #require(URL(string: "https://127.0.0.1:\(port)/probe"))
        for adjust in rejecting {
            let error = await Self.transportError { _ = try await Self.open(url, adjust: adjust) }
            #expect(error?.category == .serverTrustFailed, "\(String(describing: error))")
        }
        // The control: pinned on the server's own certificate, the request written by hand arrives.
        let (transport, connection) = try await Self.open(url) {
            $0.trustInstaller = OpenSSLTrustHook(
                evaluator: SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [leaf], verifier: verifier)
            )
        }
        let answer = try await Self.exchange(connection, path: "/probe")
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.hasSuffix("\r\n\r\nok\n"))
        await transport.shutdown()
        try await TLSByteCounter.expectRejectionsThenControl(server, rejected: rejecting.count)
    }

    // MARK: Backpressure

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aSlowReaderKeepsTheBufferWithinTheHighWaterMark() async throws {
        let highWaterMark = 96 << 10
        let (transport, connection) = try await Self.open(
            try #require(CurlTestServers.http),
            options: RawConnectionOptions(readHighWaterMark: highWaterMark)
        )
        let raw = try #require(connection as? CurlRawConnection)
        try await connection.write(Self.request("/big-100m"))
        // Wait until the loop stopped reading: the buffer no longer grows.
        var buffered = 0
        var stableRounds = 0
        while stableRounds < 5 {
            try await Task.sleep(for: .milliseconds(100))
            let now = raw.bufferedByteCount
            stableRounds = now == buffered && now > 0 ? stableRounds + 1 : 0
            buffered = now
        }
        #expect(buffered >= highWaterMark)
        #expect(buffered <= highWaterMark + CurlRawConnection.readChunkSize)
        // Reading on drains the buffer and the loop reads the socket again.
        var total = 0
        while total < 8 << 20, let bytes = try await connection.read() {
            total += bytes.count
            #expect(raw.bufferedByteCount <= highWaterMark + CurlRawConnection.readChunkSize)
        }
        #expect(total >= 8 << 20)
        await connection.close()
        await transport.shutdown()
    }

    @Test func aWriterFacingAServerThatDoesNotReadSuspends() async throws {
        let listener = try LoopbackListener()
        let (transport, connection) = try await Self.open(try #require(listener.url))
        let chunk = [UInt8](repeating: 0x61, count: 1 << 20)
        let completed = Atomic<Int>(0)
        let writer = Task {
            for _ in 0..<256 {
                try await connection.write(chunk)
                completed.add(1, ordering: .relaxed)
            }
        }
        // The kernel's buffers take a few MiB; then a write waits for a reader that never comes.
        var previous = -1
        while completed.load(ordering: .relaxed) != previous {
            previous = completed.load(ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(previous < 64, "\(previous) MiB were taken without a reader")
        await connection.close()
        let error = await Self.transportError { try await writer.value }
        #expect(error?.category == .cancelled)
        await transport.shutdown()
        listener.close()
    }

    // MARK: Ends

    @Test func closeFailsAPendingReadAndLaterCallsAndClosesTheSocket() async throws {
        let listener = try LoopbackListener()
        let (transport, connection) = try await Self.open(try #require(listener.url))
        let peer = try await listener.acceptPeer()
        try await connection.write(Array("hello".utf8))
        #expect(try await LoopbackListener.receiveUntilClosed(peer, expecting: 5) == Array("hello".utf8)[...])
        let reader = Task { try await connection.read() }
        try await Task.sleep(for: .milliseconds(200))
        await connection.close()
        let readError = await Self.transportError { _ = try await reader.value }
        #expect(readError?.category == .cancelled)
        #expect(await Self.transportError { _ = try await connection.read() }?.category == .cancelled)
        #expect(await Self.transportError { try await connection.write([1]) }?.category == .cancelled)
        await connection.close()  // idempotent
        #expect(try await LoopbackListener.receiveUntilClosed(peer, expecting: nil).isEmpty)
        Glibc.close(peer)
        await transport.shutdown()
        listener.close()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func aConnectionWithUnreadInputOutlivesTheTransportsOtherTransfers() async throws {
        // libcurl prunes idle connections with pending input or over two minutes old when a transfer
        // opens a connection (at most once a second); an open raw connection is attached to its
        // handle (the first `curl_easy_recv` attaches it), so it is never one of them.
        let (transport, connection) = try await Self.open(
            try #require(CurlTestServers.http),
            options: RawConnectionOptions(readHighWaterMark: 16 << 10)
        )
        try await connection.write(Self.request("/big-100m"))
        for _ in 0..<2 {
            try await Task.sleep(for: .milliseconds(1100))
            var request = HTTPRequest(url: try #require(CurlTestServers.https).adding("/small"))
            try request.headers.add(name: "Connection", value: "close")  // a new connection each time
            let recorded = await record(transport.startTransfer(request))
            #expect(recorded.response?.status.code == 200)
        }
        var total = 0
        while total < 4 << 20, let bytes = try await connection.read() { total += bytes.count }
        #expect(total >= 4 << 20)
        await connection.close()
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aSecondConcurrentReadIsRefused() async throws {
        let (transport, connection) = try await Self.open(try #require(CurlTestServers.http))
        let reader = Task { try await connection.read() }
        try await Task.sleep(for: .milliseconds(200))
        #expect(await Self.transportError { _ = try await connection.read() }?.category == .alreadyConsumed)
        await connection.close()
        _ = await Self.transportError { _ = try await reader.value }
        await transport.shutdown()
    }

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        let port = try closedLoopbackPort()
        let error = await Self.transportError {
            _ = try await Self.open(try #require(URL(string: "http://127.0.0.1:\(port)/")))
        }
        #expect(error?.category == .cannotConnect, "\(String(describing: error))")
        #expect(error?.code == 7)
    }

    @Test func theTransportsTimeoutsBoundTheOpeningOnly() async throws {
        let listener = try LoopbackListener()
        let (transport, connection) = try await Self.open(try #require(listener.url)) {
            $0.totalTimeout = .milliseconds(300)
            $0.idleTimeout = .milliseconds(300)
        }
        let peer = try await listener.acceptPeer()
        try await Task.sleep(for: .milliseconds(1200))
        try await connection.write(Array("still open".utf8))
        #expect(try await LoopbackListener.receiveUntilClosed(peer, expecting: 10) == Array("still open".utf8)[...])
        await connection.close()
        Glibc.close(peer)
        await transport.shutdown()
        listener.close()
    }

    @Test func shutdownClosesOpenConnections() async throws {
        let listener = try LoopbackListener()
        let (transport, connection) = try await Self.open(try #require(listener.url))
        let peer = try await listener.acceptPeer()
        let reader = Task { try await connection.read() }
        try await Task.sleep(for: .milliseconds(200))
        await transport.shutdown()
        #expect(await Self.transportError { _ = try await reader.value }?.category == .shutDown)
        #expect(await Self.transportError { try await connection.write([1]) }?.category == .shutDown)
        let late = await Self.transportError {
            _ = try await transport.openRawConnection(
                to: HTTPRequest(url: try #require(CurlTestServers.http)),
                options: RawConnectionOptions()
            )
        }
        #expect(late?.category == .shutDown)
        #expect(try await LoopbackListener.receiveUntilClosed(peer, expecting: nil).isEmpty)
        Glibc.close(peer)
        listener.close()
    }
}
