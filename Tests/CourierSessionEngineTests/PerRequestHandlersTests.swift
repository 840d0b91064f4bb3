import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// A request's own interceptor and redirect handler (`RequestOptions`), composed with the
/// session's in Alamofire's order: the request's adapts first and is asked first; its redirect
/// handler replaces the session's.
@Suite struct PerRequestHandlersTests {
    private let start = URL(string: "https://api.example.com/start")!
    private let target = URL(string: "https://api.example.com/target")!

    private static func tagging(_ tag: String) -> RecordingInterceptor.Adapt {
        { request, _ in
            var request = request
            let before = request.headers["X-Order"].map { $0 + "," } ?? ""
            try request.headers.set(name: "X-Order", value: before + tag)
            return request
        }
    }

    @Test func theRequestsInterceptorAdaptsFirstAndIsAskedFirst() async throws {
        let transport = MockTransport()
        transport.stub(url: start.absoluteString, reply: .init(status: 200, body: Data("ok".utf8)))
        transport.stub(url: start.absoluteString, reply: .init(status: 503), times: 1)
        let sessions = RecordingInterceptor(retryDecisions: [.retry], adapt: Self.tagging("session"))
        let requests = RecordingInterceptor(retryDecisions: [.retry], adapt: Self.tagging("request"))
        let session = SessionManager(transport: transport, interceptor: sessions)

        let response = await session.response(
            for: HTTPRequest(url: start),
            serializer: DataResponseSerializer(),
            options: RequestOptions(interceptor: requests)
        )

        #expect(response.error == nil)
        #expect(response.retryCount == 1)
        #expect(transport.requests.map { $0.request.headers["X-Order"] } == ["request,session", "request,session"])
        // The request's retrier answered `.retry` first, so the session's was never asked.
        #expect(requests.retryQuestions.map(\.failure.response?.status.code) == [503])
        #expect(sessions.retryQuestions.isEmpty)
    }

    @Test func theSessionsInterceptorAloneStillRuns() async throws {
        let transport = MockTransport()
        transport.stub(url: start.absoluteString, reply: .init(status: 200))
        let sessions = RecordingInterceptor(adapt: Self.tagging("session"))
        let session = SessionManager(transport: transport, interceptor: sessions)

        _ = await session.response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())

        #expect(transport.requests.map { $0.request.headers["X-Order"] } == ["session"])
    }

    @Test func theRequestsRedirectHandlerReplacesTheSessions() async throws {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 200, body: Data("final".utf8)))
        transport.stub(url: start.absoluteString, reply: .redirect(status: 302, to: target, body: Data()))
        let session = SessionManager(transport: transport, redirectHandler: Redirector.follow)

        let stopped = await session.response(
            for: HTTPRequest(url: start),
            serializer: DataResponseSerializer(validator: ResponseValidator(acceptableStatusCodes: nil)),
            options: RequestOptions(redirectHandler: Redirector.doNotFollow)
        )
        let followed = await session.response(for: HTTPRequest(url: start), serializer: DataResponseSerializer())

        #expect(stopped.response?.status.code == 302)
        // An unfollowed redirect without a body has no data, as Alamofire reports it.
        #expect(stopped.data == nil)
        #expect(followed.data == Data("final".utf8))
        #expect(transport.requests.map(\.request.url) == [start, start, target])
    }

    @Test func aDownloadTakesTheRequestsInterceptor() async throws {
        let transport = MockTransport()
        transport.stub(url: start.absoluteString, reply: .init(status: 200, body: Data("file".utf8)))
        let requests = RecordingInterceptor(adapt: Self.tagging("request"))
        let session = SessionManager(transport: transport)

        let response = await session.download(
            for: HTTPRequest(url: start),
            to: nil,
            options: RequestOptions(interceptor: requests)
        )

        #expect(response.error == nil)
        #expect(transport.requests.map { $0.request.headers["X-Order"] } == ["request"])
    }
}
