import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierTestSupport
import Foundation
import Testing

@Suite struct HTTPRequestSerializerTests {
    private let serializer = HTTPRequestSerializer(
        preferredLanguages: ["en-GB", "fr"],
        userAgent: "app/1.0 (Linux 6.1.0)"
    )

    private func url(_ string: String) throws -> URL {
        try #require(URL(string: string))
    }

    private func get(_ urlString: String, _ parameters: Parameters?) throws -> String {
        try serializer.request(method: .get, urlString: urlString, parameters: parameters).url.absoluteString
    }

    @Test func appendsTheQueryToGetRequests() throws {
        #expect(try get("http://example.com", ["key": "value"]) == "http://example.com?key=value")
        #expect(try get("http://example.com/", ["key": "value"]) == "http://example.com/?key=value")
    }

    @Test func escapesQueryValuesAsAFNetworkingDoes() throws {
        #expect(
            try get("http://example.com", ["key": " :#[]@!$&'()*+,;=/?"])
                == "http://example.com?key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?"
        )
        #expect(
            try get("http://example.com", ["key": "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2F"])
                == "http://example.com?key=%2520%2521%2522%2523%2524%2525%2526%2527%2528%2529%252A%252B%252C%252F"
        )
    }

    @Test func appendsNothingForEmptyOrNilParameters() throws {
        #expect(try get("http://example.com", [:]) == "http://example.com")
        #expect(try get("http://example.com", nil) == "http://example.com")
        #expect(try get("http://example.com/p?a=1", [:]) == "http://example.com/p?a=1")
        #expect(try get("http://example.com", ["a": [:]]) == "http://example.com")
    }

    @Test func joinsAnExistingQueryWithAmpersand() throws {
        #expect(try get("http://x.test/p?a=1", ["b": 2]) == "http://x.test/p?a=1&b=2")
    }

    @Test func addsNoAmpersandAfterAnEmptyQueryOrATrailingAmpersand() throws {
        #expect(try get("http://x.test/p?", ["b": 2]) == "http://x.test/p?b=2")
        #expect(try get("http://x.test/p?a=1&", ["b": 2]) == "http://x.test/p?a=1&b=2")
    }

    @Test func insertsTheQueryBeforeTheFragment() throws {
        #expect(try get("http://x.test/p#frag", ["b": 2]) == "http://x.test/p?b=2#frag")
        #expect(try get("http://x.test/p?a=1#f?g", ["b": 2]) == "http://x.test/p?a=1&b=2#f?g")
        #expect(try get("http://x.test/p#", ["b": 2]) == "http://x.test/p?b=2#")
    }

    @Test func putsParametersInTheURIForHeadAndDeleteAndLowerCaseMethods() throws {
        for method in [
            HTTPMethod.head, .delete, try HTTPMethod(validating: "get"), try HTTPMethod(validating: "Delete"),
        ] {
            let request = try serializer.request(method: method, urlString: "http://x.test/p", parameters: ["a": 1])
            #expect(request.url.absoluteString == "http://x.test/p?a=1", "\(method)")
            #expect(request.body.kind == .empty)
            #expect(request.headers["Content-Type"] == nil)
        }
    }

    @Test func comparesURIMethodsWhateverTheirCase() throws {
        var serializer = serializer
        serializer.methodsEncodingParametersInURI = [try HTTPMethod(validating: "purge"), .get]
        #expect(serializer.encodesParametersInURI(try HTTPMethod(validating: "PURGE")))
        #expect(serializer.encodesParametersInURI(try HTTPMethod(validating: "gEt")))
        #expect(!serializer.encodesParametersInURI(try HTTPMethod(validating: "GETS")))
        #expect(!serializer.encodesParametersInURI(.post))
    }

    @Test func honoursAConfiguredSetOfURIMethods() throws {
        var serializer = serializer
        serializer.methodsEncodingParametersInURI = [.get]
        let delete = try serializer.request(method: .delete, urlString: "http://x.test/p", parameters: ["a": 1])
        #expect(delete.url.absoluteString == "http://x.test/p")
        #expect(delete.body.bytes == Data("a=1".utf8))
        serializer.methodsEncodingParametersInURI = [.get, .post]
        let post = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: ["a": 1])
        #expect(post.url.absoluteString == "http://x.test/p?a=1")
    }

    @Test func writesAFormBodyForPost() throws {
        let request = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: ["key": "value"])
        #expect(request.url.absoluteString == "http://x.test/p")
        #expect(request.body.bytes == Data("key=value".utf8))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func writesAnEmptyFormBodyForPostWithoutParameters() throws {
        for parameters in [nil, [:]] as [Parameters?] {
            let request = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: parameters)
            #expect(request.body.bytes == Data())
            #expect(request.body.length == 0)
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        }
    }

    @Test func keepsTheRequestsContentTypeAndReplacesItsBody() throws {
        var request = HTTPRequest(method: .put, url: try url("http://x.test/p"), body: HTTPBody(Data("old".utf8)))
        try request.headers.add(name: "content-type", value: "text/plain")
        let serialized = try serializer.serialize(request, parameters: ["a": "b c"])
        #expect(serialized.headers.values(for: "Content-Type") == ["text/plain"])
        #expect(serialized.body.bytes == Data("a=b%20c".utf8))
    }

    @Test func addsDefaultHeadersOnlyWhereTheRequestLacksThem() throws {
        var request = HTTPRequest(method: .get, url: try url("http://x.test/"))
        try request.headers.add(name: "user-agent", value: "mine/2")
        let serialized = try serializer.serialize(request, parameters: nil)
        #expect(serialized.headers.values(for: "User-Agent") == ["mine/2"])
        #expect(serialized.headers["Accept-Language"] == "en-GB;q=1, fr;q=0.9")
        #expect(serialized.headers.count == 2)
    }

    @Test func givesARequestWithoutHeadersEveryDefaultInOrder() throws {
        let request = try serializer.serialize(HTTPRequest(url: try url("http://x.test/")), parameters: nil)
        #expect(request.headers.map(\.name) == ["Accept-Language", "User-Agent"])
        #expect(request.headers["User-Agent"] == "app/1.0 (Linux 6.1.0)")
    }

    @Test func addsOnlyTheFirstOfRepeatedDefaultHeadersToARequestWithoutHeaders() throws {
        // `addMissing` skips a name once it is present, so a repeated default reaches a request once.
        let defaults = try HTTPHeaders([("Accept", "text/html"), ("X-Trace", "1"), ("accept", "text/plain")])
        let serializer = HTTPRequestSerializer(defaultHeaders: defaults)
        let request = try serializer.serialize(HTTPRequest(url: try url("http://x.test/")), parameters: nil)
        #expect(request.headers.map(\.value) == ["text/html", "1"])
        var replaced = serializer
        try replaced.setValue("application/json", forHeader: "ACCEPT")
        let sent = try replaced.serialize(HTTPRequest(url: try url("http://x.test/")), parameters: nil)
        #expect(sent.headers.map(\.value) == ["application/json", "1"])
    }

    @Test func setsAndRemovesDefaultHeadersCaseInsensitively() throws {
        var serializer = serializer
        try serializer.setValue("application/json", forHeader: "Accept")
        try serializer.setValue("text/html", forHeader: "accept")
        #expect(serializer.headers.values(for: "ACCEPT") == ["text/html"])
        #expect(serializer.value(forHeader: "accept") == "text/html")
        try serializer.setValue(nil, forHeader: "ACCEPT")
        #expect(serializer.value(forHeader: "Accept") == nil)
        let request = try serializer.request(method: .get, urlString: "http://x.test/")
        #expect(request.headers["Accept"] == nil)
    }

    @Test func rejectsInvalidHeaderNamesAndValues() {
        var serializer = serializer
        for (name, value) in [("X-A", "a\r\nInjected: 1"), ("X-B", "nul\u{0}"), ("Bad Name", "v"), ("", "v")] {
            let error = #expect(throws: SerializationError.self) { try serializer.setValue(value, forHeader: name) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.underlying is HTTPValueError)
        }
        #expect(throws: SerializationError.self) { try serializer.setValue(nil, forHeader: "Bad Name") }
        #expect(serializer.headers.count == 2)
    }

    @Test func mirrorsOnlyExplicitlySetRequestSettings() throws {
        var serializer = serializer
        let plain = try serializer.request(method: .get, urlString: "http://x.test/")
        #expect(plain.timeout == nil)
        #expect(plain.handlesCookies == nil)
        serializer.timeout = .seconds(12)
        serializer.handlesCookies = false
        let configured = try serializer.request(method: .post, urlString: "http://x.test/")
        #expect(configured.timeout == .seconds(12))
        #expect(configured.handlesCookies == false)
    }

    @Test func usesACustomQuerySerializerVerbatimOnlyForNonNilParameters() throws {
        var serializer = serializer
        let calls = CallCounter()
        serializer.customQuerySerializer = { request, parameters in
            calls.increment()
            return "raw=" + parameters.keys.sorted().joined(separator: ",") + "&m=" + request.method.rawValue
        }
        let get = try serializer.request(method: .get, urlString: "http://x.test/p", parameters: ["b": 1, "a": 2])
        #expect(get.url.absoluteString == "http://x.test/p?raw=a,b&m=GET")
        let post = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: ["z": 1])
        #expect(post.body.bytes == Data("raw=z&m=POST".utf8))
        let none = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: nil)
        #expect(none.body.bytes == Data())
        _ = try serializer.request(method: .get, urlString: "http://x.test/p", parameters: nil)
        #expect(calls.value == 2)
    }

    @Test func wrapsTheCustomQuerySerializersError() {
        struct Refused: Error {}
        var serializer = serializer
        serializer.customQuerySerializer = { _, _ in throw Refused() }
        let error = #expect(throws: SerializationError.self) {
            try serializer.request(method: .get, urlString: "http://x.test/p", parameters: [:])
        }
        #expect(error?.code == .customQuerySerializationFailed)
        #expect(error?.domain == .request)
        #expect(error?.underlying is Refused)
        #expect(error?.failingURL?.absoluteString == "http://x.test/p")
    }

    @Test func rejectsURLStringsThatAreNotAbsoluteHTTPURLs() {
        for text in ["", "not a url", "/relative/path", "ftp://x.test/", "mailto:a@b.c", "http://"] {
            let error = #expect(throws: SerializationError.self, "\(text.debugDescription)") {
                try serializer.request(method: .get, urlString: text)
            }
            #expect(error?.code == .invalidRequest)
            #expect(error?.urlErrorCode == -1000)
        }
    }

    @Test func appendsQueriesToURLsWithoutLosingAnything() throws {
        #expect(
            try HTTPRequestSerializer.url(url("https://u:p@x.test:8443/a%20b/c?d=e"), appendingQuery: "f=g")
                .absoluteString
                == "https://u:p@x.test:8443/a%20b/c?d=e&f=g"
        )
    }

    @Test func encodesRandomParametersIntoURLsAndBodiesThatParseBack() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var generator = QueryCorpusGenerator(seed: seed)
        for index in 0..<300 {
            let parameters = generator.parameters()
            let all = TestQueryParser.expectedPairs(parameters)
            // An empty query cannot carry a lone null pair with an empty field.
            let expected = { (text: String) in text.isEmpty ? all.filter { !$0.field.isEmpty || $0.value != nil } : all
            }
            let get = try serializer.request(method: .get, urlString: "http://x.test/p?", parameters: parameters)
            let query = try #require(URLComponents(url: get.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
            let fromURL = query.isEmpty ? [] : TestQueryParser.parse(query)
            #expect(fromURL == expected(query), "case \(index), seed \(seed)")
            let post = try serializer.request(method: .post, urlString: "http://x.test/p", parameters: parameters)
            let body = String(decoding: post.body.bytes ?? Data(), as: UTF8.self)
            let fromBody = body.isEmpty ? [] : TestQueryParser.parse(body)
            #expect(fromBody == expected(body), "case \(index), seed \(seed)")
        }
    }
}

/// Counts calls from a `@Sendable` closure.
final class CallCounter: Sendable {
    private let count = Lock(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
