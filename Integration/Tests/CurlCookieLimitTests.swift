import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// What libcurl's cookie engine refuses from a server: a `Domain` that is a public suffix (through
/// libpsl), more `Set-Cookie` fields than it takes from one response, and a cookie larger than it
/// stores. None of these is an error: libcurl drops the cookie and the transfer goes on.
///
/// The limits are libcurl's own (`lib/cookie.h`: `MAX_SET_COOKIE_AMOUNT` 50, `MAX_NAME` 4096) and
/// cannot be configured; the tests pin them so that a libcurl that changes them is noticed.
@Suite struct CurlCookieLimitTests {
    /// A transport that reaches httpbin under `host`, a name under a public suffix, so that a
    /// `Domain` attribute can name the suffix itself.
    private func transport(host: String) throws -> (CurlTransport, URL) {
        let port = try #require(CurlTestServers.httpbin?.port)
        let transport = CurlTestServers.transport {
            $0.resolveOverrides = [CurlTransport.ResolveOverride(host: host, port: port, addresses: ["127.0.0.1"])]
        }
        return (transport, try #require(URL(string: "http://\(host):\(port)")))
    }

    /// httpbin's `/response-headers`, which answers with one `Set-Cookie` field per value.
    private func setCookies(_ fields: [String], base: URL, transport: CurlTransport) async throws {
        var components = try #require(
            URLComponents(url: base.adding("/response-headers"), resolvingAgainstBaseURL: false)
        )
        components.queryItems = fields.map { URLQueryItem(name: "Set-Cookie", value: $0) }
        // `;` and `=` are query syntax to httpbin's parser: encode them inside the values.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: ";", with: "%3B")
        let url = try #require(components.url)
        let result = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 20)
        #expect(result.response.status.code == 200)
        #expect(result.response.headers.values(for: "Set-Cookie").count == fields.count)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aCookieForAPublicSuffixIsRefused() async throws {
        let (transport, base) = try transport(host: "shop.example.co.uk")
        let store = try #require(transport.cookieStore)
        try await setCookies(
            ["suffix=1; Domain=co.uk; Path=/", "site=1; Domain=example.co.uk; Path=/"],
            base: base,
            transport: transport
        )
        // `co.uk` is on the public suffix list: a cookie for it would reach every site under it.
        // Without libpsl, libcurl 7.88 accepts it (its fallback only asks for a dot in the domain).
        let stored = try await store.allCookies()
        await transport.shutdown()
        #expect(stored.map(\.name) == ["site"])
        #expect(stored.first?.domain == "example.co.uk")
        #expect(stored.first?.isHostOnly == false)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aResponseSetsAtMostFiftyCookies() async throws {
        let (transport, base) = try transport(host: "api.test")
        let store = try #require(transport.cookieStore)
        try await setCookies((1...60).map { "c\($0)=1; Path=/" }, base: base, transport: transport)
        let stored = try await store.allCookies()
        await transport.shutdown()
        #expect(Set(stored.map(\.name)) == Set((1...50).map { "c\($0)" }))
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aCookieLargerThanFourKiBIsDropped() async throws {
        // httpbin's server takes request lines of at most 4094 bytes, so the field is handed to
        // the jar as libcurl reads a response's `Set-Cookie` (CURLOPT_COOKIELIST, the same parser).
        let (transport, _) = try transport(host: "api.test")
        let store = try #require(transport.cookieStore)
        let fits = String(repeating: "a", count: 4000)
        let tooLarge = String(repeating: "b", count: 4100)
        try await transport.cookies.set("Set-Cookie: fits=\(fits); Domain=api.test; Path=/")
        try await transport.cookies.set("Set-Cookie: large=\(tooLarge); Domain=api.test; Path=/")
        let stored = try await store.allCookies()
        await transport.shutdown()
        #expect(stored.map(\.name) == ["fits"])
        #expect(stored.first?.value.count == 4000)
    }
}
