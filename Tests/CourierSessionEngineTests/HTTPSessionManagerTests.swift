import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct HTTPSessionManagerTests {
    private func manager(_ base: String?, transport: MockTransport = MockTransport()) -> HTTPSessionManager {
        HTTPSessionManager(baseURL: base.flatMap(URL.init(string:)), session: SessionManager(transport: transport))
    }

    @Test func aBaseURLWithAPathGetsATrailingSlashAndOneWithoutStaysAsItIs() {
        #expect(manager("http://example.com/v1").baseURL?.absoluteString == "http://example.com/v1/")
        #expect(manager("http://example.com/v1/").baseURL?.absoluteString == "http://example.com/v1/")
        #expect(manager("https://httpbin.org").baseURL?.absoluteString == "https://httpbin.org")
        #expect(manager("http://example.com/v1").url(for: "users")?.absoluteString == "http://example.com/v1/users")
        #expect(manager("http://example.com/v1?key=1").baseURL?.absoluteString == "http://example.com/v1/?key=1")
        #expect(manager("http://example.com/v1").url(for: "/root")?.absoluteString == "http://example.com/root")
    }

    /// RFC 3986 §5.4: every normal and abnormal example, against `http://a/b/c/d;p?q`.
    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ])
    func resolvesReferencesAsRFC3986Says(reference: String, expected: String) throws {
        let base = try #require(URL(string: "http://a/b/c/d;p?q"))
        #expect(URLResolution.resolve(reference, against: base)?.absoluteString == expected)
    }

    @Test func aCallNeedsAnHTTPSchemeInAnyCaseAndAHostThatDecodes() throws {
        let api = manager(nil)
        for accepted in ["HTTPS://a%20b.test/", "Http://x.test/p", "http://user@/x", "http://[::1]:8/"] {
            #expect(throws: Never.self, "\(accepted)") { try api.request(.get, accepted) }
        }
        for refused in ["http://%FF/", "http:///p", "httpx://x.test/", "ftp://x.test/", "http:x"] {
            let error = #expect(throws: SerializationError.self, "\(refused)") { try api.request(.get, refused) }
            #expect(error?.code == .invalidRequest)
            #expect(error?.urlErrorCode == -1000)
        }
    }

    @Test func parametersGoWhereTheSerializerPutsThemAndCallHeadersWin() throws {
        let api = manager("https://api.example.com/v1")
        let get = try api.request(.get, "items", parameters: ["page": 2])
        #expect(get.url.absoluteString == "https://api.example.com/v1/items?page=2")
        let post = try api.request(.post, "items", parameters: ["name": "Ada"])
        #expect(post.body.bytes == Data("name=Ada".utf8))

        var serializer = HTTPRequestSerializer()
        try serializer.setValue("default-foo", forHeader: "X-Foo")
        try serializer.setValue("default-bar", forHeader: "X-Bar")
        api.requestSerializer = serializer
        let call = try api.request(.get, "items", headers: try HTTPHeaders(["X-Foo": "call-foo"]))
        #expect(call.headers["X-Foo"] == "call-foo")
        #expect(call.headers["X-Bar"] == "default-bar")
        #expect(call.headers.values(for: "X-Foo").count == 1)
    }

    @Test func eachVerbSendsItsMethodAndTheJSONValueComesBack() async throws {
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            reply: .init(headers: ["Content-Type": "application/json"], body: Data(#"{"ok":true}"#.utf8))
        )
        let api = manager("https://api.example.com", transport: transport)
        let methods: [(HTTPSessionManager, @escaping @Sendable (DataResponse<JSONValue>) -> Void) -> SessionTask?] = [
            { $0.get("a", completion: $1) }, { $0.head("a", completion: $1) }, { $0.post("a", completion: $1) },
            { $0.put("a", completion: $1) }, { $0.patch("a", completion: $1) }, { $0.delete("a", completion: $1) },
        ]
        for call in methods {
            let signal = CompletionSignal()
            let task = call(api) { response in
                #expect(response.error == nil)
                signal.signal()
            }
            #expect(task?.state == .running || task?.state == .completed)
            await signal.wait()
        }
        #expect(transport.requests.map(\.request.method.rawValue) == ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
    }

    @Test func aRequestThatCannotBeSerializedReportsAsynchronouslyWithNoTask() async {
        let transport = MockTransport()
        let api = manager(nil, transport: transport)
        let signal = CompletionSignal()
        let task = api.get("not a url") { response in
            #expect(response.error?.kind == .serialization)
            #expect(response.error?.urlErrorCode == -1000)
            #expect(response.request == nil)
            signal.signal()
        }
        #expect(task == nil)
        await signal.wait()
        #expect(transport.startedRequests.isEmpty)
    }

    @Test func asyncTwinsDecodeAndEncode() async throws {
        struct Item: Codable, Sendable, Equatable {
            let id: Int
            let name: String
        }
        let transport = MockTransport()
        transport.stub(
            matching: { $0.method == .post },
            respond: { recorded in
                MockTransport.Reply(headers: ["Content-Type": "application/json"], body: recorded.body)
            }
        )
        let api = manager("https://api.example.com", transport: transport)
        api.requestSerializer = JSONRequestSerializer()

        let echoed = try await api.decodable(.post, "items", encoding: Item(id: 1, name: "Ada"), as: Item.self)

        #expect(echoed.value == Item(id: 1, name: "Ada"))
        #expect(transport.requests.first?.request.headers["Content-Type"]?.hasPrefix("application/json") == true)
        await #expect(throws: SessionError.self) {
            try await api.decodable(.get, "missing", as: Item.self)
        }
    }
}
