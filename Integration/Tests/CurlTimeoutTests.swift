import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlTimeoutTests {
    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func enforcesRequestTimeout() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport { $0.totalTimeout = .seconds(30) }
        var request = HTTPRequest(url: base.adding("/delay/3"))
        request.timeout = .milliseconds(800)
        let start = ContinuousClock.now
        let recorded = await record(transport.startTransfer(request))
        let elapsed = start.duration(to: .now)
        #expect(recorded.error?.category == .timedOut)
        #expect(recorded.error?.code == 28)
        #expect(elapsed >= .milliseconds(700) && elapsed < .milliseconds(2500))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func enforcesIdleTimeout() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: base.adding("/delay/5"))
        request.idleTimeout = .seconds(1)
        let start = ContinuousClock.now
        let recorded = await record(transport.startTransfer(request))
        let elapsed = start.duration(to: .now)
        #expect(recorded.error?.category == .timedOut)
        #expect(elapsed < .milliseconds(3500))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aRequestsSettingsWinOverTheTransportsDefaults() async throws {
        // Given: a transport whose default body limit is far too small for /text.txt
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport { $0.maximumResponseBodySize = 1_000 }
        let url = base.adding("/text.txt")
        #expect(await record(transport.startTransfer(HTTPRequest(url: url))).error?.category == .limitExceeded)

        // When: the request raises it
        var request = HTTPRequest(url: url)
        request.maximumResponseBodySize = 1 << 20
        let recorded = await record(transport.startTransfer(request))

        // Then
        #expect(recorded.error == nil)
        #expect(recorded.body.count > 1_000)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func rejectsImpossibleRequestSettingsWithATypedError() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: base.adding("/small"))
        request.idleTimeout = .zero
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error?.category == .invalidRequest)
        #expect(recorded.error?.message == "idleTimeout must be positive")
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func limitsResponseHeaderSize() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport { $0.maximumHeaderSize = 2048 }
        let big = String(repeating: "x", count: 3000)
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: base.adding("/response-headers?X-Big=\(big)")))
        )
        #expect(recorded.error?.category == .limitExceeded)
        #expect(recorded.error?.message == "the response head is larger than 2048 bytes")
        await transport.shutdown()
    }

    @Test func enforcesConnectTimeoutAgainstFullBacklog() async throws {
        let listener = try FullBacklogListener()
        defer { listener.close() }
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:\(listener.port)/")))
        request.connectTimeout = .milliseconds(500)
        let start = ContinuousClock.now
        let recorded = await record(transport.startTransfer(request))
        let elapsed = start.duration(to: .now)
        #expect(recorded.error?.category == .timedOut)
        #expect(recorded.error?.code == 28)
        #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(3))
        await transport.shutdown()
    }
}

/// A loopback listener with `listen(fd, 0)` whose accept queue is filled by connections nobody
/// accepts, so further SYNs are dropped and a connect can only time out.
final class FullBacklogListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ToolError(message: "socket failed") }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(listener, raw, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, raw, &length) == 0
            }
        }
        guard ready else { throw ToolError(message: "bind/listen failed") }
        port = Int(UInt16(bigEndian: address.sin_port))
        for _ in 0..<4 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard filler >= 0 else { continue }
            descriptors.append(filler)
            _ = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
        }
    }

    func close() {
        for descriptor in descriptors { _ = Glibc.close(descriptor) }
        descriptors.removeAll()
    }
}
