import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct RequestMatcherTests {
    private struct NewItem: Codable, Sendable {
        let name: String
    }

    /// Sends `request` through a fresh mock that answers everything with 204, and returns its record.
    private func recorded(_ request: HTTPRequest) async throws -> MockTransport.RecordedRequest {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 204))
        _ = try await transport.startTransfer(request).collect(upTo: 1 << 10)
        return try #require(transport.requests.first)
    }

    private func post(_ url: String, headers: [(String, String)] = [], body: String) throws -> HTTPRequest {
        HTTPRequest(
            method: .post,
            url: try #require(URL(string: url)),
            headers: try HTTPHeaders(headers),
            body: HTTPBody(Data(body.utf8))
        )
    }

    @Test func explainsEachFailedConditionOfAConjunction() async throws {
        let request = try await recorded(
            post("https://api.example.com/v1/me?page=2", headers: [("Authorization", "Bearer old")], body: "x")
        )
        let matcher: RequestMatcher =
            .method(.get) && .path("/v1/items") && .header("Authorization", "Bearer new") && .query("page", "3")

        #expect(
            matcher.mismatches(request) == [
                "method is POST, not GET",
                "path is /v1/me, not /v1/items",
                #"header Authorization is "Bearer old", not "Bearer new""#,
                #"query item page is "2", not "3""#,
            ]
        )
        #expect(
            matcher.description == "GET and path /v1/items and header Authorization: Bearer new and query item page=3"
        )
        let matching: RequestMatcher =
            .method(.post) && .path("/v1/me") && .header("authorization", "Bearer old") && .query("page")
            && .url("https://api.example.com/v1/me?page=2")
        #expect(matching.matches(request))
    }

    @Test func missingHeadersAndQueryItemsAreNamed() async throws {
        let request = try await recorded(post("https://api.example.com/v1/me", body: ""))

        #expect(RequestMatcher.header("Cookie").mismatches(request) == ["header Cookie is missing"])
        #expect(RequestMatcher.query("page").mismatches(request) == ["query has no item page"])
        #expect((!RequestMatcher.header("Cookie")).matches(request))
        #expect(
            (!RequestMatcher.method(.post)).mismatches(request) == ["matches POST"]
        )
    }

    @Test func jsonBodiesCompareAsValues() async throws {
        let request = try await recorded(
            post("https://api.example.com/v1/items", body: #"{"tags":["a"],"n":1.0,"name":"Ada"}"#)
        )

        #expect(RequestMatcher.body(json: #"{ "name": "Ada", "n": 1, "tags": ["a"] }"#).matches(request))
        #expect(
            RequestMatcher.body(json: #"{"name":"Bob"}"#).mismatches(request) == [
                #"JSON body is "{"tags":["a"],"n":1.0,"name":"Ada"}", not {"name":"Bob"}"#
            ]
        )
        #expect(RequestMatcher.body(json: "{nope").mismatches(request) == ["the expected text is not JSON: {nope"])
        #expect(RequestMatcher.body(decoding: NewItem.self) { $0.name == "Ada" }.matches(request))
        #expect(!RequestMatcher.body(decoding: NewItem.self) { $0.name == "Bob" }.matches(request))
    }

    @Test func rawBodiesAreSummarised() async throws {
        let request = try await recorded(post("https://api.example.com/upload", body: "name=Ada"))

        #expect(RequestMatcher.body("name=Ada").matches(request))
        #expect(RequestMatcher.body(Data("name=Ada".utf8)).matches(request))
        #expect(RequestMatcher.body("name=Bob").mismatches(request) == [#"body is "name=Ada", not "name=Bob""#])
        #expect(
            RequestMatcher.body(Data([0xFF, 0xFE])).mismatches(request) == [
                #"body is "name=Ada", not 2 bytes, not UTF-8"#
            ]
        )
        #expect(RequestMatcher.body(json: "{}").mismatches(request) == [#"body is not JSON: "name=Ada""#])
    }

    @Test func disjunctionMatchesEitherAndExplainsBoth() async throws {
        let request = try await recorded(post("https://api.example.com/v1/items", body: ""))

        #expect((RequestMatcher.method(.put) || .method(.post)).matches(request))
        #expect(
            (RequestMatcher.method(.put) || .path("/v2")).mismatches(request) == [
                "neither (method is POST, not PUT) nor (path is /v1/items, not /v2)"
            ]
        )
        #expect(RequestMatcher("a large body") { $0.body.count > 10 }.mismatches(request) == ["not a large body"])
    }
}
