import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct DefaultHeadersTests {
    @Test func buildsAcceptLanguageWithDescendingQualities() {
        #expect(AcceptLanguage.headerValue(preferredLanguages: ["en-GB"]) == "en-GB;q=1")
        #expect(AcceptLanguage.headerValue(preferredLanguages: ["en-GB", "fr"]) == "en-GB;q=1, fr;q=0.9")
        #expect(
            AcceptLanguage.headerValue(preferredLanguages: ["a", "b", "c", "d", "e", "f", "g", "h"])
                == "a;q=1, b;q=0.9, c;q=0.8, d;q=0.7, e;q=0.6, f;q=0.5"
        )
    }

    @Test func omitsAcceptLanguageWithoutLanguages() {
        #expect(AcceptLanguage.headerValue(preferredLanguages: []) == nil)
        #expect(AcceptLanguage.headerValue(preferredLanguages: ["", "\r\n"]) == nil)
        #expect(HTTPRequestSerializer(preferredLanguages: [], userAgent: nil).headers.isEmpty)
    }

    @Test func stripsCharactersAHeaderCannotCarry() {
        #expect(AcceptLanguage.headerValue(preferredLanguages: ["de\r\n-CH", "ü", "fr"]) == "de-CH;q=1, fr;q=0.9")
    }

    @Test func readsThePlatformsPreferredLanguagesByDefault() {
        let expected = AcceptLanguage.headerValue(preferredLanguages: Locale.preferredLanguages)
        #expect(HTTPRequestSerializer(userAgent: nil).value(forHeader: "Accept-Language") == expected)
    }

    @Test func buildsTheUserAgentFromItsParts() {
        #expect(
            UserAgent.headerValue(executableName: "courier", version: "1.2", kernelRelease: "6.1.0-18-amd64")
                == "courier/1.2 (Linux 6.1.0-18-amd64)"
        )
        #expect(UserAgent.headerValue(executableName: "worker", version: nil, kernelRelease: nil) == "worker (Linux)")
        #expect(UserAgent.headerValue(executableName: "Café☕", version: "2", kernelRelease: "6") == "Cafe/2 (Linux 6)")
    }

    @Test(arguments: [
        ("Café", "Cafe"), ("Straße", "Strasse"), ("Łódź", "Lodz"), ("Ærøskøbing", "AEroskobing"),
        ("Đakovo", "Dakovo"), ("Ǿlen", "Olen"), ("crème brûlée", "creme brulee"), ("ĳs", "ijs"),
        ("Å\u{30A}", "A"), ("naïve “app” – v2…", "naive \"app\" - v2..."), ("Þórr", "THorr"),
        ("ﬁle\u{00A0}1", "file 1"), ("Привет app", " app"), ("日本/1\u{0007}", "/1"),
    ])
    func transliteratesTheUserAgentToASCIIAsAFNetworkingDoes(name: String, expected: String) {
        // AFNetworking's ICU transform spells these letters the same way; other scripts it would
        // romanise are dropped here (see UserAgent's documentation).
        #expect(UserAgent.headerValue(executableName: name, version: nil, kernelRelease: nil) == expected + " (Linux)")
    }

    @Test func describesThisProcessInTheDefaultUserAgent() throws {
        let value = UserAgent.current(version: "9.9")
        let release = try #require(UserAgent.kernelRelease)
        #expect(!release.isEmpty)
        #expect(value == "\(UserAgent.executableName)/9.9 (Linux \(release))")
        #expect(value.utf8.allSatisfy { (0x20...0x7E).contains($0) })
        #expect(HTTPRequestSerializer(preferredLanguages: []).value(forHeader: "User-Agent") == UserAgent.current())
    }

    @Test func foldsAnInjectedUserAgentToASCII() {
        let serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: "Ünïcode/1\r\n")
        #expect(serializer.value(forHeader: "User-Agent") == "Unicode/1")
    }

    @Test func setsBasicAuthorization() throws {
        var serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: nil)
        serializer.setAuthorizationHeader(username: "user", password: "password")
        #expect(serializer.value(forHeader: "Authorization") == "Basic dXNlcjpwYXNzd29yZA==")
        serializer.setAuthorizationHeader(username: "ünï", password: "p:ss wörd\r\n")
        #expect(serializer.value(forHeader: "Authorization") == "Basic w7xuw686cDpzcyB3w7ZyZA0K")
        let request = try serializer.request(method: .get, urlString: "http://x.test/")
        #expect(request.headers["Authorization"] == "Basic w7xuw686cDpzcyB3w7ZyZA0K")
        serializer.clearAuthorizationHeader()
        #expect(serializer.value(forHeader: "Authorization") == nil)
    }

    @Test func keepsTheRequestsOwnAuthorization() throws {
        var serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: nil)
        serializer.setAuthorizationHeader(username: "user", password: "password")
        var request = HTTPRequest(url: try #require(URL(string: "http://x.test/")))
        try request.headers.add(name: "authorization", value: "Bearer abc")
        #expect(
            try serializer.serialize(request, parameters: nil).headers.values(for: "Authorization") == ["Bearer abc"]
        )
    }

    @Test func setsAndValidatesBearerTokens() throws {
        var serializer = HTTPRequestSerializer(preferredLanguages: [], userAgent: nil)
        try serializer.setAuthorizationHeader(bearerToken: "mF_9.B5f-4.1JqM/+==")
        #expect(serializer.value(forHeader: "Authorization") == "Bearer mF_9.B5f-4.1JqM/+==")
        for token in ["", "==", "a b", "a\r\nX: y", "tök", "a=b"] {
            let error = #expect(throws: SerializationError.self, "\(token.debugDescription)") {
                try serializer.setAuthorizationHeader(bearerToken: token)
            }
            #expect(error?.code == .invalidRequest)
        }
        #expect(serializer.value(forHeader: "Authorization") == "Bearer mF_9.B5f-4.1JqM/+==")
    }
}
