import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// Alamofire's order of checks, the remembered refresh failure and the refresh window, driven
/// through `adapt` and `retry` directly.
@Suite struct AuthenticationInterceptorRulesTests {
    struct Token: AuthenticationCredential, Equatable {
        var value: String
        var requiresRefresh: Bool { value.hasPrefix("expired") }
    }

    enum TokenServiceError: Error, Equatable { case refreshTokenRevoked }

    /// Refreshes with scripted outcomes (the last repeats), counting every call to each method.
    final class ScriptedAuthenticator: Authenticator {
        let outcomes: [Result<String, TokenServiceError>]
        let counts = Lock((refresh: 0, didRequest: 0, isRequest: 0))

        init(_ outcomes: [Result<String, TokenServiceError>]) { self.outcomes = outcomes }

        var refreshes: Int { counts.withLock { $0.refresh } }
        var didRequestCalls: Int { counts.withLock { $0.didRequest } }

        func apply(_ credential: Token, to request: inout HTTPRequest) throws {
            try request.headers.set(name: "Authorization", value: "Bearer \(credential.value)")
        }

        func refresh(_ credential: Token) async throws -> Token {
            let index = counts.withLock { counts in
                counts.refresh += 1
                return counts.refresh - 1
            }
            return Token(value: try outcomes[min(index, outcomes.count - 1)].get())
        }

        func didRequest(
            _ request: HTTPRequest,
            with response: HTTPResponse,
            failDueToAuthenticationError error: SessionError
        ) -> Bool {
            counts.withLock { $0.didRequest += 1 }
            return response.status.code == 401
        }

        func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool {
            counts.withLock { $0.isRequest += 1 }
            return request.headers["Authorization"] == "Bearer \(credential.value)"
        }
    }

    /// A monotonic clock the test moves by hand.
    final class HandClock: SessionClock {
        private let offset = Lock(Duration.zero)
        private let start = ContinuousClock.now
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
        var date: Date { Date(timeIntervalSince1970: 0) }
        func advance(by duration: Duration) { offset.withLock { $0 += duration } }
        func sleep(until deadline: ContinuousClock.Instant) async throws {}
    }

    private static let url = URL(string: "https://api.example.com/me")!
    private let attempt = AttemptContext(taskIdentifier: 1, retryCount: 0, redirectCount: 0)

    private func sent(with token: String) -> HTTPRequest {
        var request = HTTPRequest(url: Self.url)
        try? request.headers.set(name: "Authorization", value: "Bearer \(token)")
        return request
    }

    /// A `401` as the session offers it now: the serializer refused it.
    private let unauthorized = AttemptFailure.validation(
        SessionError(
            kind: .serialization,
            message: "unacceptable status 401",
            failingURL: url,
            response: HTTPResponse(status: HTTPStatus(code: 401))
        )
    )

    private func retry<A: Authenticator>(
        _ interceptor: AuthenticationInterceptor<A>,
        _ request: HTTPRequest,
        _ failure: AttemptFailure? = nil
    ) async -> RetryDecision {
        await interceptor.retry(request, dueTo: failure ?? unauthorized, attempt: attempt)
    }

    @Test func withoutACredentialAdaptFailsTypedAndARefusalIsNotRetried() async {
        let authenticator = ScriptedAuthenticator([.success("new")])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator)
        await #expect(throws: AuthenticationError.missingCredential) {
            try await interceptor.adapt(HTTPRequest(url: Self.url), for: attempt)
        }
        let decision = await retry(interceptor, sent(with: "old"))
        #expect(decision.error as? AuthenticationError == .missingCredential)
        #expect(authenticator.refreshes == 0)
    }

    @Test func aTransportFailureWithoutAResponseIsNeverAnAuthenticationFailure() async {
        let authenticator = ScriptedAuthenticator([.success("new")])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "old"))
        let reset = AttemptFailure.transport(
            SessionError(
                kind: .transport(.connectionLost),
                message: "reset",
                failingURL: Self.url,
                underlying: TransportError(category: .connectionLost, message: "reset")
            )
        )
        let decision = await retry(interceptor, sent(with: "old"), reset)
        #expect(decision.retryRequired == false && decision.error == nil)
        #expect(authenticator.didRequestCalls == 0)
        #expect(authenticator.refreshes == 0)
    }

    @Test func aRefusalForAnOlderCredentialIsRetriedAtOnceWithoutARefresh() async {
        let authenticator = ScriptedAuthenticator([.success("newer")])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "new"))
        #expect(await retry(interceptor, sent(with: "old")).delay == .zero)
        #expect(authenticator.refreshes == 0)
    }

    @Test func theRefreshErrorArrivesTypedAndALateRefusalFailsTheSameWayWithoutASecondRefresh() async throws {
        let authenticator = ScriptedAuthenticator([.failure(.refreshTokenRevoked), .success("new")])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "old"))

        let first = await retry(interceptor, sent(with: "old"))
        #expect(first.error as? TokenServiceError == .refreshTokenRevoked)
        // A request that went out with the same credential comes back refused after the failure.
        let late = await retry(interceptor, sent(with: "old"))
        #expect(late.error as? TokenServiceError == .refreshTokenRevoked)
        #expect(authenticator.refreshes == 1)

        // The app signs in again: the failure is forgotten, and a refusal refreshes again.
        interceptor.credential = Token(value: "signed-in")
        #expect(await retry(interceptor, sent(with: "signed-in")).retryRequired)
        #expect(authenticator.refreshes == 2)
        #expect(interceptor.credential == Token(value: "new"))
    }

    @Test func aNewRequestClearsTheRememberedFailureAsInAlamofire() async throws {
        let authenticator = ScriptedAuthenticator([.failure(.refreshTokenRevoked)])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "old"))
        _ = await retry(interceptor, sent(with: "old"))
        let adapted = try await interceptor.adapt(HTTPRequest(url: Self.url), for: attempt)
        #expect(adapted.headers["Authorization"] == "Bearer old")
        let decision = await retry(interceptor, adapted)
        #expect(decision.error as? TokenServiceError == .refreshTokenRevoked)
        #expect(authenticator.refreshes == 2)
    }

    @Test func aRefreshedCredentialThatStillRequiresARefreshIsNotSent() async throws {
        // Before sending: the expiring credential is refreshed into another expiring one.
        let proactive = ScriptedAuthenticator([.success("expired-again")])
        let expiring = AuthenticationInterceptor(authenticator: proactive, credential: Token(value: "expired"))
        await #expect(throws: AuthenticationError.refreshedCredentialRequiresRefresh) {
            try await expiring.adapt(HTTPRequest(url: Self.url), for: attempt)
        }
        #expect(expiring.credential == Token(value: "expired"))
        #expect(proactive.refreshes == 1)

        // After a refusal: the task ends with the typed error instead of sending it.
        let reactive = ScriptedAuthenticator([.success("expired-too")])
        let refused = AuthenticationInterceptor(authenticator: reactive, credential: Token(value: "old"))
        let decision = await retry(refused, sent(with: "old"))
        #expect(decision.error as? AuthenticationError == .refreshedCredentialRequiresRefresh)
        #expect(
            await retry(refused, sent(with: "old")).error as? AuthenticationError == .refreshedCredentialRequiresRefresh
        )
        #expect(reactive.refreshes == 1)
    }

    @Test func excessiveRefreshIsTypedAndTheWindowRunsOnTheInjectedClock() async {
        let clock = HandClock()
        let authenticator = ScriptedAuthenticator([.success("a"), .success("b"), .success("c")])
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: Token(value: "old"),
            refreshWindow: .init(interval: .seconds(30), maximumAttempts: 2),
            clock: clock
        )
        #expect(await retry(interceptor, sent(with: "old")).retryRequired)
        #expect(await retry(interceptor, sent(with: "a")).retryRequired)
        let third = await retry(interceptor, sent(with: "b"))
        #expect(third.error as? AuthenticationError == .excessiveRefresh)
        #expect(authenticator.refreshes == 2)

        // Thirty seconds later both refreshes still count (Alamofire's window includes its edge);
        // a moment after, they have left it.
        interceptor.credential = Token(value: "b")
        clock.advance(by: .seconds(30))
        #expect(await retry(interceptor, sent(with: "b")).error as? AuthenticationError == .excessiveRefresh)
        interceptor.credential = Token(value: "b")
        clock.advance(by: .milliseconds(1))
        #expect(await retry(interceptor, sent(with: "b")).retryRequired)
        #expect(authenticator.refreshes == 3)
    }

    @Test func withoutAWindowRefreshesAreNotCounted() async {
        let authenticator = ScriptedAuthenticator([.success("a")])
        let interceptor = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: Token(value: "a"),
            refreshWindow: nil
        )
        for _ in 0..<10 { #expect(await retry(interceptor, sent(with: "a")).retryRequired) }
        #expect(authenticator.refreshes == 10)
    }

    @Test func theRefreshWindowIsAPureRule() {
        typealias Window = AuthenticationInterceptor<ScriptedAuthenticator>.RefreshWindow
        let start = ContinuousClock.now
        let window = Window(interval: .seconds(30), maximumAttempts: 2)
        let twoRefreshes = [start, start + .seconds(10)]
        #expect(window.isExcessive(refreshesAt: twoRefreshes, now: start + .seconds(20)))
        #expect(window.isExcessive(refreshesAt: twoRefreshes, now: start + .seconds(30)))
        #expect(!window.isExcessive(refreshesAt: twoRefreshes, now: start + .seconds(31)))
        #expect(!window.isExcessive(refreshesAt: [start], now: start))
        #expect(Window(interval: .seconds(30), maximumAttempts: 0).isExcessive(refreshesAt: [], now: start))
        #expect(Window() == Window(interval: .seconds(30), maximumAttempts: 5))
    }

    @Test func aFourOhOneRefusedByTheSerializerIsRefreshedAndRetriedThroughTheSession() async throws {
        let transport = AuthenticationInterceptorTests.server(accepting: "new")
        let authenticator = ScriptedAuthenticator([.success("new")])
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "old"))
        let response = try await SessionManager(transport: transport, interceptor: interceptor)
            .data(for: HTTPRequest(url: Self.url))
        #expect(response.data == Data("ok".utf8))
        #expect(response.retryCount == 1)
        #expect(transport.requests.map { $0.request.headers["Authorization"] } == ["Bearer old", "Bearer new"])
    }
}
