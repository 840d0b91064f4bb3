import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct AuthenticationInterceptorTests {
    struct Token: AuthenticationCredential, Equatable {
        var value: String
        var requiresRefresh: Bool { value == "expired" }
    }

    /// Refreshes to `next`, counting refreshes; fails when `next` is `nil`. With a gate, a refresh
    /// waits until the test opens it.
    final class CountingAuthenticator: Authenticator {
        let refreshes = Lock(0)
        let next: String?
        let gate: CompletionSignal?

        init(next: String?, gate: CompletionSignal? = nil) {
            self.next = next
            self.gate = gate
        }

        func apply(_ credential: Token, to request: inout HTTPRequest) throws {
            try request.headers.set(name: "Authorization", value: "Bearer \(credential.value)")
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            await gate?.wait()
            guard let next else { throw URLError(.userAuthenticationRequired) }
            return Token(value: next)
        }

        func didRequest(
            _ request: HTTPRequest,
            with response: HTTPResponse,
            failDueToAuthenticationError error: SessionError
        ) -> Bool {
            response.status.code == 401
        }

        func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool {
            request.headers["Authorization"] == "Bearer \(credential.value)"
        }
    }

    /// A server that accepts only `Bearer <accepted>`.
    static func server(accepting accepted: String) -> MockTransport {
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            respond: { recorded in
                recorded.request.headers["Authorization"] == "Bearer \(accepted)"
                    ? MockTransport.Reply(status: 200, body: Data("ok".utf8))
                    : MockTransport.Reply(status: 401)
            }
        )
        return transport
    }

    @Test func twentyRefusedRequestsShareOneRefreshAndAllSucceed() async throws {
        let gate = CompletionSignal()
        let authenticator = CountingAuthenticator(next: "new", gate: gate)
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "old"))
        let session = SessionManager(transport: Self.server(accepting: "new"), interceptor: auth)

        let statuses = await withTaskGroup(of: Int?.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let url = URL(string: "https://api.example.com/items/\(index)")!
                    return try? await session.data(for: HTTPRequest(url: url)).response?.status.code
                }
            }
            // The refresh is held until all twenty refused requests wait for it (a request that
            // never joins fails the count below instead of hanging the suite).
            let deadline = ContinuousClock.now + .seconds(30)
            while auth.refreshWaiters < 20 && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
            gate.signal()
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }

        #expect(statuses.count == 20)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(authenticator.refreshes.withLock { $0 } == 1)
        #expect(auth.credential == Token(value: "new"))
    }

    @Test func anExpiredCredentialIsRefreshedBeforeTheRequestGoesOut() async throws {
        let authenticator = CountingAuthenticator(next: "new")
        let transport = Self.server(accepting: "new")
        let auth = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "expired"))
        _ = try await SessionManager(transport: transport, interceptor: auth).data(
            for: HTTPRequest(url: URL(string: "https://api.example.com/")!)
        )
        #expect(transport.requests.map { $0.request.headers["Authorization"] } == ["Bearer new"])
        #expect(authenticator.refreshes.withLock { $0 } == 1)
    }

    @Test func aRefreshLoopEndsWithATypedError() async {
        // The server never accepts the refreshed token: without the window this would refresh forever.
        let authenticator = CountingAuthenticator(next: "still-wrong")
        let auth = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: Token(value: "old"),
            refreshWindow: .init(interval: .seconds(30), maximumAttempts: 3)
        )
        let session = SessionManager(transport: Self.server(accepting: "never"), interceptor: auth)
        var last: DataResponse<Data>?
        for index in 0..<5 {
            last = await session.response(
                for: HTTPRequest(url: URL(string: "https://api.example.com/\(index)")!),
                serializer: DataResponseSerializer()
            )
        }
        #expect(last?.error?.kind == .retryFailed)
        #expect(last?.error?.underlying as? AuthenticationError == .excessiveRefresh)
        #expect(last?.error?.originalError?.response?.status.code == 401)
        #expect(authenticator.refreshes.withLock { $0 } == 3)
    }

    @Test func aFailedRefreshFailsTheRequestsThatWaitedForIt() async {
        let auth = AuthenticationInterceptor(
            authenticator: CountingAuthenticator(next: nil),
            credential: Token(value: "old")
        )
        let response = await SessionManager(transport: Self.server(accepting: "new"), interceptor: auth)
            .response(
                for: HTTPRequest(url: URL(string: "https://api.example.com/")!),
                serializer: DataResponseSerializer()
            )
        #expect(response.error?.kind == .retryFailed)
        #expect((response.error?.underlying as? URLError)?.code == .userAuthenticationRequired)
        #expect(response.error?.originalError?.serialization?.contains(.unacceptableStatusCode) == true)
        #expect(response.response?.status.code == 401)
    }
}
