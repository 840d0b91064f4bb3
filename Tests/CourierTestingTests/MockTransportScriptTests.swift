import CourierHTTP
import CourierLocking
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct MockTransportScriptTests {
    private let url = URL(string: "https://api.example.com/file")!

    /// A partial download of `contents` in a new temporary file, and the options that resume it
    /// after its first four bytes.
    private func partialDownload(_ contents: String) throws -> (path: String, options: TransferOptions) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mock-\(UUID()).bin").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        var options = TransferOptions()
        let validator = ResumeValidator(offset: 4, entityTag: "\"v1\"", lastModified: nil)
        options.destination = .file(path: path, resume: validator)
        return (path, options)
    }

    @Test func aScriptCanFailInTheMiddleOfTheBody() async throws {
        // Given
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(HTTPResponse(status: .ok)),
                .body(Data("part".utf8)),
                .fail(TransportError(category: .connectionLost, message: "reset by peer")),
                .body(Data("never".utf8)),
            ])
        )

        // When
        var body = Data()
        var failure: TransportError?
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            if case .body(let chunk) = event { body.append(chunk) }
            if case .failed(let error) = event { failure = error }
        }

        // Then: what came before the failure arrived, nothing after it, and the error has metrics
        #expect(body == Data("part".utf8))
        #expect(failure?.category == .connectionLost)
        #expect(failure?.url == url)
        #expect(failure?.metrics?.decodedBodyBytes == 4)
    }

    @Test func aResponderComputesTheReplyFromTheRecordedRequest() async throws {
        let transport = MockTransport()
        transport.stub(
            matching: { $0.method == .post },
            respond: { recorded in MockTransport.Reply(status: 200, body: Data(recorded.body.reversed())) }
        )
        let request = HTTPRequest(method: .post, url: url, body: HTTPBody(Data("abc".utf8)))
        let result = try await transport.startTransfer(request).collect(upTo: 10)
        #expect(result.body == Data("cba".utf8))
        #expect(result.response.headers["Content-Length"] == "3")
        #expect(result.metrics.requestBodyBytes == 3)
    }

    @Test func scriptedProgressAndMetricsArriveAsGiven() async throws {
        // Given: a body of unknown length, and metrics with the numbers a test wants to see
        var metrics = TransferMetrics()
        metrics.reusedConnection = true
        var head = HTTPResponse(status: .ok)
        try head.headers.add(name: "Transfer-Encoding", value: "chunked")
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [.response(head), .body(Data(count: 10)), .complete(metrics)])
        )

        // When
        var progress: [TransferProgress] = []
        var completed: TransferMetrics?
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            if case .downloadProgress(let value) = event { progress.append(value) }
            if case .completed(let value) = event { completed = value }
        }

        // Then
        #expect(progress == [TransferProgress(completed: 10, total: nil)])
        #expect(completed?.reusedConnection == true)
    }

    @Test func aFileDestinationIsWrittenAndAResumedOneAppended() async throws {
        // Given: a partial file of 4 bytes, validated by an entity tag
        let (path, options) = try partialDownload("0123XX")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(status: 206, headers: ["Content-Range": "bytes 4-9/10"], body: Data("456789".utf8))
        )

        // When
        var progress: [TransferProgress] = []
        var bodyEvents = 0
        var failure: TransportError?
        for await event in transport.startTransfer(HTTPRequest(url: url), options: options).events {
            if case .downloadProgress(let value) = event { progress.append(value) }
            if case .body = event { bodyEvents += 1 }
            if case .failed(let error) = event { failure = error }
        }

        // Then: the tail was appended after the validated offset, the request carried the range
        #expect(failure == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("0123456789".utf8))
        #expect(bodyEvents == 0)
        #expect(progress.last?.completed == 10)
        let sent = try #require(transport.requests.first?.request)
        #expect(sent.headers["Range"] == "bytes=4-")
        #expect(sent.headers["If-Range"] == "\"v1\"")
    }

    @Test func aResumeThatStartsElsewhereFailsAndLeavesTheFile() async throws {
        let (path, options) = try partialDownload("0123")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(status: 206, headers: ["Content-Range": "bytes 0-9/10"], body: Data("0123456789".utf8))
        )
        await #expect {
            try await transport.startTransfer(HTTPRequest(url: url), options: options).collect(upTo: 100)
        } throws: { ($0 as? TransportError)?.category == .resumeFailed }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("0123".utf8))
    }

    @Test func theRequestsBodyLimitWinsOverTheTransportsDefault() async throws {
        let transport = MockTransport(maximumResponseBodySize: 4)
        transport.stub(url: url.absoluteString, reply: .init(body: Data(count: 8), chunkSize: 2))
        await #expect {
            try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 100)
        } throws: { ($0 as? TransportError)?.category == .limitExceeded }

        var request = HTTPRequest(url: url)
        request.maximumResponseBodySize = 8
        #expect(try await transport.startTransfer(request).collect(upTo: 100).body.count == 8)
    }

    @Test func suspendHoldsTheScriptUntilResumeAndCallsAreRecorded() async throws {
        // Given: a responder the test releases, so the transfer is suspended before any step
        let (released, release) = AsyncStream<Void>.makeStream()
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            respond: { _ in
                for await _ in released { break }
                return MockTransport.Reply(body: Data("late".utf8))
            }
        )
        let transfer = transport.startTransfer(HTTPRequest(url: url))
        transfer.suspend()
        let seen = Lock<[String]>([])
        let consumer = Task {
            for await event in transfer.events {
                if case .response = event { seen.withLock { $0.append("response") } }
                if case .completed = event { seen.withLock { $0.append("completed") } }
            }
        }

        // When: the script is free to play, but the transfer is suspended
        release.yield()
        // A negative check: only a mock that ignored the suspension could move in this time.
        try await Task.sleep(for: .milliseconds(100))
        #expect(seen.withLock { $0 }.isEmpty)

        // Then: resuming plays it to the end
        transfer.resume()
        await consumer.value
        #expect(seen.withLock { $0 } == ["response", "completed"])
        #expect(transport.controlCalls.map(\.action) == [.suspend, .resume])
        #expect(transport.controlCalls.allSatisfy { $0.url == url })
    }

    @Test func cancelIsRecordedAndEndsTheTransfer() async throws {
        let transport = MockTransport()
        var reply = MockTransport.Reply(status: 200)
        reply.delay = .seconds(30)
        transport.stub(url: url.absoluteString, reply: reply)
        let transfer = transport.startTransfer(HTTPRequest(url: url))
        transfer.cancel()
        await #expect {
            try await transfer.collect(upTo: 10)
        } throws: { ($0 as? TransportError)?.category == .cancelled }
        #expect(transport.controlCalls == [MockTransport.ControlCall(url: url, action: .cancel)])
    }

    @Test func requestsAreRecordedInStartOrderWhateverOrderTheirBodiesFinish() async throws {
        // Given: the first request's body is slow, the second's immediate
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 204))
        let (slowChunks, slowBody) = AsyncThrowingStream<Data, any Error>.makeStream()
        let first = HTTPRequest(
            method: .post,
            url: url.appending(path: "1"),
            body: HTTPBody(length: nil, producer: slowChunks)
        )
        let second = HTTPRequest(method: .post, url: url.appending(path: "2"), body: HTTPBody(Data("b".utf8)))

        // When
        let firstTransfer = transport.startTransfer(first)
        _ = try await transport.startTransfer(second).collect(upTo: 10)
        #expect(transport.requests.map(\.url) == [second.url])
        slowBody.yield(Data("a".utf8))
        slowBody.finish()
        _ = try await firstTransfer.collect(upTo: 10)

        // Then
        #expect(transport.requests.map(\.url) == [first.url, second.url])
        #expect(transport.requests.map(\.body) == [Data("a".utf8), Data("b".utf8)])
    }

    @Test func aOneShotBodySentTwiceFailsTheSecondTransfer() async throws {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 307))
        let body = HTTPBody(length: nil, producer: AsyncThrowingStream<Data, any Error> { $0.finish() })
        let request = HTTPRequest(method: .post, url: url, body: body)
        _ = try await transport.startTransfer(request).collect(upTo: 10)
        await #expect {
            try await transport.startTransfer(request).collect(upTo: 10)
        } throws: { ($0 as? TransportError)?.category == .requestBodyAlreadyConsumed }
    }
}

@Suite struct MockTransportCookieTests {
    private let login = URL(string: "https://api.example.com/login")!
    private let profile = URL(string: "https://api.example.com/me")!

    private func transport(cookies: InMemoryCookieStore? = InMemoryCookieStore()) -> MockTransport {
        let transport = MockTransport(cookies: cookies)
        transport.stub(
            url: login.absoluteString,
            reply: .init(status: 204, headers: ["Set-Cookie": "session=abc; Path=/"])
        )
        transport.stub(url: profile.absoluteString, reply: .init(status: 200))
        return transport
    }

    @Test func storesSetCookieAndSendsItWithTheNextRequest() async throws {
        let transport = transport()
        _ = try await transport.startTransfer(HTTPRequest(url: login)).collect(upTo: 10)
        var request = HTTPRequest(url: profile)
        try request.headers.set(name: "Cookie", value: "theme=dark")
        _ = try await transport.startTransfer(request).collect(upTo: 10)

        // As libcurl 7.88 sends them: the jar's field first, the request's own after it.
        #expect(transport.requests.last?.request.headers.values(for: "Cookie") == ["session=abc", "theme=dark"])
        let stored = try await transport.cookieStore?.allCookies()
        #expect(stored?.map(\.name) == ["session"])
    }

    @Test func aRequestThatOptsOutNeitherSendsNorStores() async throws {
        let transport = transport()
        var optedOut = HTTPRequest(url: login)
        optedOut.handlesCookies = false
        _ = try await transport.startTransfer(optedOut).collect(upTo: 10)
        #expect(transport.cookies?.snapshot().isEmpty == true)

        _ = try await transport.startTransfer(HTTPRequest(url: login)).collect(upTo: 10)
        var quiet = HTTPRequest(url: profile)
        quiet.handlesCookies = false
        _ = try await transport.startTransfer(quiet).collect(upTo: 10)
        #expect(transport.requests.last?.request.headers["Cookie"] == nil)
    }

    @Test func aTransportWithoutAStoreHasNoCookies() async throws {
        let transport = transport(cookies: nil)
        _ = try await transport.startTransfer(HTTPRequest(url: login)).collect(upTo: 10)
        _ = try await transport.startTransfer(HTTPRequest(url: profile)).collect(upTo: 10)
        #expect(transport.cookieStore == nil)
        #expect(transport.requests.last?.request.headers["Cookie"] == nil)
    }
}
