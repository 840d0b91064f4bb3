import CourierHTTP
import CourierSessionCore
import FoundationEssentials
import Testing

@Suite struct RedirectRulesTests {
    static let origin = URL(string: "https://api.example.com/login")!
    static let sameOriginTarget = URL(string: "https://api.example.com/home")!
    static let otherOriginTarget = URL(string: "https://cdn.example.net/home")!

    func request(_ method: HTTPMethod, body: HTTPBody = HTTPBody(Data("a=1".utf8))) throws -> HTTPRequest {
        var request = HTTPRequest(method: method, url: Self.origin, body: body)
        try request.headers.set(name: "Content-Type", value: "application/x-www-form-urlencoded")
        try request.headers.set(name: "Content-Length", value: "3")
        try request.headers.set(name: "Authorization", value: "Bearer secret")
        try request.headers.set(name: "Cookie", value: "session=1")
        try request.headers.set(name: "Proxy-Authorization", value: "Basic cHJveHk=")
        try request.headers.set(name: "Accept", value: "application/json")
        request.credential = HTTPCredential(user: "ada", password: "pw")
        return request
    }

    func proposal(_ request: HTTPRequest, status: Int, to location: URL = sameOriginTarget, insecure: Bool = false)
        -> Result<HTTPRequest, SessionError.RedirectFailure>
    {
        RedirectRules.proposal(
            from: request,
            response: HTTPResponse(status: HTTPStatus(code: status)),
            location: location,
            allowsInsecureRedirects: insecure
        )
    }

    @Test(arguments: [301, 302, 303])
    func aPostBecomesABodilessGet(status: Int) throws {
        let next = try proposal(try request(.post), status: status).get()

        #expect(next.method == .get)
        #expect(next.url == Self.sameOriginTarget)
        #expect(next.body.kind == .empty)
        #expect(next.headers["Content-Type"] == nil)
        #expect(next.headers["Content-Length"] == nil)
        #expect(next.headers["Accept"] == "application/json")
    }

    @Test(arguments: [301, 302])
    func a301Or302KeepsAPutAndItsBody(status: Int) throws {
        let next = try proposal(try request(.put), status: status).get()

        #expect(next.method == .put)
        #expect(next.body.kind == .bytes)
        #expect(next.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func a303TurnsEveryMethodButHeadIntoGet() throws {
        #expect(try proposal(try request(.put), status: 303).get().method == .get)
        #expect(try proposal(try request(.delete), status: 303).get().method == .get)
        #expect(try proposal(try request(.head, body: .empty), status: 303).get().method == .head)
    }

    @Test(arguments: [307, 308])
    func a307Or308KeepsTheMethodAndTheBody(status: Int) throws {
        let next = try proposal(try request(.post), status: status).get()

        #expect(next.method == .post)
        #expect(next.body.kind == .bytes)
        #expect(next.headers["Content-Length"] == "3")
    }

    @Test(arguments: [307, 308])
    func a307Or308OfAOneShotBodyIsRefused(status: Int) throws {
        let producer = AsyncThrowingStream<Data, any Error> { $0.finish() }
        let oneShot = try request(.post, body: HTTPBody(length: nil, producer: producer))

        #expect(proposal(oneShot, status: status) == .failure(.bodyNotReplayable))
        // A 303 drops the body, so a one-shot body is no obstacle there.
        #expect(try proposal(oneShot, status: 303).get().method == .get)
    }

    @Test func theSameOriginKeepsTheCredentialAndItsFields() throws {
        let next = try proposal(try request(.get, body: .empty), status: 302).get()

        #expect(next.headers["Authorization"] == "Bearer secret")
        #expect(next.headers["Cookie"] == "session=1")
        #expect(next.headers["Proxy-Authorization"] == "Basic cHJveHk=")
        #expect(next.credential == HTTPCredential(user: "ada", password: "pw"))
    }

    @Test func leavingTheOriginDropsTheCredentialAndItsFields() throws {
        let next = try proposal(try request(.get, body: .empty), status: 302, to: Self.otherOriginTarget).get()

        #expect(next.headers["Authorization"] == nil)
        #expect(next.headers["Cookie"] == nil)
        #expect(next.headers["Proxy-Authorization"] == nil)
        #expect(next.credential == nil)
        #expect(next.headers["Accept"] == "application/json")
    }

    @Test func aPortOrSchemeChangeLeavesTheOrigin() throws {
        let base = try request(.get, body: .empty)
        let otherPort = URL(string: "https://api.example.com:8443/home")!

        #expect(try proposal(base, status: 302, to: otherPort).get().credential == nil)
        #expect(try proposal(base, status: 302, to: otherPort).get().headers["Authorization"] == nil)
    }

    @Test(arguments: [
        ("https://A.Example.com/a", "https://a.example.com:443/b", true),
        ("http://a.example.com/a", "http://a.example.com:80/b", true),
        ("http://a.example.com/a", "https://a.example.com/a", false),
        ("https://a.example.com/a", "https://a.example.com:8443/a", false),
        ("https://a.example.com/a", "https://b.example.com/a", false),
    ])
    func sameOriginComparesSchemeHostAndPort(first: String, second: String, same: Bool) throws {
        let first = try #require(URL(string: first))
        let second = try #require(URL(string: second))

        #expect(RedirectRules.sameOrigin(first, second) == same)
    }

    @Test(arguments: [
        (
            "https://a.example/x", "ftp://a.example/x", false,
            SessionError.RedirectFailure?.some(.disallowedScheme("ftp"))
        ),
        ("https://a.example/x", "HTTP://a.example/x", false, .disallowedScheme("http")),
        ("https://a.example/x", "http://a.example/x", true, nil),
        ("http://a.example/x", "http://b.example/x", false, nil),
        ("http://a.example/x", "https://a.example/x", false, nil),
        ("https://a.example/x", "file:///etc/passwd", true, .disallowedScheme("file")),
    ])
    func schemeRules(source: String, target: String, insecure: Bool, failure: SessionError.RedirectFailure?) throws {
        let source = try #require(URL(string: source))
        let target = try #require(URL(string: target))

        #expect(RedirectRules.schemeFailure(from: source, to: target, allowsInsecureRedirects: insecure) == failure)
    }

    @Test func aDowngradeIsRefusedBeforeAnyRewriting() throws {
        let http = URL(string: "http://api.example.com/home")!

        #expect(proposal(try request(.post), status: 303, to: http) == .failure(.disallowedScheme("http")))
        #expect(try proposal(try request(.post), status: 303, to: http, insecure: true).get().method == .get)
    }

    @Test func theFieldListsAreTheDocumentedOnes() {
        #expect(RedirectRules.originBoundFields == ["Authorization", "Cookie", "Proxy-Authorization"])
        #expect(
            RedirectRules.bodyFields == ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]
        )
    }
}

extension Result where Success == HTTPRequest, Failure == SessionError.RedirectFailure {
    fileprivate static func == (result: Self, failure: Self) -> Bool {
        guard case .failure(let lhs) = result, case .failure(let rhs) = failure else { return false }
        return lhs == rhs
    }
}
