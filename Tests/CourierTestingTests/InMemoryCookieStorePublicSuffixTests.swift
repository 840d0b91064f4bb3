import CourierTesting
import CourierTransport
import Foundation
import Testing

/// `InMemoryCookieStore` consults no public suffix list, unlike libcurl's jar with libpsl
/// (`CurlCookieLimitTests.aCookieForAPublicSuffixIsRefused`): a test double must not be relied on
/// to refuse a cookie for a public suffix.
@Suite struct InMemoryCookieStorePublicSuffixTests {
    @Test func aCookieForAPublicSuffixIsStoredAndSentToEverySiteUnderIt() throws {
        let store = InMemoryCookieStore()
        let shop = try #require(URL(string: "https://shop.example.co.uk/"))
        let stored = store.storeCookies(setCookieFields: ["suffix=1; Domain=co.uk; Path=/"], for: shop)
        #expect(stored.map(\.domain) == ["co.uk"])
        #expect(store.cookieHeaderValue(for: try #require(URL(string: "https://other.co.uk/"))) == "suffix=1")
    }
}
