import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct MockTransportVerificationTests {
    private func send(_ transport: MockTransport, _ method: HTTPMethod, _ url: String) async throws {
        let request = HTTPRequest(method: method, url: try #require(URL(string: url)))
        _ = try await transport.startTransfer(request).collect(upTo: 1 << 10)
    }

    @Test func countsAndFiltersMatchingRequests() async throws {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 200))
        try await send(transport, .get, "https://api.example.com/v1/items")
        try await send(transport, .post, "https://api.example.com/v1/items")
        try await send(transport, .get, "https://api.example.com/v1/me")

        #expect(transport.callCount(matching: .method(.get)) == 2)
        #expect(transport.requests(matching: .path("/v1/items")).map(\.request.method) == [.get, .post])
        #expect(transport.verify(.method(.get), called: 2) == nil)
        #expect(transport.verify(.method(.post)) == nil)
        #expect(transport.verify(.method(.delete), called: .never) == nil)
        #expect(transport.verify(called: .atMost(3)) == nil)
    }

    @Test func aWrongCountListsWhatWasSent() async throws {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 200))
        try await send(transport, .get, "https://api.example.com/v1/items")
        try await send(transport, .put, "https://api.example.com/v1/items/1")

        let message = transport.verify(.method(.post) && .path("/v1/items"), called: 1)

        #expect(
            message == """
                expected exactly 1 request matching POST and path /v1/items; 0 of 2 matched
                  1. GET https://api.example.com/v1/items: method is GET, not POST
                  2. PUT https://api.example.com/v1/items/1: method is PUT, not POST; path is /v1/items/1, not /v1/items
                """
        )
        #expect(
            transport.verify(.method(.get), called: .never)
                == """
                expected exactly 0 requests matching GET; 1 of 2 matched
                  1. GET https://api.example.com/v1/items: matches
                  2. PUT https://api.example.com/v1/items/1: method is PUT, not GET
                """
        )
    }

    @Test func anIdleTransportSaysItReceivedNothing() {
        #expect(
            MockTransport().verify(.path("/v1/me"))
                == "expected at least 1 request matching path /v1/me; the transport received no request"
        )
    }

    @Test func callCountsAcceptTheirRanges() {
        #expect(CallCount.atLeast(2).accepts(3) && !CallCount.atLeast(2).accepts(1))
        #expect(CallCount.atMost(1).accepts(0) && !CallCount.atMost(1).accepts(2))
        #expect((2 as CallCount) == .exactly(2) && CallCount.once == .exactly(1))
        #expect(CallCount.never.description == "exactly 0")
    }
}
