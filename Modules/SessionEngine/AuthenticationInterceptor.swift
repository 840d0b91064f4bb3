public import CourierHTTP
internal import CourierLocking
public import CourierSessionCore

/// A credential an ``AuthenticationInterceptor`` applies and refreshes, such as an OAuth token.
public protocol AuthenticationCredential: Sendable {
    /// Whether the credential must be refreshed before its next use (it expires soon, say).
    var requiresRefresh: Bool { get }
}

/// What an ``AuthenticationInterceptor`` needs to know about one kind of credential: how to apply
/// it, how to refresh it, and how to recognise a request that failed for want of it.
///
/// ```swift
/// struct OAuth: Authenticator {
///     func apply(_ credential: Token, to request: inout HTTPRequest) throws {
///         try request.headers.set(name: "Authorization", value: "Bearer \(credential.accessToken)")
///     }
///     func refresh(_ credential: Token) async throws -> Token { try await tokenService.refresh(credential) }
///     func didRequest(_ request: HTTPRequest, with response: HTTPResponse) -> Bool { response.status.code == 401 }
///     func isRequest(_ request: HTTPRequest, authenticatedWith credential: Token) -> Bool {
///         request.headers["Authorization"] == "Bearer \(credential.accessToken)"
///     }
/// }
/// ```
public protocol Authenticator: Sendable {
    /// The credential type.
    associatedtype Credential: AuthenticationCredential

    /// Adds the credential to the request.
    ///
    /// - Parameters:
    ///   - credential: The credential.
    ///   - request: The request to authenticate.
    /// - Throws: When the credential cannot be applied.
    func apply(_ credential: Credential, to request: inout HTTPRequest) throws

    /// Returns a fresh credential.
    ///
    /// - Parameter credential: The credential to refresh.
    /// - Throws: When it cannot be refreshed; every waiting request then fails.
    func refresh(_ credential: Credential) async throws -> Credential

    /// Whether the response says the request was refused for its credential (usually a `401`).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - response: Its response.
    func didRequest(_ request: HTTPRequest, with response: HTTPResponse) -> Bool

    /// Whether the request carried this credential (so a refusal means the credential is stale,
    /// not that another request refreshed it meanwhile).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - credential: The current credential.
    func isRequest(_ request: HTTPRequest, authenticatedWith credential: Credential) -> Bool
}

/// Applies a credential to every request and refreshes it when it expires or is refused, once for
/// all the requests that need it at the same time (Alamofire's `AuthenticationInterceptor`).
///
/// Requests that find a refresh under way wait for it; a refused request whose credential was
/// replaced meanwhile is simply retried with the new one. A refresh loop (more than
/// ``RefreshWindow/maximumRefreshes`` refreshes within ``RefreshWindow/interval``) ends the task
/// with `SessionError.Kind.retryFailed` instead of refreshing forever.
///
/// ```swift
/// let auth = AuthenticationInterceptor(authenticator: OAuth(), credential: storedToken)
/// let session = SessionManager(transport: transport, interceptor: auth)
/// ```
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor {
    /// The credential type.
    public typealias Credential = AuthenticatorType.Credential

    /// How many refreshes are allowed in how long before the interceptor calls it a loop.
    public struct RefreshWindow: Sendable, Hashable {
        /// The length of the window.
        public var interval: Duration
        /// Refreshes allowed within it.
        public var maximumRefreshes: Int

        /// Creates a window; Alamofire's default is 5 refreshes in 30 s.
        ///
        /// - Parameters:
        ///   - interval: The length of the window.
        ///   - maximumRefreshes: Refreshes allowed within it.
        public init(interval: Duration = .seconds(30), maximumRefreshes: Int = 5) {
            self.interval = interval
            self.maximumRefreshes = maximumRefreshes
        }
    }

    /// Why a request could not be authenticated.
    public struct AuthenticationError: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    private struct State {
        var credential: Credential?
        var refresh: Task<Credential, any Error>?
        var refreshTimes: [ContinuousClock.Instant] = []
        /// Callers awaiting the refresh under way.
        var refreshWaiters = 0
    }

    private let authenticator: AuthenticatorType
    private let window: RefreshWindow
    private let state: Lock<State>

    /// Creates the interceptor.
    ///
    /// - Parameters:
    ///   - authenticator: How to apply and refresh the credential.
    ///   - credential: The credential to start with; `nil` fails requests until one is set.
    ///   - refreshWindow: The refresh-loop guard.
    public init(
        authenticator: AuthenticatorType,
        credential: Credential?,
        refreshWindow: RefreshWindow = RefreshWindow()
    ) {
        self.authenticator = authenticator
        window = refreshWindow
        state = Lock(State(credential: credential))
    }

    /// How many requests are waiting for the refresh under way: for tests that must reach the
    /// moment every refused request has joined one refresh, rather than sleep in the hope of it.
    package var refreshWaiters: Int { state.withLock { $0.refreshWaiters } }

    /// The current credential.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.credential = newValue } }
    }

    /// Applies the credential, refreshing it first when it requires that (once for every request
    /// that finds it so).
    ///
    /// - Throws: ``AuthenticationError`` without a credential or in a refresh loop, the
    ///   authenticator's errors otherwise.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        guard var credential = credential else {
            throw AuthenticationError(description: "no credential to authenticate the request with")
        }
        if credential.requiresRefresh {
            credential = try await refreshed(credential)
        }
        var request = request
        try authenticator.apply(credential, to: &request)
        return request
    }

    /// Retries a request refused for its credential: at once when the credential was replaced
    /// meanwhile, after one shared refresh when it was the current one.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        guard let response = failure.response, authenticator.didRequest(request, with: response),
            let current = credential
        else { return .doNotRetry }
        guard authenticator.isRequest(request, authenticatedWith: current) else { return .retry }
        do {
            _ = try await refreshed(current)
            return .retry
        } catch {
            return .doNotRetryWithError(error)
        }
    }

    /// The refreshed credential: joins a refresh under way, or starts one.
    private func refreshed(_ stale: Credential) async throws -> Credential {
        let task = try state.withLock { state throws(AuthenticationError) -> Task<Credential, any Error> in
            if let running = state.refresh {
                state.refreshWaiters += 1
                return running
            }
            let now = ContinuousClock.now
            state.refreshTimes = state.refreshTimes.filter { now - $0 < window.interval }
            guard state.refreshTimes.count < window.maximumRefreshes else {
                throw AuthenticationError(
                    description:
                        "more than \(window.maximumRefreshes) refreshes within \(window.interval): a refresh loop"
                )
            }
            state.refreshTimes.append(now)
            let authenticator = authenticator
            let task = Task { try await authenticator.refresh(stale) }
            state.refresh = task
            state.refreshWaiters += 1
            return task
        }
        do {
            let fresh = try await task.value
            state.withLock { state in
                state.credential = fresh
                state.refreshWaiters -= 1
                if state.refresh == task { state.refresh = nil }
            }
            return fresh
        } catch {
            state.withLock { state in
                state.refreshWaiters -= 1
                if state.refresh == task { state.refresh = nil }
            }
            throw error
        }
    }
}
