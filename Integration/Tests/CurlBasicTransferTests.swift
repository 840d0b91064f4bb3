import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlBasicTransferTests {
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func getsSmallFileOverHTTP1() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1 << 20)
        #expect(result.response.status.code == 200)
        #expect(result.response.version == .http1_1)
        #expect(result.body == Data(repeating: UInt8(ascii: "a"), count: 100))
        #expect(result.response.headers["Content-Length"] == "100")
        #expect(result.metrics.protocolVersion == .http1_1)
        #expect(result.metrics.remoteAddress == "127.0.0.1")
        #expect(result.metrics.remotePort == base.port)
        #expect(result.metrics.decodedBodyBytes == 100)
        #expect(result.metrics.total > .zero)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func reusesKeptAliveConnections() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        var reused: [Bool] = []
        var ports: Set<Int> = []
        for _ in 0..<3 {
            let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1024)
            reused.append(result.metrics.reusedConnection)
            if let port = result.metrics.localPort { ports.insert(port) }
        }
        #expect(reused == [false, true, true])
        #expect(ports.count == 1)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func headReportsHeadersWithoutBody() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let request = HTTPRequest(method: .head, url: base.adding("/big-100m"))
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 200)
        #expect(recorded.response?.expectedContentLength == 104_857_600)
        #expect(recorded.body.isEmpty)
        #expect(recorded.metrics?.responseBodyBytes == 0)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func sendsMethodsWithAndWithoutBodies() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let payload = PatternProducer.bytes(count: 3000)
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            var headers = HTTPHeaders()
            try headers.add(name: "Content-Type", value: "text/plain")
            let request = HTTPRequest(
                method: method,
                url: base.adding("/anything"),
                headers: headers,
                body: HTTPBody(payload)
            )
            let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
            let echo = try #require(try JSONSerialization.jsonObject(with: result.body) as? [String: Any])
            #expect(echo["method"] as? String == method.rawValue)
            #expect(echo["data"] as? String == String(decoding: payload, as: UTF8.self))
            let sent = echo["headers"] as? [String: String]
            #expect(sent?["Content-Length"] == "3000")
            #expect(sent?["Content-Type"] == "text/plain")
            #expect(sent?["Expect"] == nil)
        }
        for method in [HTTPMethod.get, .delete, .options] {
            let result = try await transport.startTransfer(HTTPRequest(method: method, url: base.adding("/anything")))
                .collect(upTo: 1 << 20)
            #expect(result.response.status.code == 200)
            if method != .options {
                let echo = try #require(try JSONSerialization.jsonObject(with: result.body) as? [String: Any])
                #expect(echo["method"] as? String == method.rawValue)
                #expect((echo["headers"] as? [String: String])?["Content-Length"] == nil)
            }
        }
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func passesHeadersThroughWithoutAddingContentTypeOrExpect() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        var headers = HTTPHeaders()
        try headers.add(name: "X-Courier", value: "one")
        try headers.add(name: "X-Empty", value: "")
        let body = HTTPBody(Data(count: 2 << 20))
        let request = HTTPRequest(method: .post, url: base.adding("/request-headers"), headers: headers, body: body)
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
        let text = String(decoding: result.body, as: UTF8.self)
        #expect(text.hasPrefix("POST /request-headers HTTP/1.1\r\n"))
        #expect(text.contains("\r\nX-Courier: one\r\n"))
        #expect(text.contains("\r\nX-Empty: \r\n") || text.contains("\r\nX-Empty:\r\n"))
        #expect(text.contains("\r\nContent-Length: 2097152\r\n"))
        #expect(!text.contains("Content-Type"))
        #expect(!text.contains("Expect"))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func sendsCustomMethodsWithBodies() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let method = try HTTPMethod(validating: "PURGE")
        let request = HTTPRequest(
            method: method,
            url: base.adding("/request-headers"),
            body: HTTPBody(Data("xyz".utf8))
        )
        let text = String(
            decoding: try await transport.startTransfer(request).collect(upTo: 1 << 20).body,
            as: UTF8.self
        )
        #expect(text.hasPrefix("PURGE /request-headers HTTP/1.1\r\n"))
        #expect(text.contains("\r\nContent-Length: 3\r\n"))
        await transport.shutdown()
    }

    @Test(
        .enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"),
        .enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set")
    )
    func reportsRedirectsWithTheirBodiesWithoutFollowing() async throws {
        // nginx answers each redirect with a small HTML page; it must arrive after `.redirect`, over
        // HTTP/1.1 and over HTTP/2.
        let transport = CurlTestServers.transport()
        for base in [try #require(CurlTestServers.http), try #require(CurlTestServers.https)] {
            for (path, status) in [
                ("/redirect", 302), ("/redirect-301", 301), ("/redirect-303", 303), ("/redirect-307", 307),
            ] {
                let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding(path))))
                #expect(recorded.error == nil)
                #expect(recorded.response == nil)
                let (head, location) = try #require(recorded.redirect)
                #expect(head.status.code == status)
                let expected = status == 307 ? "/upload" : "/small"
                #expect(location.absoluteString == base.absoluteString + expected)
                let page = String(decoding: recorded.body, as: UTF8.self)
                #expect(page.contains("<title>\(status) "), "\(base)\(path): \(page)")
                #expect(head.headers["Content-Length"] == String(recorded.body.count))
                #expect(recorded.bodyChunksBeforeHead == 0)
                #expect(recorded.metrics?.decodedBodyBytes == Int64(recorded.body.count))
            }
        }
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aRedirectsBodyNeverReachesADownloadFile() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TransferOptions()
        options.destination = .file(path: path, resume: nil)
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: base.adding("/redirect")), options: options)
        )
        #expect(recorded.error == nil)
        #expect(recorded.redirect?.0.status.code == 302)
        let written = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        #expect(written == 0)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func reportsHTTPBinRedirectTarget() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let url = base.adding("/redirect-to?url=http%3A%2F%2F127.0.0.1%3A1%2Fnext&status_code=308")
        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 20)
        #expect(result.response.status.code == 308)
        #expect(result.redirectLocation?.absoluteString == "http://127.0.0.1:1/next")
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func decodesGzipAndLimitsDecodedSize() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let expected = (0..<5000).map { String(format: "line %06d of the courier gzip fixture\n", $0) }.joined()
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/text.txt"))))
        #expect(recorded.response?.headers["Content-Encoding"] == "gzip")
        #expect(String(decoding: recorded.body, as: UTF8.self) == expected)
        let metrics = try #require(recorded.metrics)
        #expect(metrics.decodedBodyBytes == Int64(expected.utf8.count))
        #expect(metrics.responseBodyBytes < metrics.decodedBodyBytes / 4)

        var limitedRequest = HTTPRequest(url: base.adding("/text.txt"))
        limitedRequest.maximumResponseBodySize = 10_000
        let limited = await record(transport.startTransfer(limitedRequest))
        #expect(limited.error?.category == .limitExceeded)
        #expect(limited.body.count <= 10_000)

        var own = HTTPHeaders()
        try own.add(name: "Accept-Encoding", value: "gzip")
        let raw = try await transport.startTransfer(HTTPRequest(url: base.adding("/text.txt"), headers: own))
            .collect(upTo: 1 << 20)
        #expect(raw.body.prefix(2) == Data([0x1F, 0x8B]))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func rejectsOversizedContentLengthUpFront() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport { $0.maximumResponseBodySize = 1 << 20 }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/big-100m"))))
        #expect(recorded.error?.category == .limitExceeded)
        #expect(recorded.error?.code == 63)
        await transport.shutdown()
    }

    @Test func mapsConnectionRefused() async throws {
        let port = try closedLoopbackPort()
        let transport = CurlTestServers.transport()
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.error?.category == .cannotConnect)
        #expect(recorded.error?.code == 7)
        #expect(recorded.error?.message.hasPrefix("Failed to connect to 127.0.0.1 port \(port)") == true)
        #expect(recorded.error?.url == url)
        await transport.shutdown()
    }

    @Test func rejectsNonHTTPSchemes() async throws {
        let transport = CurlTestServers.transport()
        let url = try #require(URL(string: "file:///etc/passwd"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.error?.category == .invalidRequest)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func finishesTransfersOfADroppedTransport() async throws {
        let base = try #require(CurlTestServers.http)
        let transfer = CurlTestServers.transport().startTransfer(HTTPRequest(url: base.adding("/big-100m")))
        var received = 0
        var completed = false
        for await event in transfer.events {
            if case .body(let chunk) = event { received += chunk.count }
            if case .completed = event { completed = true }
        }
        #expect(completed)
        #expect(received == 104_857_600)
    }

    @Test func failsTransfersAfterShutdown() async throws {
        let transport = CurlTestServers.transport()
        await transport.shutdown()
        await transport.shutdown()
        let url = try #require(URL(string: "http://127.0.0.1:9/"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.error?.category == .shutDown)
        await #expect(throws: TransportError.self) { try await transport.cookies.all() }
    }
}

/// A loopback port that nothing listens on: bound, then closed.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw ToolError(message: "socket failed") }
    defer { close(descriptor) }
    return try LoopbackListener.bind(descriptor)
}
