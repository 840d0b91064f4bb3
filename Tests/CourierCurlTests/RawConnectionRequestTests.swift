import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

/// What a raw connection's handle is configured from: the origin and timeouts, nothing a request
/// libcurl would send needs.
@Suite struct RawConnectionRequestTests {
    @Test func keepsTheURLAndTimeoutsAndDropsWhatOnlyARequestNeeds() throws {
        let url = try #require(URL(string: "https://127.0.0.1:8443/chat?room=1"))
        var request = HTTPRequest(method: .post, url: url, body: HTTPBody(Data("hello".utf8)))
        try request.headers.add(name: "Sec-WebSocket-Key", value: "dGhlIHNhbXBsZSBub25jZQ==")
        request.timeout = .seconds(30)
        request.connectTimeout = .seconds(3)
        request.idleTimeout = .seconds(5)
        request.credential = HTTPCredential(user: "u", password: "p")
        let configured = CurlTransferState.rawConnectionRequest(request)
        #expect(configured.url == url)
        #expect(configured.method == .get)
        #expect(configured.timeout == .seconds(30))
        #expect(configured.connectTimeout == .seconds(3))
        #expect(configured.idleTimeout == nil)
        #expect(configured.headers.isEmpty)
        #expect(configured.body.length == 0)
        #expect(configured.credential == nil)
        #expect(configured.handlesCookies == false)
        #expect(!configured.sendsBody)
    }
}
