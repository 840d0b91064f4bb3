import CourierTransport
import Foundation
import Testing

@Suite struct CookieMatchingTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test(arguments: [
        ("example.com", "example.com", true),
        ("www.example.com", "example.com", true),
        ("a.b.example.com", "example.com", true),
        ("WWW.Example.COM", "example.com", true),
        ("badexample.com", "example.com", false),
        ("example.com", "www.example.com", false),
        ("1.2.3.4", "2.3.4", false),
        ("1.2.3.4", "1.2.3.4", true),
        ("example.com", "", false),
    ])
    func domainMatchesAsRFC6265Says(host: String, domain: String, matches: Bool) {
        #expect(Cookie.domain(host, matches: domain) == matches)
    }

    @Test(arguments: [
        ("/", "/", true),
        ("/docs", "/docs", true),
        ("/docs/a", "/docs", true),
        ("/docs/a", "/docs/", true),
        ("/docsets", "/docs", false),
        ("/doc", "/docs", false),
        ("/", "/docs", false),
        ("/anything", "/", true),
    ])
    func pathMatchesAsRFC6265Says(requestPath: String, cookiePath: String, matches: Bool) {
        #expect(Cookie.path(requestPath, matches: cookiePath) == matches)
    }

    @Test(arguments: [
        ("https://example.com", "/"),
        ("https://example.com/", "/"),
        ("https://example.com/a.html", "/"),
        ("https://example.com/docs/a.html", "/docs"),
        ("https://example.com/docs/", "/docs"),
        ("https://example.com/a/b/c?x=/y", "/a/b"),
    ])
    func derivesTheDefaultPath(url text: String, expected: String) throws {
        #expect(Cookie.defaultPath(for: try url(text)) == expected)
    }

    @Test func hostOnlyCookiesSkipSubdomains() throws {
        let hostOnly = Cookie(name: "a", value: "1", domain: "example.com")
        let domainWide = Cookie(name: "a", value: "1", domain: ".Example.com", isHostOnly: false)
        #expect(domainWide.domain == "example.com")
        #expect(hostOnly.matches(try url("http://example.com/")))
        #expect(!hostOnly.matches(try url("http://www.example.com/")))
        #expect(domainWide.matches(try url("http://www.example.com/")))
        #expect(!domainWide.matches(try url("http://notexample.com/")))
    }

    @Test func secureCookiesGoOverHTTPSOnly() throws {
        let cookie = Cookie(name: "a", value: "1", domain: "127.0.0.1", isSecure: true)
        #expect(cookie.matches(try url("https://127.0.0.1:8443/")))
        #expect(!cookie.matches(try url("http://127.0.0.1:8080/")))
    }

    @Test func expiredCookiesGoNowhere() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let cookie = Cookie(name: "a", value: "1", domain: "example.com", expiry: now)
        #expect(cookie.matches(try url("http://example.com/"), at: now.addingTimeInterval(-1)))
        #expect(!cookie.matches(try url("http://example.com/"), at: now))
    }

    @Test func ordersLongerPathsFirstThenByStoreOrder() throws {
        let cookies = [
            Cookie(name: "root", value: "1", domain: "example.com"),
            Cookie(name: "deep", value: "2", domain: "example.com", path: "/docs/api"),
            Cookie(name: "mid", value: "3", domain: "example.com", path: "/docs"),
            Cookie(name: "root2", value: "4", domain: "example.com"),
            Cookie(name: "other", value: "5", domain: "example.com", path: "/other"),
        ]
        let sent = Cookie.matching(cookies, for: try url("http://example.com/docs/api/x"))
        #expect(sent.map(\.name) == ["deep", "mid", "root", "root2"])
        #expect(Cookie.headerValue(for: sent) == "deep=2; mid=3; root=1; root2=4")
        #expect(Cookie.headerValue(for: []) == nil)
    }

    @Test func roundTripsThroughCodable() throws {
        let cookie = Cookie(
            name: "s",
            value: "v",
            domain: "example.com",
            path: "/p",
            expiry: Date(timeIntervalSince1970: 1_800_000_000),
            isSecure: true,
            isHTTPOnly: true,
            isHostOnly: false,
            sameSite: .noRestriction
        )
        let data = try JSONEncoder().encode(cookie)
        #expect(try JSONDecoder().decode(Cookie.self, from: data) == cookie)
        #expect(String(decoding: data, as: UTF8.self).contains(#""sameSite":"None""#))
    }
}
