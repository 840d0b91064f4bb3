import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct InMemoryCookieStoreTests {
    /// 2027-01-15T08:00:00Z: a fixed clock, so expiry and Max-Age are exact.
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func makeStore() -> (InMemoryCookieStore, ManualClock) {
        let clock = ManualClock(startDate: Self.start)
        return (InMemoryCookieStore(clock: clock), clock)
    }

    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func storesAHostOnlyCookieWithTheDefaultPath() throws {
        let (store, _) = makeStore()
        let stored = store.storeCookies(setCookieFields: ["id = 42 "], for: try url("http://API.example.com/v1/users"))
        #expect(stored == [Cookie(name: "id", value: "42", domain: "api.example.com", path: "/v1")])
        #expect(store.cookieHeaderValue(for: try url("http://api.example.com/v1")) == "id=42")
        #expect(store.cookieHeaderValue(for: try url("http://api.example.com/v1/users/7")) == "id=42")
        #expect(store.cookieHeaderValue(for: try url("http://api.example.com/v2")) == nil)
        #expect(store.cookieHeaderValue(for: try url("http://www.api.example.com/v1/")) == nil)
    }

    @Test func readsEveryAttribute() throws {
        let (store, _) = makeStore()
        let stored = store.storeCookies(
            setCookieFields: [
                "sid=abc; Domain=.Example.COM; Path=/app; Expires=Sun, 06 Nov 2033 08:49:37 GMT; Secure; HttpOnly; SameSite=lax"
            ],
            for: try url("https://www.example.com/login")
        )
        let expected = Cookie(
            name: "sid",
            value: "abc",
            domain: "example.com",
            path: "/app",
            expiry: Date(timeIntervalSince1970: 2_014_879_777),
            isSecure: true,
            isHTTPOnly: true,
            isHostOnly: false,
            sameSite: .lax
        )
        #expect(stored == [expected])
        #expect(store.cookieHeaderValue(for: try url("https://shop.example.com/app/cart")) == "sid=abc")
        #expect(store.cookieHeaderValue(for: try url("http://shop.example.com/app/cart")) == nil)
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),  // RFC 1123
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777.0),  // RFC 850, two-digit year
        ("Sun Nov  6 08:49:37 1994", 784_111_777.0),  // asctime
        ("6 nov 2033 8:9:7", 2_014_877_347.0),  // loose
        ("Wed, 29 Feb 2040 00:00:00 GMT", 2_214_086_400.0),  // leap day
    ])
    func parsesCookieDates(text: String, seconds: Double) throws {
        let (store, _) = makeStore()
        let stored = store.storeCookies(setCookieFields: ["a=1; Expires=\(text)"], for: try url("http://example.com/"))
        #expect(stored.first?.expiry == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["Wed, 31 Feb 2040 00:00:00 GMT", "Sun, 06 Nov 1500 08:49:37 GMT", "06 Nov 2033", "tomorrow"])
    func ignoresUnparseableExpires(text: String) throws {
        let (store, _) = makeStore()
        let stored = store.storeCookies(setCookieFields: ["a=1; Expires=\(text)"], for: try url("http://example.com/"))
        #expect(stored.count == 1)
        #expect(stored.first?.expiry == nil)
    }

    @Test func maxAgeWinsOverExpiresAndExpires() throws {
        let (store, clock) = makeStore()
        let site = try url("http://example.com/")
        let stored = store.storeCookies(
            setCookieFields: ["a=1; Max-Age=60; Expires=Sun, 06 Nov 2033 08:49:37 GMT", "b=2; Max-Age=1x"],
            for: site
        )
        #expect(stored.map(\.expiry) == [Self.start.addingTimeInterval(60), nil])
        clock.advance(by: .seconds(59))
        #expect(store.cookieHeaderValue(for: site) == "a=1; b=2")
        clock.advance(by: .seconds(1))
        #expect(store.cookieHeaderValue(for: site) == "b=2")
        #expect(store.snapshot().map(\.name) == ["b"])
    }

    @Test func anExpiredCookieDeletesItsNamesake() throws {
        let (store, _) = makeStore()
        let site = try url("http://example.com/")
        store.storeCookies(setCookieFields: ["a=1", "b=2"], for: site)
        store.storeCookies(setCookieFields: ["a=gone; Max-Age=0"], for: site)
        #expect(store.cookieHeaderValue(for: site) == "b=2")
        store.storeCookies(setCookieFields: ["b=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], for: site)
        #expect(store.cookieHeaderValue(for: site) == nil)
    }

    @Test func replacesInPlaceKeepingCreationOrder() throws {
        let (store, _) = makeStore()
        let site = try url("http://example.com/")
        store.storeCookies(setCookieFields: ["a=1", "b=2", "a=3"], for: site)
        #expect(store.cookieHeaderValue(for: site) == "a=3; b=2")
        // Another path is another cookie.
        store.storeCookies(setCookieFields: ["a=4; Path=/docs"], for: site)
        #expect(store.cookieHeaderValue(for: try url("http://example.com/docs/x")) == "a=4; a=3; b=2")
    }

    @Test(arguments: [
        "a=1; Domain=other.com",
        "a=1; Domain=www.example.com",
        "a=1; Domain=ample.com",
        "noequals",
        "=1",
        "",
    ])
    func rejectsWhatRFC6265Ignores(field: String) throws {
        let (store, _) = makeStore()
        #expect(store.storeCookies(setCookieFields: [field], for: try url("http://example.com/")).isEmpty)
        #expect(store.snapshot().isEmpty)
    }

    @Test func rejectsADomainOnAnIPAddressHostThatIsNotTheHost() throws {
        let (store, _) = makeStore()
        let host = try url("http://127.0.0.1:8080/")
        #expect(store.storeCookies(setCookieFields: ["a=1; Domain=0.0.1"], for: host).isEmpty)
        #expect(store.storeCookies(setCookieFields: ["b=2; Domain=127.0.0.1"], for: host).map(\.isHostOnly) == [false])
    }

    @Test func ignoresEmptyOrRelativeAttributes() throws {
        let (store, _) = makeStore()
        let stored = store.storeCookies(
            setCookieFields: ["a=1; Domain=; Path=relative; SameSite=sometimes; Unknown=x"],
            for: try url("http://example.com/docs/page")
        )
        #expect(stored == [Cookie(name: "a", value: "1", domain: "example.com", path: "/docs")])
    }

    @Test func storesTheSetCookieFieldsOfAResponse() throws {
        let (store, _) = makeStore()
        let headers = try HTTPHeaders([("Set-Cookie", "a=1"), ("Content-Type", "text/plain"), ("set-cookie", "b=2")])
        store.storeCookies(from: headers, for: try url("http://example.com/"))
        #expect(store.cookieHeaderValue(for: try url("http://example.com/")) == "a=1; b=2")
    }

    @Test func worksThroughTheProtocol() async throws {
        let (store, _) = makeStore()
        let cookieStore: any CookieStore = store
        let site = try url("https://example.com/")
        try await cookieStore.setCookie(Cookie(name: "a", value: "1", domain: "example.com", isSecure: true))
        try await cookieStore.setCookies([
            Cookie(name: "b", value: "2", domain: "example.com", isHostOnly: false),
            Cookie(name: "c", value: "3", domain: "other.com"),
        ])
        #expect(try await cookieStore.allCookies().map(\.name) == ["a", "b", "c"])
        #expect(try await cookieStore.cookies(for: site).map(\.name) == ["a", "b"])
        #expect(try await cookieStore.cookies(for: try url("http://sub.example.com/")).map(\.name) == ["b"])
        try await cookieStore.removeCookie(Cookie(name: "a", value: "", domain: "example.com"))
        #expect(try await cookieStore.allCookies().map(\.name) == ["b", "c"])
        try await cookieStore.setCookie(Cookie(name: "b", value: "x", domain: "example.com", expiry: .distantPast))
        #expect(try await cookieStore.allCookies().map(\.name) == ["c"])
        try await cookieStore.removeAllCookies()
        #expect(try await cookieStore.allCookies().isEmpty)
    }

    @Test(arguments: [
        Cookie(name: "", value: "1", domain: "example.com"),
        Cookie(name: "a", value: "1\r\n", domain: "example.com"),
        Cookie(name: "a", value: "1", domain: ""),
        Cookie(name: "a", value: "1", domain: "example.com", path: "docs"),
    ])
    func refusesCookiesNoServerCouldSet(cookie: Cookie) async {
        let (store, _) = makeStore()
        let error = await #expect(throws: TransportError.self) { try await store.setCookie(cookie) }
        #expect(error?.category == .invalidRequest)
        #expect(store.snapshot().isEmpty)
    }
}
