import CourierSessionCore
import FoundationEssentials
import Testing

@Suite struct URLResolutionTests {
    @Test(arguments: [
        ("https://api.example.com/v1", "https://api.example.com/v1/"),
        ("https://api.example.com/v1/", "https://api.example.com/v1/"),
        ("https://api.example.com/v1?key=a", "https://api.example.com/v1/?key=a"),
        ("https://api.example.com", "https://api.example.com"),
    ])
    func aBasePathGetsItsTrailingSlash(base: String, normalised: String) throws {
        let url = try #require(URL(string: base))

        #expect(URLResolution.normalisedBase(url).absoluteString == normalised)
    }

    @Test(arguments: [
        ("users", "https://api.example.com/v1/users"),
        ("/users", "https://api.example.com/users"),
        ("../v2/users", "https://api.example.com/v2/users"),
        ("https://other.example.net/x", "https://other.example.net/x"),
        ("", "https://api.example.com/v1/"),
    ])
    func referencesResolveAgainstTheNormalisedBase(reference: String, expected: String) throws {
        let base = URLResolution.normalisedBase(try #require(URL(string: "https://api.example.com/v1#top")))

        #expect(URLResolution.resolve(reference, against: base)?.absoluteString == expected)
    }
}
