import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct SessionRedirectTests {
    private let start = URL(string: "https://api.example.com/start")!
    private let target = URL(string: "https://api.example.com/target")!

    private func post(_ url: URL, body: HTTPBody = HTTPBody(Data("payload".utf8))) throws -> HTTPRequest {
        var request = HTTPRequest(method: .post, url: url, body: body)
        try request.headers.set(name: "Content-Type", value: "text/plain")
        return request
    }

    /// A transport that redirects `start` to `to` with `status`, and answers everything else 200.
    private func redirecting(_ status: Int, to location: URL, body: Data = Data("moved".utf8)) -> MockTransport {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 200, body: Data("final".utf8)))
        transport.stub(url: start.absoluteString, reply: .redirect(status: status, to: location, body: body))
        return transport
    }

    @Test(arguments: [301, 302, 303])
    func aRedirectedPostBecomesAGetWithoutItsBody(status: Int) async throws {
        let transport = redirecting(status, to: target)
        let session = SessionManager(transport: transport)

        let response = try await session.data(for: try post(start))

        #expect(response.data == Data("final".utf8))
        #expect(response.redirects.map(\.status.code) == [status])
        #expect(response.metrics.count == 2)
        let second = try #require(transport.requests.last)
        #expect(second.request.method == .get)
        #expect(second.body.isEmpty)
        #expect(second.request.headers["Content-Type"] == nil)
    }

    @Test(arguments: [307, 308])
    func aTemporaryOrPermanentRedirectKeepsMethodAndBody(status: Int) async throws {
        let transport = redirecting(status, to: target)
        let session = SessionManager(transport: transport)

        _ = try await session.data(for: try post(start))

        let second = try #require(transport.requests.last)
        #expect(second.url == target)
        #expect(second.request.method == .post)
        #expect(second.body == Data("payload".utf8))
        #expect(second.request.headers["Content-Type"] == "text/plain")
    }

    @Test func aOneShotBodyUnderA307FailsWithATypedError() async throws {
        let transport = redirecting(307, to: target)
        let session = SessionManager(transport: transport)
        let oneShot = HTTPBody(length: nil, producer: AsyncThrowingStream<Data, any Error> { $0.finish() })

        let response = await session.response(for: try post(start, body: oneShot), serializer: DataResponseSerializer())

        #expect(response.error?.kind == .redirect(.bodyNotReplayable))
        #expect(response.error?.urlErrorCode == -1021)
        #expect(transport.requests.count == 1)
    }

    @Test func leavingTheOriginDropsCredentialsAndStayingKeepsThem() async throws {
        for (location, keeps) in [(target, true), (URL(string: "https://other.example.com/target")!, false)] {
            let transport = redirecting(302, to: location)
            let session = SessionManager(transport: transport)
            var request = HTTPRequest(url: start)
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Trace"] {
                try request.headers.set(name: name, value: "secret")
            }
            request.credential = HTTPCredential(user: "ada", password: "s3cret")

            _ = try await session.data(for: request)

            let second = try #require(transport.requests.last?.request)
            #expect((second.headers["Authorization"] != nil) == keeps)
            #expect((second.headers["Cookie"] != nil) == keeps)
            #expect((second.headers["Proxy-Authorization"] != nil) == keeps)
            #expect((second.credential != nil) == keeps)
            #expect(second.headers["X-Trace"] == "secret")
        }
    }

    @Test func onlyHTTPAndHTTPSAreFollowedAndHTTPSToHTTPOnlyWhenAllowed() async throws {
        let insecure = URL(string: "http://api.example.com/target")!
        let refused = await SessionManager(transport: redirecting(302, to: insecure))
            .response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())
        #expect(refused.error?.kind == .redirect(.disallowedScheme("http")))

        var configuration = SessionConfiguration()
        configuration.allowsInsecureRedirects = true
        let allowed = await SessionManager(transport: redirecting(302, to: insecure), configuration: configuration)
            .response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())
        #expect(allowed.error == nil)

        let ftp = await SessionManager(transport: redirecting(302, to: URL(string: "ftp://api.example.com/x")!))
            .response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())
        #expect(ftp.error?.kind == .redirect(.disallowedScheme("ftp")))
    }

    @Test func aChainLongerThanTheLimitFailsWithAFsTooManyRedirects() async {
        // Given: /hop/N redirects to /hop/N+1, forever
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            respond: { recorded in
                let hop = Int(recorded.url.lastPathComponent) ?? 0
                return .redirect(to: URL(string: "https://api.example.com/hop/\(hop + 1)")!)
            }
        )
        var configuration = SessionConfiguration()
        configuration.maximumRedirects = 3

        let response = await SessionManager(transport: transport, configuration: configuration)
            .response(
                for: HTTPRequest(url: URL(string: "https://api.example.com/hop/0")!),
                serializer: DataResponseSerializer()
            )

        let visited = (0...3).map { URL(string: "https://api.example.com/hop/\($0)")! }
        #expect(response.error?.kind == .redirect(.tooManyRedirects(limit: 3, visited: visited)))
        #expect(response.error?.message.contains("hop/3 -> https://api.example.com/hop/4") == true)
        #expect(response.error?.urlErrorCode == -1007)
        #expect(transport.requests.count == 4)
    }

    @Test func aChainBackToAVisitedURLIsFollowedUntilTheLimit() async {
        let transport = MockTransport()
        transport.stub(url: start.absoluteString, reply: .redirect(to: target))
        transport.stub(url: target.absoluteString, reply: .redirect(to: start))
        let response = await SessionManager(transport: transport)
            .response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())
        guard case .redirect(.tooManyRedirects(let limit, let visited)) = response.error?.kind else {
            Issue.record("expected the redirect limit, got \(String(describing: response.error))")
            return
        }
        #expect(limit == 16)
        #expect(visited.count == 17)
        #expect(visited.prefix(3) == [start, target, start])
        #expect(transport.requests.count == 17)
    }

    @Test func notFollowingMakesTheRedirectWithItsBodyTheResult() async throws {
        let session = SessionManager(transport: redirecting(302, to: target), redirectHandler: Redirector.doNotFollow)
        let response = await session.response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())
        #expect(response.response?.status.code == 302)
        #expect(response.data == Data("moved".utf8))
        #expect(response.redirects.isEmpty)
    }

    @Test func aHandlerCanChangeTheNextRequest() async throws {
        let transport = redirecting(302, to: target)
        let tagging = Redirector { proposed, response, _ in
            var next = proposed
            try? next.headers.set(name: "X-Redirected-From", value: String(response.status.code))
            return .followModified(next)
        }
        _ = try await SessionManager(transport: transport, redirectHandler: tagging).data(for: HTTPRequest(url: start))
        #expect(transport.requests.last?.request.headers["X-Redirected-From"] == "302")
    }

    @Test func aLargeRedirectBodyIsCancelledInsteadOfDrained() async throws {
        let transport = redirecting(302, to: target, body: Data(count: 1 << 20))
        let response = try await SessionManager(transport: transport).data(for: HTTPRequest(url: start))
        #expect(response.data == Data("final".utf8))
        #expect(transport.controlCalls.map(\.action) == [.cancel])
        #expect(transport.controlCalls.first?.url == start)
    }
}

@Suite struct SessionCookieTests {
    @Test func aCookieSetByARedirectIsSentByTheTransportOnTheNextHop() async throws {
        // A login flow: the 302 sets the session cookie and the target needs it. The session never
        // writes a Cookie field itself: the transport's store does.
        let transport = MockTransport()
        let home = URL(string: "https://app.example.com/home")!
        transport.stub(
            url: "https://app.example.com/login",
            reply: .redirect(to: home, headers: ["Set-Cookie": "sid=42; Path=/; Secure; HttpOnly"])
        )
        transport.stub(url: home.absoluteString, reply: .init(status: 200))
        let session = SessionManager(transport: transport)

        _ = try await session.data(for: HTTPRequest(url: URL(string: "https://app.example.com/login")!))

        #expect(transport.requests.first?.request.headers["Cookie"] == nil)
        #expect(transport.requests.last?.request.headers["Cookie"] == "sid=42")
    }
}
