import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The real session pipeline over MockTransport, observed through the recording doubles.
@Suite struct SessionPipelineDoublesTests {
    private struct Item: Decodable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    private let api = URL(string: "https://api.example.com/v1/")

    @Test(.timeLimit(.minutes(1)))
    func aRetryIsAdaptedAgainAndReportedToMonitors() async throws {
        let transport = MockTransport()
        transport.stub(url: "https://api.example.com/v1/items/1", json: #"{"id":1,"name":"Ada"}"#)
        transport.stub(url: "https://api.example.com/v1/items/1", reply: .init(status: 503), times: 1)
        let interceptor = RecordingInterceptor(retryDecisions: [.retry]) { request, attempt in
            var request = request
            try request.headers.set(name: "X-Attempt", value: String(attempt.retryCount))
            return request
        }
        let monitor = RecordingEventMonitor()
        let session = SessionManager(transport: transport, interceptor: interceptor, eventMonitors: [monitor])
        let client = HTTPSessionManager(baseURL: api, session: session)

        let item = try await client.decodable(.get, "items/1", as: Item.self).get()

        #expect(item == Item(id: 1, name: "Ada"))
        #expect(interceptor.adaptations.map(\.attempt.retryCount) == [0, 1])
        // A response the serializer accepts is never offered to a retrier (Alamofire's order).
        #expect(interceptor.retryQuestions.map(\.failure.response?.status.code) == [503])
        #expect(interceptor.retryQuestions.map(\.decision.retryRequired) == [true])
        #expect(transport.verify(.header("X-Attempt", "0"), called: 1) == nil)
        #expect(transport.verify(.header("X-Attempt", "1"), called: 1) == nil)
        let completed = await monitor.first(.taskCompleted)
        #expect(completed?.error == nil)
        #expect(monitor.events(of: .retryScheduled).count == 1)
        #expect(monitor.events(of: .requestStarted).count == 2)
        await session.shutdown()
    }

    @Test func redirectsAreProposedToTheHandlerAndFollowed() async throws {
        let transport = MockTransport()
        let moved = try #require(URL(string: "https://api.example.com/v2/me"))
        transport.stub(url: "https://api.example.com/v1/me", reply: .redirect(status: 301, to: moved))
        transport.stub(url: moved.absoluteString, json: #"{"id":7,"name":"Ada"}"#)
        let redirects = RecordingRedirectHandler()
        let session = SessionManager(transport: transport, redirectHandler: redirects)
        let client = HTTPSessionManager(baseURL: api, session: session)

        let response = try await client.decodable(.get, "me", as: Item.self)

        #expect(response.value == Item(id: 7, name: "Ada"))
        #expect(redirects.redirects.map(\.response.status.code) == [301])
        #expect(redirects.redirects.map(\.proposed.url) == [moved])
        #expect(transport.requests.map(\.url.path) == ["/v1/me", "/v2/me"])
        await session.shutdown()
    }

    @Test func aScriptedRedirectDecisionStopsTheChain() async throws {
        let transport = MockTransport()
        let moved = try #require(URL(string: "https://elsewhere.example.com/"))
        transport.stub(url: "https://api.example.com/v1/me", reply: .redirect(status: 302, to: moved))
        let redirects = RecordingRedirectHandler(decisions: [.doNotFollow])
        let session = SessionManager(transport: transport, redirectHandler: redirects)

        let response = await session.response(
            for: HTTPRequest(url: try #require(URL(string: "https://api.example.com/v1/me"))),
            serializer: DataResponseSerializer(validator: ResponseValidator(acceptableStatusCodes: nil))
        )

        #expect(response.response?.status.code == 302)
        #expect(transport.requests.count == 1)
        await session.shutdown()
    }

    @Test(.timeLimit(.minutes(1)))
    func aFirstWaitIsAnsweredByALaterEventAndCancellationEndsIt() async throws {
        let monitor = RecordingEventMonitor()
        let waiting = Task { await monitor.first(.sessionInvalidated) }
        let session = SessionManager(transport: MockTransport(), eventMonitors: [monitor])
        await session.invalidate(cancelingTasks: true)
        #expect(await waiting.value?.kind == .sessionInvalidated)

        let cancelled = Task { await RecordingEventMonitor().first(.taskCompleted) }
        cancelled.cancel()
        #expect(await cancelled.value == nil)
    }
}
