import CourierHTTP
import Foundation
import Testing

@Suite struct HTTPRequestTests {
    static let url = URL(string: "https://example.com/items")!
    static let otherURL = URL(string: "https://example.org/other?page=2")!

    /// A request with every setting given, so that a change to any of them can be seen.
    static func configured() throws -> HTTPRequest {
        var request = HTTPRequest(
            method: .post,
            url: url,
            headers: try HTTPHeaders(["Accept": "application/json"]),
            body: HTTPBody(Data("original".utf8))
        )
        request.timeout = .seconds(10)
        request.connectTimeout = .seconds(3)
        request.idleTimeout = .seconds(5)
        request.handlesCookies = true
        request.maximumResponseBodySize = 1 << 20
        request.credential = HTTPCredential(user: "ada", password: "s3cret")
        request.cachePolicy = .reloadIgnoringCache
        return request
    }

    /// Every field of `request` against those of ``configured()``.
    static func expectConfigured(_ request: HTTPRequest) {
        #expect(request.method == .post)
        #expect(request.url == url)
        #expect(request.headers.count == 1)
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.body.bytes == Data("original".utf8))
        #expect(request.timeout == .seconds(10))
        #expect(request.connectTimeout == .seconds(3))
        #expect(request.idleTimeout == .seconds(5))
        #expect(request.handlesCookies == true)
        #expect(request.maximumResponseBodySize == 1 << 20)
        #expect(request.credential == HTTPCredential(user: "ada", password: "s3cret"))
        #expect(request.cachePolicy == .reloadIgnoringCache)
    }

    /// Changes every field.
    static func changeEverything(_ request: inout HTTPRequest) throws {
        request.method = .put
        request.url = otherURL
        try request.headers.set(name: "Accept", value: "text/plain")
        try request.headers.add(name: "X-Trace", value: "1")
        request.body = HTTPBody(Data("changed".utf8))
        request.timeout = nil
        request.connectTimeout = .seconds(1)
        request.idleTimeout = nil
        request.handlesCookies = false
        request.maximumResponseBodySize = nil
        request.credential = nil
        request.cachePolicy = .cacheOnly
    }

    @Test func newRequestsTakeTheDocumentedDefaults() {
        let request = HTTPRequest(url: Self.url)
        #expect(request.method == .get)
        #expect(request.headers.isEmpty)
        #expect(request.body.kind == .empty)
        #expect(request.timeout == nil && request.connectTimeout == nil && request.idleTimeout == nil)
        #expect(request.handlesCookies == nil && request.maximumResponseBodySize == nil && request.credential == nil)
        #expect(request.cachePolicy == .useProtocolPolicy)
        #expect(request.description == "GET https://example.com/items")
    }

    @Test func changingACopyLeavesTheOriginalAlone() throws {
        let original = try Self.configured()
        var copy = original
        try Self.changeEverything(&copy)
        Self.expectConfigured(original)
        #expect(copy.method == .put)
        #expect(copy.url == Self.otherURL)
        #expect(copy.headers["Accept"] == "text/plain" && copy.headers["X-Trace"] == "1")
        #expect(copy.body.bytes == Data("changed".utf8))
        #expect(copy.timeout == nil && copy.idleTimeout == nil && copy.maximumResponseBodySize == nil)
        #expect(copy.connectTimeout == .seconds(1))
        #expect(copy.handlesCookies == false && copy.credential == nil)
        #expect(copy.cachePolicy == .cacheOnly)
    }

    @Test func changingTheOriginalLeavesACopyAlone() throws {
        var original = try Self.configured()
        let copy = original
        try Self.changeEverything(&original)
        Self.expectConfigured(copy)
        #expect(original.method == .put)
    }

    @Test func eachFieldChangedAloneChangesOnlyThatCopy() throws {
        let original = try Self.configured()
        // Each change, and a check that it took on the copy.
        let changes: [(String, (inout HTTPRequest) throws -> Void, (HTTPRequest) -> Bool)] = [
            ("method", { $0.method = .delete }, { $0.method == .delete }),
            ("url", { $0.url = Self.otherURL }, { $0.url == Self.otherURL }),
            ("headers", { $0.headers.remove(name: "Accept") }, { $0.headers.isEmpty }),
            ("body", { $0.body = .empty }, { $0.body.kind == .empty }),
            ("timeout", { $0.timeout = .seconds(99) }, { $0.timeout == .seconds(99) }),
            ("connectTimeout", { $0.connectTimeout = nil }, { $0.connectTimeout == nil }),
            ("idleTimeout", { $0.idleTimeout = .seconds(99) }, { $0.idleTimeout == .seconds(99) }),
            ("handlesCookies", { $0.handlesCookies = nil }, { $0.handlesCookies == nil }),
            ("maximumResponseBodySize", { $0.maximumResponseBodySize = 7 }, { $0.maximumResponseBodySize == 7 }),
            (
                "credential", { $0.credential = HTTPCredential(user: "bob", password: "x") },
                { $0.credential?.user == "bob" }
            ),
            ("cachePolicy", { $0.cachePolicy = .returnCachedElseLoad }, { $0.cachePolicy == .returnCachedElseLoad }),
        ]
        for (name, change, took) in changes {
            var copy = original
            try change(&copy)
            #expect(took(copy), "\(name) did not change on the copy")
            Self.expectConfigured(original)
        }
    }

    @Test func copiesChainedThroughSeveralHandsStayIndependent() throws {
        // As the session hands a request on: adapter, retry, redirect, each from the one before.
        let first = try Self.configured()
        var second = first
        try second.headers.add(name: "Authorization", value: "Bearer a")
        var third = second
        third.url = Self.otherURL
        var fourth = third
        fourth.headers.remove(name: "Authorization")
        Self.expectConfigured(first)
        #expect(second.headers["Authorization"] == "Bearer a" && second.url == Self.url)
        #expect(third.headers["Authorization"] == "Bearer a" && third.url == Self.otherURL)
        #expect(fourth.headers["Authorization"] == nil && fourth.url == Self.otherURL)
    }

    @Test func aRequestChangedManyTimesInPlaceKeepsEveryChange() throws {
        var request = HTTPRequest(url: Self.url)
        for index in 0..<100 { try request.headers.add(name: "X-\(index)", value: String(index)) }
        #expect(request.headers.count == 100)
        #expect(request.headers["X-42"] == "42")
    }

    @Test func copiesChangedConcurrentlyStayIndependent() async throws {
        let original = try Self.configured()
        let urls = await withTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var copy = original
                    copy.url = URL(string: "https://example.com/\(index)")!
                    try? copy.headers.set(name: "X-Index", value: String(index))
                    return copy.headers["X-Index"] == String(index) ? copy.url.absoluteString : "mixed up"
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(urls == Set((0..<16).map { "https://example.com/\($0)" }))
        Self.expectConfigured(original)
    }
}
