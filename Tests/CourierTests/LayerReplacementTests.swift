import Courier
import CourierLocking
import CourierTesting
import Foundation
import Testing

/// Every layer of the root replaced through its configuration, over `MockTransport`.
@Suite(.timeLimit(.minutes(1))) struct LayerReplacementTests {
    struct User: Decodable, Sendable, Equatable {
        let name: String
    }

    /// Records the kinds of the events it receives.
    final class KindRecorder: EventMonitor {
        let kinds = Lock<[SessionEvent.Kind]>([])

        func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
            kinds.withLock { $0.append(event.kind) }
        }
    }

    /// Adds a header to every request.
    struct Tagger: RequestInterceptor {
        func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
            var request = request
            try request.headers.set(name: "X-Attempt", value: String(attempt.retryCount))
            return request
        }
    }

    /// A transport whose `/moved` redirects to `/user`, which fails with 503 once, then answers.
    static func flakyTransport() -> MockTransport {
        let transport = MockTransport()
        transport.stub(url: "https://api.example.com/v1/user", json: #"{"name":"Ada"}"#)
        transport.stub(url: "https://api.example.com/v1/user", reply: .init(status: 503), times: 1)
        let target = URL(string: "https://api.example.com/v1/user")
        if let target { transport.stub(url: "https://api.example.com/v1/moved", reply: .redirect(to: target)) }
        return transport
    }

    @Test func anInjectedTransportRunsTheWholePipelineWithRetriesAndRedirects() async throws {
        let transport = Self.flakyTransport()
        let recorder = KindRecorder()
        let handed = Lock<[PinningMode?]>([])
        let policy = SecurityPolicy(pinningMode: .publicKey, verifier: CourierClient.certificateVerifier)
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1")) { configuration in
            configuration.securityPolicy = policy
            configuration.makeTransport = { policy in
                handed.withLock { $0.append(policy?.pinningMode) }
                return transport
            }
            configuration.retryPolicy?.exponentialBackoffScale = 0.002
            configuration.interceptors = [Tagger()]
            configuration.eventMonitors = [recorder]
        }

        let response = try await client.session.decodable(.get, "moved", as: User.self)

        #expect(response.value == User(name: "Ada"))
        #expect(response.redirects.map(\.status.code) == [302])
        #expect(response.retryCount == 1)
        #expect(handed.withLock { $0 } == [.publicKey])
        #expect(
            transport.requests.map { "\($0.url.path) \($0.request.headers["X-Attempt"] ?? "-")" }
                == ["/v1/moved 0", "/v1/user 0", "/v1/user 1"]
        )
        await client.shutdown()
        // Monitors hear events on the session's event queue, after the call has returned.
        // No wall-clock bound (the unit tests run in parallel on a busy machine): the suite's time
        // limit ends a wait that never ends.
        while !recorder.kinds.withLock({ $0.contains(.sessionInvalidated) }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        let kinds = recorder.kinds.withLock { $0 }
        #expect([.redirectFollowed, .retryScheduled, .taskCompleted, .sessionInvalidated].allSatisfy(kinds.contains))
    }

    @Test func theForwardedCallsDecodeValidateAndSendEncodableBodies() async throws {
        let transport = MockTransport()
        transport.stub(method: .get, url: "https://api.example.com/me", json: #"{"name":"Ada"}"#)
        transport.stub(method: .post, url: "https://api.example.com/users", status: 201, json: #"{"name":"Bo"}"#)
        transport.stub(method: .get, url: "https://api.example.com/missing", status: 404, json: #"{"name":"-"}"#)
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com")) {
            $0.makeTransport = { _ in transport }
            $0.requestSerializer = JSONRequestSerializer()
        }

        let me: User = try await client.get("me")
        let created = try await client.post("users", encoding: ["name": "Bo"], as: User.self)
        let raw = try await client.data(.get, "me")

        #expect(me == User(name: "Ada"))
        #expect(created == User(name: "Bo"))
        #expect(raw.data == Data(#"{"name":"Ada"}"#.utf8))
        #expect(transport.requests.map(\.body).dropFirst().first == Data(#"{"name":"Bo"}"#.utf8))
        await #expect {
            let _: User = try await client.get("missing")
        } throws: { error in
            (error as? SessionError)?.serialization?.code == .unacceptableStatusCode
        }
        await client.shutdown()
    }

    @Test func aRedirectHandlerAndSessionSettingsReplaceTheDefaults() async throws {
        let transport = Self.flakyTransport()
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1")) {
            $0.makeTransport = { _ in transport }
            $0.redirectHandler = Redirector.doNotFollow
            $0.retryPolicy = nil
        }

        // Not followed, the 302 is the result, and AFNetworking's validation refuses it.
        await #expect {
            _ = try await client.data(.get, "moved")
        } throws: { error in
            (error as? SessionError)?.response?.status.code == 302
        }
        #expect(transport.requests.count == 1)
        await client.shutdown()
    }
}
