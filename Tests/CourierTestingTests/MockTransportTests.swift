import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct MockTransportTests {
    private let url = URL(string: "https://api.example.com/me")!

    @Test func answersAStubbedRequestAndRecordsItsBody() async throws {
        // Given
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, json: #"{"name":"Ada"}"#)
        let request = HTTPRequest(method: .post, url: url, body: HTTPBody(Data("hi".utf8)))

        // When
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)

        // Then
        #expect(result.response.status == .ok)
        #expect(result.response.headers["content-type"] == "application/json")
        #expect(result.response.url == url)
        #expect(String(decoding: result.body, as: UTF8.self) == #"{"name":"Ada"}"#)
        #expect(transport.requests.map(\.url) == [url])
        #expect(transport.requests.first?.body == Data("hi".utf8))
    }

    @Test func anUnstubbedRequestFailsWithATypedError() async {
        let transport = MockTransport()
        await #expect {
            try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 10)
        } throws: { error in
            (error as? TransportError)?.message == "no stub for GET https://api.example.com/me"
        }
    }

    @Test func laterStubsWinAndLimitedStubsRunOut() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200))
        transport.stub(url: url.absoluteString, reply: .init(status: 503), times: 1)

        let first = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 10)
        let second = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 10)

        #expect(first.response.status.code == 503)
        #expect(second.response.status.code == 200)
    }

    @Test func matchesOnMethodWhenGiven() async throws {
        let transport = MockTransport()
        transport.stub(method: .delete, url: url.absoluteString, reply: .init(status: 204))
        await #expect(throws: TransportError.self) {
            try await transport.startTransfer(HTTPRequest(method: .get, url: url)).collect(upTo: 10)
        }
        let deleted = try await transport.startTransfer(HTTPRequest(method: .delete, url: url)).collect(upTo: 10)
        #expect(deleted.response.status == .noContent)
    }

    @Test func deliversChunksWithBackpressure() async throws {
        // Given: 10 chunks of 100 bytes and a 150-byte high-water mark
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data(repeating: 7, count: 1000), chunkSize: 100))
        var options = TransferOptions()
        options.highWaterMark = 150
        options.lowWaterMark = 50

        // When: a slow consumer reads
        let transfer = transport.startTransfer(HTTPRequest(url: url), options: options)
        var received = 0
        var maxBuffered = 0
        for await event in transfer.events {
            if case .body(let chunk) = event {
                received += chunk.count
                try await Task.sleep(for: .milliseconds(2))
                maxBuffered = max(maxBuffered, transfer.events.bufferedBodyBytes)
            }
        }

        // Then: everything arrived and the buffer never held more than high-water plus one chunk
        #expect(received == 1000)
        #expect(maxBuffered <= 250)
    }

    @Test func redirectsAreReportedNotFollowed() async throws {
        let transport = MockTransport()
        let next = try #require(URL(string: "https://api.example.com/next"))
        transport.stub(url: url.absoluteString, reply: .redirect(to: next, body: Data("moved".utf8)))

        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 10)

        #expect(result.response.status.code == 302)
        #expect(result.response.headers["Location"] == "https://api.example.com/next")
        #expect(result.redirectLocation?.absoluteString == "https://api.example.com/next")
        #expect(result.body == Data("moved".utf8))
    }

    @Test func unimplementedTransportFailsAndRecordsWithoutReadingTheBody() async {
        let transport = UnimplementedTransport()
        let body = HTTPBody(length: nil, producer: AsyncThrowingStream<Data, any Error> { $0.finish() })
        await #expect {
            try await transport.startTransfer(HTTPRequest(method: .post, url: url, body: body)).collect(upTo: 10)
        } throws: { ($0 as? TransportError)?.category == .configuration }
        #expect(transport.attempts.map(\.url) == [url])
        #expect(body.producer?.isConsumed == false)
    }
}
