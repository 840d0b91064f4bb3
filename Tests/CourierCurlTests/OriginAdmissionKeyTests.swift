import Foundation
import Testing

@testable import CourierCurl

/// URLs of one origin share an admission key, whether it is read off the URL's text or built from
/// its parsed parts.
@Suite struct OriginAdmissionKeyTests {
    private func key(_ text: String) throws -> Substring {
        OriginAdmission.origin(try #require(URL(string: text)))
    }

    @Test func aPlainURLsKeyIsTheFrontOfItsText() throws {
        #expect(try key("http://127.0.0.1:8080/small?x=1") == "http://127.0.0.1:8080")
        #expect(try key("https://example.com") == "https://example.com")
        #expect(try key("https://example.com#top") == "https://example.com")
    }

    @Test func spellingsOfOneOriginShareAKey() throws {
        let groups = [
            [
                "http://example.com:8080/a", "HTTP://EXAMPLE.com:8080/b", "http://user@example.com:8080/",
                "http://example.com:08080/",
            ],
            ["https://example.com/", "https://Example.COM?q", "https://u:p@example.com/x"],
            ["http://[::1]:81/a", "http://[::1]:81/b"],
        ]
        for group in groups {
            let keys = try group.map(key)
            #expect(Set(keys).count == 1, "\(group): \(keys)")
        }
    }

    @Test func differentOriginsGetDifferentKeys() throws {
        let keys = try [
            "http://example.com/", "https://example.com/", "http://example.com:8080/", "http://example.org/",
            "http://example.com:80/",
        ].map(key)
        #expect(Set(keys).count == keys.count, "\(keys)")
    }

    @Test func tellsTheWebSchemes() throws {
        #expect(OriginAdmission.webScheme(ofOrigin: try key("https://a/")) == (true, true))
        #expect(OriginAdmission.webScheme(ofOrigin: try key("HTTP://a/")) == (true, false))
        #expect(OriginAdmission.webScheme(ofOrigin: try key("ftp://a/")) == (false, false))
        #expect(OriginAdmission.webScheme(ofOrigin: try key("httpx://a/")) == (false, false))
    }
}
