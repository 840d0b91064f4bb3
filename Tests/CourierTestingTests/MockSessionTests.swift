import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTestingExpectations
import CourierTransport
import Foundation
import Testing

/// `MockSession`: the session protocol's double answers from stubs, records calls, and fails
/// unstubbed calls with a typed error; its answers go through the real serializers.
@Suite struct MockSessionTests {
    private struct Profile: Codable, Sendable, Equatable {
        let id: Int
        let name: String
    }

    private let base = URL(string: "https://api.example.com/v1")

    @Test func answersTheProtocolsCallsFromStubsRelativeToTheBaseURL() async throws {
        let session = MockSession(baseURL: base, requestSerializer: JSONRequestSerializer())
        session.stub(method: .put, url: "me", json: #"{"id":1,"name":"Grace"}"#)

        let response = try await session.decodable(.put, "me", encoding: ["name": "Grace"], as: Profile.self)

        #expect(response.value == Profile(id: 1, name: "Grace"))
        #expect(response.response?.status.code == 200)
        #expect(session.calls.map(\.kind) == [.data])
        let sent: RequestMatcher =
            .method(.put) && .url("https://api.example.com/v1/me") && .header("Content-Type", "application/json")
            && .body(json: #"{"name":"Grace"}"#)
        #expect(session.verify(sent, called: 1) == nil)
    }

    /// The same stubbed 401 fails `decodable` alike on the double and on the engine over
    /// MockTransport: the double's answers go through the call's serializer.
    @Test func aRefusedResponseFailsAsTheEngineFailsIt() async throws {
        let session = MockSession(baseURL: base)
        session.stub(url: "me", answer: .response(status: 401, body: Data("no".utf8)))
        let transport = MockTransport()
        transport.stub(url: "https://api.example.com/v1/me", reply: .init(status: 401, body: Data("no".utf8)))
        let engine = HTTPSessionManager(baseURL: base, session: SessionManager(transport: transport))

        let fromDouble = await #expect(throws: SessionError.self) {
            try await session.decodable(.get, "me", as: Profile.self)
        }
        let fromEngine = await #expect(throws: SessionError.self) {
            try await engine.decodable(.get, "me", as: Profile.self)
        }

        #expect(fromDouble?.kind == .serialization)
        #expect(fromDouble?.kind == fromEngine?.kind)
        #expect(fromDouble?.response?.status.code == 401)
        #expect(fromDouble?.urlErrorCode == fromEngine?.urlErrorCode)
        #expect(fromDouble?.message == fromEngine?.message)
        await engine.shutdown()
    }

    @Test func anUnstubbedCallFailsWithATypedErrorAndIsReported() async {
        let session = MockSession(baseURL: base)
        let missed = Lock<[String]>([])
        session.onUnstubbedCall { request in missed.withLock { $0.append("\(request)") } }

        let response = await session.response(
            for: HTTPRequest(method: .delete, url: URL(string: "https://api.example.com/v1/me")!),
            serializer: DataResponseSerializer()
        )

        #expect(response.error?.kind == .transport(.other))
        #expect(response.error?.message == "MockSession has no stub for DELETE https://api.example.com/v1/me")
        #expect(missed.withLock { $0 } == ["DELETE https://api.example.com/v1/me"])
        #expect(session.calls.count == 1)
    }

    @Test func laterStubsWinAndCountedStubsRunOut() async throws {
        let session = MockSession(baseURL: base)
        session.stub(url: "me", json: #"{"id":1,"name":"Ada"}"#)
        session.stub(url: "me", answer: .transportFailure(.timedOut), times: 1)

        let first = await session.response(
            for: try #require(session.url(for: "me")).request,
            serializer: DataResponseSerializer()
        )
        let second = try await session.decodable(.get, "me", as: Profile.self)

        #expect(first.error?.kind == .transport(.timedOut))
        #expect(first.error?.transportError?.category == .timedOut)
        #expect(second.value?.name == "Ada")
    }

    @Test func aGivenErrorIsReturnedAsItIs() async throws {
        let session = MockSession()
        let refusal = SessionError(kind: .retryFailed, message: "token refresh failed", failingURL: nil)
        session.stub(url: "https://api.example.com/v1/me", answer: .failure(refusal))

        let error = await #expect(throws: SessionError.self) {
            try await session.data(.get, "https://api.example.com/v1/me")
        }

        #expect(error?.kind == .retryFailed)
        #expect(error?.message == "token refresh failed")
    }

    @Test func aCancelledCallerGetsACancellation() async throws {
        let session = MockSession(baseURL: base)
        let answering = AsyncStream<Void>.makeStream()
        session.stub(
            matching: { _ in true },
            respond: { _ in
                answering.continuation.yield()
                try? await Task.sleep(for: .seconds(60))
                return .json("{}")
            }
        )
        let call = Task {
            await session.response(
                for: HTTPRequest(url: URL(string: "https://api.example.com/v1/me")!),
                serializer: DataResponseSerializer()
            )
        }
        for await _ in answering.stream { break }
        call.cancel()

        #expect(await call.value.error?.kind == .cancelled)
    }

    @Test func aDownloadLeavesTheBodyAtItsDestination() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mock-session-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = MockSession(baseURL: base)
        session.stub(url: "report.csv", answer: .response(status: 200, body: Data("a,b\n".utf8)))
        session.stub(url: "missing.csv", answer: .response(status: 404))
        let request = HTTPRequest(url: try #require(session.url(for: "report.csv")))
        let target = folder.appending(path: "out/report.csv").path

        let saved = await session.download(for: request) { _, _ in
            DownloadDestination(path: target, createsIntermediateDirectories: true)
        }
        let again = await session.download(for: request) { _, _ in DownloadDestination(path: target) }
        let missing = await session.download(
            for: HTTPRequest(url: try #require(session.url(for: "missing.csv")))
        ) { _, _ in DownloadDestination(path: folder.appending(path: "missing.csv").path) }

        #expect(saved.filePath == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "a,b\n")
        #expect(again.error?.kind == .fileMoveFailed)
        #expect(missing.error?.kind == .serialization)
        #expect(missing.response?.status.code == 404)
        // As the engine does: a refused body is at its destination, with the error beside it.
        #expect(missing.filePath == folder.appending(path: "missing.csv").path)
        #expect(session.calls.map(\.kind) == [.download, .download, .download])
    }

    /// A per-request interceptor adapts each attempt and its retrier is asked about the refused
    /// `503`, never about the accepted `200`, as the engine asks it.
    @Test func aPerRequestInterceptorAdaptsAndRetriesAsTheEngineDoes() async throws {
        let session = MockSession(baseURL: base)
        session.stub(url: "me", json: #"{"id":1,"name":"Grace"}"#)
        session.stub(url: "me", answer: .response(status: 503), times: 1)  // the newer stub answers first
        let interceptor = RecordingInterceptor(retryDecisions: [.retry]) { request, attempt in
            var request = request
            try request.headers.set(name: "X-Attempt", value: "\(attempt.retryCount)")
            return request
        }
        let request = HTTPRequest(url: try #require(session.url(for: "me")))

        let response = await session.response(
            for: request,
            serializer: DecodableResponseSerializer<Profile>(),
            options: RequestOptions(interceptor: interceptor)
        )

        #expect(response.value == Profile(id: 1, name: "Grace"))
        #expect(response.retryCount == 1)
        #expect(interceptor.retryQuestions.map(\.failure.response?.status.code) == [503])
        #expect(session.verify(.header("X-Attempt", "0"), called: 1) == nil)
        #expect(session.verify(.header("X-Attempt", "1"), called: 1) == nil)
    }

    /// A retrier that gives up with its own error ends the call with `retryFailed`, the retrier's
    /// error and the refusal it was asked about intact.
    @Test func aRetriersTypedErrorEndsTheCallWithTheRefusalIntact() async throws {
        struct Locked: Error {}
        let session = MockSession(baseURL: base)
        session.stub(url: "me", answer: .response(status: 423))
        let interceptor = RecordingInterceptor(retryDecisions: [.doNotRetryWithError(Locked())])

        let response = await session.response(
            for: HTTPRequest(url: try #require(session.url(for: "me"))),
            serializer: DataResponseSerializer(),
            options: RequestOptions(interceptor: interceptor)
        )

        #expect(response.error?.kind == .retryFailed)
        #expect(response.error?.underlying is Locked)
        #expect(response.error?.originalError?.response?.status.code == 423)
    }

    @Test func verifyListsWhatWasCalledInstead() async {
        let session = MockSession(baseURL: base)
        session.stub(url: "me", json: "{}")
        _ = try? await session.data(.get, "me")

        let message = session.verify(.method(.post), called: 1)

        #expect(
            message == """
                expected exactly 1 request matching POST; 0 of 1 matched
                  1. GET https://api.example.com/v1/me: method is GET, not POST
                """
        )
    }

    @Test func theFailingVariantFailsTheTestOnAnUnstubbedCall() async {
        let session = MockSession.failingTestOnUnstubbedCall(baseURL: base)

        await withKnownIssue {
            _ = try? await session.data(.get, "me")
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["MockSession has no stub for GET https://api.example.com/v1/me"]
        }
    }
}

extension URL {
    /// A GET request for the URL.
    fileprivate var request: HTTPRequest { HTTPRequest(url: self) }
}
