import CourierHTTP
import CourierSerialization
import FoundationEssentials
import Testing

@Suite struct EncodableRequestSerializerTests {
    private struct Login: Encodable {
        let user: String
        let remember: Bool
        let note: String?
    }

    private struct Tag: Encodable {
        let name: String
        let path: String
    }

    private struct User: Encodable {
        let name: String
        let tags: [String]
    }

    private let base = HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: "app/1 (Linux)")

    private var json: JSONRequestSerializer { JSONRequestSerializer(base: base, writingOptions: [.sortedKeys]) }

    private func text(_ request: HTTPRequest) -> String {
        String(decoding: request.body.bytes ?? Data(), as: UTF8.self)
    }

    // MARK: JSON bodies with an array at the top level

    @Test func writesATopLevelArrayOfParameters() throws {
        let request = try json.request(
            method: .post,
            urlString: "http://x.test/batch",
            jsonObject: [["id": 1, "p": "a/b"], ["id": 2], nil, "x"]
        )
        #expect(text(request) == #"[{"id":1,"p":"a\/b"},{"id":2},null,"x"]"#)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["User-Agent"] == "app/1 (Linux)")
    }

    @Test func writesATopLevelDictionaryAsTheParametersPathDoes() throws {
        let viaObject = try json.request(method: .post, urlString: "http://x.test/", jsonObject: ["b": [1], "a": true])
        let viaParameters = try json.request(
            method: .post,
            urlString: "http://x.test/",
            parameters: ["b": [1], "a": true]
        )
        #expect(text(viaObject) == #"{"a":true,"b":[1]}"#)
        #expect(viaObject.body.bytes == viaParameters.body.bytes)
        let get = try json.request(method: .get, urlString: "http://x.test/s", jsonObject: ["q": "a b"])
        #expect(get.url.absoluteString == "http://x.test/s?q=a%20b")
    }

    @Test(arguments: [ParameterValue.int(42), "text", nil, true, .double(0.5)])
    func rejectsATopLevelScalarAsAFNetworkingDoes(value: ParameterValue) {
        let error = #expect(throws: SerializationError.self) {
            try json.request(method: .post, urlString: "http://x.test/", jsonObject: value)
        }
        #expect(error?.code == .invalidJSONParameters)
        #expect(error?.urlErrorCode == -1016)
        #expect(error?.domain == .request)
        #expect(error?.failureReason == "The `parameters` argument is not valid JSON.")
    }

    @Test func rejectsValuesJSONCannotHoldInsideAnArray() {
        let error = #expect(throws: SerializationError.self) {
            try json.request(method: .put, urlString: "http://x.test/", jsonObject: [.double(.nan)])
        }
        #expect(error?.urlErrorCode == -1016)
        #expect(error?.underlying is EncodingError)
    }

    @Test func refusesAnArrayAsAQueryString() {
        let error = #expect(throws: SerializationError.self) {
            try json.request(method: .get, urlString: "http://x.test/", jsonObject: [1, 2])
        }
        #expect(error?.code == .formEncodingFailed)
    }

    // MARK: Encodable values

    @Test func encodesAnEncodableAsAJSONBody() throws {
        let request = try json.request(
            method: .post,
            urlString: "http://x.test/tags",
            encoding: [Tag(name: "a", path: "x/y"), Tag(name: "b", path: "")]
        )
        #expect(text(request) == #"[{"name":"a","path":"x\/y"},{"name":"b","path":""}]"#)
        #expect(request.headers["Content-Type"] == "application/json")
        let object = try json.request(
            method: .patch,
            urlString: "http://x.test/",
            encoding: Login(user: "jane", remember: false, note: nil)
        )
        #expect(text(object) == #"{"remember":false,"user":"jane"}"#)
    }

    @Test func rejectsAnEncodableScalarOrANonFiniteNumber() {
        let scalar = #expect(throws: SerializationError.self) {
            try json.request(method: .post, urlString: "http://x.test/", encoding: 42)
        }
        #expect(scalar?.code == .invalidJSONParameters)
        #expect(scalar?.urlErrorCode == -1016)
        #expect(scalar?.underlying == nil)
        let string = #expect(throws: SerializationError.self) {
            try json.request(method: .post, urlString: "http://x.test/", encoding: "[not an array]")
        }
        #expect(string?.urlErrorCode == -1016)
        let infinite = #expect(throws: SerializationError.self) {
            try json.request(method: .post, urlString: "http://x.test/", encoding: ["x": Double.infinity])
        }
        #expect(infinite?.underlying is EncodingError)
    }

    @Test func sendsAnEncodableInTheQueryForURIMethods() throws {
        let request = try json.request(
            method: .get,
            urlString: "http://x.test/s?a=1",
            encoding: Login(user: "j d", remember: true, note: nil)
        )
        #expect(request.url.absoluteString == "http://x.test/s?a=1&note&remember=1&user=j%20d")
        #expect(request.body.kind == .empty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func encodesAnEncodableAsAFormBody() throws {
        let request = try base.request(
            method: .post,
            urlString: "http://x.test/login",
            encoding: ["user": User(name: "Jane Doe", tags: ["a", "b"])]
        )
        #expect(text(request) == "user%5Bname%5D=Jane%20Doe&user%5Btags%5D%5B%5D=a&user%5Btags%5D%5B%5D=b")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func writesNilAsABareKeyAsAFNetworkingWritesNull() throws {
        let request = try base.request(
            method: .post,
            urlString: "http://x.test/",
            encoding: Login(user: "j", remember: true, note: nil)
        )
        #expect(text(request) == "note&remember=1&user=j")
        var dropping = base
        dropping.formEncoder.nilEncoding = .dropKey
        let dropped = try dropping.request(method: .post, urlString: "http://x.test/", encoding: ["a": "1", "b": nil])
        #expect(text(dropped) == "a=1")
    }

    @Test func usesTheSerializersFormEncoder() throws {
        struct Page: Encodable {
            let pageSize: Int
            let showAll: Bool
        }
        var serializer = base
        serializer.formEncoder = URLEncodedFormEncoder(boolEncoding: .literal, keyEncoding: .convertToSnakeCase)
        let request = try serializer.request(
            method: .get,
            urlString: "http://x.test/",
            encoding: Page(pageSize: 5, showAll: true)
        )
        #expect(request.url.absoluteString == "http://x.test/?page_size=5&show_all=true")
    }

    @Test func keepsAFormBodyEvenWhenEmptyAndTheRequestsContentType() throws {
        struct Nothing: Encodable {}
        let empty = try base.request(method: .post, urlString: "http://x.test/", encoding: Nothing())
        #expect(empty.body.bytes == Data())
        #expect(empty.headers["Content-Type"] == "application/x-www-form-urlencoded")
        var request = HTTPRequest(method: .put, url: try #require(URL(string: "http://x.test/")))
        try request.headers.add(name: "Content-Type", value: "text/plain")
        let kept = try base.serialize(request, encoding: ["a": 1])
        #expect(kept.headers.values(for: "content-type") == ["text/plain"])
        #expect(text(kept) == "a=1")
    }

    @Test func refusesAnUnkeyedValueAsAForm() {
        let error = #expect(throws: SerializationError.self) {
            try base.request(method: .post, urlString: "http://x.test/", encoding: [1, 2])
        }
        #expect(error?.code == .formEncodingFailed)
    }

    @Test func encodesAnEncodableAsAPropertyList() throws {
        let serializer = PropertyListRequestSerializer(base: base)
        let request = try serializer.request(
            method: .post,
            urlString: "http://x.test/",
            encoding: Tag(name: "a", path: "b")
        )
        #expect(request.headers["Content-Type"] == "application/x-plist")
        let decoded = try PropertyListDecoder().decode([String: String].self, from: request.body.bytes ?? Data())
        #expect(decoded == ["name": "a", "path": "b"])
        let get = try serializer.request(
            method: .delete,
            urlString: "http://x.test/t",
            encoding: Tag(name: "a", path: "b")
        )
        #expect(get.url.absoluteString == "http://x.test/t?name=a&path=b")
    }

    @Test func rejectsABadURLString() {
        let error = #expect(throws: SerializationError.self) {
            try base.request(method: .post, urlString: "ftp://x.test/", encoding: ["a": 1])
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.urlErrorCode == -1000)
    }
}
