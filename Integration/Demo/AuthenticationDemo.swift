internal import CourierCurl
internal import CourierHTTP
internal import CourierLocking
internal import CourierSerialization
internal import CourierSessionCore
internal import CourierSessionEngine
internal import FoundationEssentials

/// A refresh that fails, as an app sees it: the task ends with the app's own error, typed, beside
/// the `401` that started the refresh; and the other `401` for the same token, refused at the same
/// time, shares that one refresh and its error (whether it arrives during the refresh or after it
/// failed).
///
/// Needs httpbin from the loopback servers `ci/demo` starts (`TEST_HTTPBIN_URL`).
struct AuthenticationDemo {
    /// The app's token service's own error, which the app switches on.
    struct TokenServiceUnavailable: Error, CustomStringConvertible {
        let retryAfterSeconds: Int
        var description: String { "the token service is down for \(retryAfterSeconds) s" }
    }

    struct Token: AuthenticationCredential {
        let value: String
        var requiresRefresh: Bool { false }
    }

    /// Bearer tokens whose refresh always fails, counting the refreshes asked for.
    final class BearerAuthenticator: Authenticator {
        let refreshes = Lock(0)

        func apply(_ credential: Token, to request: inout HTTPRequest) throws {
            try request.headers.set(name: "Authorization", value: "Bearer \(credential.value)")
        }

        func refresh(_ credential: Token) async throws -> Token {
            refreshes.withLock { $0 += 1 }
            throw TokenServiceUnavailable(retryAfterSeconds: 30)
        }

        func didRequest(
            _ request: HTTPRequest,
            with response: HTTPResponse,
            failDueToAuthenticationError error: SessionError
        )
            -> Bool
        { response.status.code == 401 }

        func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool {
            request.headers["Authorization"] == "Bearer \(credential.value)"
        }
    }

    func run() async -> Int {
        DemoOutput.section("Authentication (AuthenticationInterceptor over CurlTransport)")
        guard let httpbin = DemoServers.url("TEST_HTTPBIN_URL") else { return DemoServers.skip() }
        let transport = DemoServers.directTransport()
        let authenticator = BearerAuthenticator()
        let interceptor = AuthenticationInterceptor(authenticator: authenticator, credential: Token(value: "expired"))
        let session = SessionManager(transport: transport, interceptor: interceptor)
        // httpbin's /status/401 refuses every token: each refusal asks for a refresh.
        let refused = httpbin.appending(path: "status/401")
        DemoOutput.line("2 × GET (401), at once", refused.absoluteString)
        async let firstCall = session.response(for: HTTPRequest(url: refused), serializer: DataResponseSerializer())
        async let secondCall = session.response(for: HTTPRequest(url: refused), serializer: DataResponseSerializer())
        let (first, second) = await (firstCall, secondCall)
        let typed = first.error?.underlying as? TokenServiceUnavailable
        DemoOutput.line(
            "failed, typed",
            "\(first.error.map { "\($0.kind)" } ?? "-"): \(typed.map { "TokenServiceUnavailable(\($0.retryAfterSeconds) s)" } ?? "-")"
                + " after a \(first.error?.originalError?.response?.status.code ?? 0)"
        )
        let refreshes = authenticator.refreshes.withLock { $0 }
        DemoOutput.line(
            "one refresh",
            "the other 401 for the same token: \(second.error?.underlying is TokenServiceUnavailable ? "the same error" : "-"), "
                + "\(refreshes) refresh in all"
        )
        await session.shutdown()
        await transport.shutdown()
        return check(
            first.error?.kind == .retryFailed && typed?.retryAfterSeconds == 30
                && first.error?.originalError?.response?.status.code == 401,
            "typed refresh failure: \(first.error.map { "\($0)" } ?? "no error")"
        )
            + check(
                second.error?.underlying is TokenServiceUnavailable && refreshes == 1,
                "one refresh for both refusals: \(refreshes) refreshes, \(second.error.map { "\($0)" } ?? "no error")"
            )
    }
}
