import CourierHTTP
import CourierImageCache
import Foundation
import Testing

@Suite struct ImageRequestKeyTests {
    func request(_ url: String) throws -> HTTPRequest {
        HTTPRequest(url: try #require(URL(string: url)))
    }

    @Test func pairsThatCollideInAFNetworkingGetDifferentKeys() throws {
        // AFNetworking: "https://x.test/a" + "b.png" == "https://x.test/ab.png" + nothing.
        let first = ImageRequestKey.identifier(for: try request("https://x.test/a"), additionalIdentifier: "b.png")
        let second = ImageRequestKey.identifier(for: try request("https://x.test/ab.png"), additionalIdentifier: nil)

        #expect(first == "https://x.test/a\u{1F}b.png")
        #expect(second == "https://x.test/ab.png")
        #expect(first != second)
    }

    @Test func aNilIdentifierDiffersFromAnEmptyOne() throws {
        let url = try request("https://x.test/a")
        #expect(ImageRequestKey.identifier(for: url, additionalIdentifier: nil) == "https://x.test/a")
        #expect(ImageRequestKey.identifier(for: url, additionalIdentifier: "") == "https://x.test/a\u{1F}")
    }

    @Test func aURLNeverHoldsTheSeparator() throws {
        // URL percent-encodes a control character it is given, so the separator cannot come from
        // the URL side.
        let url = try #require(URL(string: "https://x.test/a\u{1F}b"))
        #expect(!url.absoluteString.contains(ImageRequestKey.separator))
        #expect(URL(string: "https://x.test/a\u{1F}b", encodingInvalidCharacters: false) == nil)
    }

    @Test func theMethodAndHeadersPlayNoPart() throws {
        var post = try request("https://x.test/a")
        post.method = .post
        try post.headers.set(name: "Accept", value: "image/png")
        #expect(
            ImageRequestKey.identifier(for: post, additionalIdentifier: "v")
                == ImageRequestKey.identifier(for: try request("https://x.test/a"), additionalIdentifier: "v")
        )
    }
}
