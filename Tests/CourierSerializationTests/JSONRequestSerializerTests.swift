import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct JSONRequestSerializerTests {
    private let serializer = JSONRequestSerializer(
        base: HTTPRequestSerializer(preferredLanguages: ["en"], userAgent: "app/1 (Linux)"),
        writingOptions: [.sortedKeys]
    )

    private func post(_ parameters: Parameters?, _ serializer: JSONRequestSerializer? = nil) throws -> HTTPRequest {
        try (serializer ?? self.serializer).request(
            method: .post,
            urlString: "http://x.test/items",
            parameters: parameters
        )
    }

    @Test func writesCompactJSONWithEscapedSlashes() throws {
        let request = try post(["name": "Ada", "path": "a/b", "n": 1, "d": 0.5, "t": true, "z": nil, "list": [1, "x"]])
        let text = String(decoding: request.body.bytes ?? Data(), as: UTF8.self)
        #expect(text == #"{"d":0.5,"list":[1,"x"],"n":1,"name":"Ada","path":"a\/b","t":true,"z":null}"#)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Accept-Language"] == "en;q=1")
    }

    @Test func honoursWritingOptions() throws {
        var serializer = serializer
        serializer.writingOptions = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try post(["p": "a/b"], serializer).body.bytes == Data(#"{"p":"a/b"}"#.utf8))
        serializer.writingOptions = [.sortedKeys, .prettyPrinted]
        let pretty = String(decoding: try post(["a": 1, "b": [2]], serializer).body.bytes ?? Data(), as: UTF8.self)
        #expect(pretty.contains("\n"))
        let decoded = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? [String: Any]
        #expect(decoded?["a"] as? Int == 1)
    }

    @Test func writesNoBodyAndNoContentTypeForNilParameters() throws {
        let request = try post(nil)
        #expect(request.body.kind == .empty)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.headers["User-Agent"] == "app/1 (Linux)")
    }

    @Test func writesAnEmptyObjectForEmptyParameters() throws {
        #expect(try post([:]).body.bytes == Data("{}".utf8))
    }

    @Test func keepsTheRequestsContentType() throws {
        var request = HTTPRequest(method: .patch, url: try #require(URL(string: "http://x.test/")))
        try request.headers.add(name: "Content-Type", value: "application/merge-patch+json")
        let serialized = try serializer.serialize(request, parameters: ["a": 1])
        #expect(serialized.headers.values(for: "content-type") == ["application/merge-patch+json"])
    }

    @Test func delegatesURIMethodsToTheFormSerializer() throws {
        let request = try serializer.request(method: .get, urlString: "http://x.test/s", parameters: ["q": "a b"])
        #expect(request.url.absoluteString == "http://x.test/s?q=a%20b")
        #expect(request.body.kind == .empty)
        #expect(request.headers["Content-Type"] == nil)
    }

    @Test func rejectsParametersThatAreNotJSON() {
        let invalid: [Parameters] = [
            ["s": .set(["a"])], ["d": .data(Data([1]))], ["n": .double(.nan)], ["i": .double(.infinity)],
            ["deep": ["x": [.double(-.infinity)]]],
        ]
        for parameters in invalid {
            let error = #expect(throws: SerializationError.self) { try post(parameters) }
            #expect(error?.code == .invalidJSONParameters)
            #expect(error?.domain == .request)
            #expect(error?.domain.rawValue == "com.alamofire.error.serialization.request")
            #expect(error?.urlErrorCode == -1016)
            #expect(error?.failureReason == "The `parameters` argument is not valid JSON.")
            #expect(error?.underlying != nil)
        }
    }

    @Test func forwardsSettingsToItsBase() throws {
        var serializer = serializer
        serializer.timeout = .seconds(3)
        serializer.methodsEncodingParametersInURI = []
        #expect(serializer.base.timeout == .seconds(3))
        let request = try serializer.request(method: .get, urlString: "http://x.test/", parameters: ["a": 1])
        #expect(request.timeout == .seconds(3))
        #expect(request.body.bytes == Data(#"{"a":1}"#.utf8))
    }
}
