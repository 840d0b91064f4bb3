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
///     func didRequest(_ request: HTTPRequest, with response: HTTPResponse, failDueToAuthenticationError error: SessionError) -> Bool {
///         response.status.code == 401
///     }
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
    /// It is asked only about an attempt that failed with a response: a `401` the serializer
    /// refused arrives with a `serialization` error, a `401` whose body was cut off with a
    /// `transport` error. A transport failure without a response is never an authentication failure,
    /// and the authenticator is not asked. Tell the authentication server's `401` from a downstream
    /// service's (by a header, say), or a refusal that no refresh can cure starts refreshes.
    ///
    /// - Parameters:
    ///   - request: The request, as adapted.
    ///   - response: Its response.
    ///   - error: The error the attempt failed with, as the task would end with it.
    func didRequest(
        _ request: HTTPRequest,
        with response: HTTPResponse,
        failDueToAuthenticationError error: SessionError
    )
        -> Bool

    /// Whether the request carried this credential (so a refusal means the credential is stale,
    /// not that another request refreshed it meanwhile).
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - credential: The current credential.
    func isRequest(_ request: HTTPRequest, authenticatedWith credential: Credential) -> Bool
}

/// Applies a credential to every request and refreshes it when it expires or is refused, once for
/// all the requests that need it at the same time (Alamofire's `AuthenticationInterceptor`, check
/// for check).
///
/// - **Adapting.** While a refresh that an expiring credential started is under way, every new
///   request waits for it. Without a credential the request fails with
///   ``AuthenticationError/missingCredential``. A credential that ``AuthenticationCredential/requiresRefresh``
///   is refreshed first (once for every request that finds it so). A new request also clears a
///   remembered refresh failure, so that its own refusal may start a new refresh.
/// - **Retrying.** An attempt that failed without a response, or that the authenticator does not
///   call an authentication failure, is not retried. Without a credential the task fails with
///   ``AuthenticationError/missingCredential``. A request sent with an older credential is retried
///   at once with the current one. Otherwise one refresh runs for all the refused requests, and
///   each is retried when it succeeds.
/// - **A failed refresh is remembered.** Every request waiting for it fails with the
///   authenticator's error, as it was thrown (the `underlying` error of the task's
///   `SessionError`), and so does a refusal that arrives later for a request sent with the same
///   credential: it starts no second refresh. Setting ``credential`` forgets the failure.
/// - **A refresh loop is stopped**: more than ``RefreshWindow/maximumAttempts`` refreshes within
///   ``RefreshWindow/interval`` fail with ``AuthenticationError/excessiveRefresh``.
/// - **A refreshed credential that still requires a refresh is not sent**: the refresh counts as
///   failed, with ``AuthenticationError/refreshedCredentialRequiresRefresh`` (Alamofire refreshes
///   again until the window stops it).
///
/// ```swift
/// let auth = AuthenticationInterceptor(authenticator: OAuth(), credential: storedToken)
/// let session = SessionManager(transport: transport, interceptor: auth)
/// ```
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor {
    /// The credential type.
    public typealias Credential = AuthenticatorType.Credential

    /// How many refreshes are allowed in how long before the interceptor calls it a loop
    /// (Alamofire's `RefreshWindow`).
    ///
    /// ```swift
    /// let window = AuthenticationInterceptor<OAuth>.RefreshWindow(interval: .seconds(30), maximumAttempts: 5)
    /// let start = ContinuousClock.now
    /// window.isExcessive(refreshesAt: [start], now: start + .seconds(1))  // false
    /// ```
    public struct RefreshWindow: Sendable, Hashable {
        /// How far back from now refreshes are counted.
        public var interval: Duration
        /// Refreshes allowed within ``interval``; one more is excessive.
        public var maximumAttempts: Int

        /// Creates a window; the default is Alamofire's, 5 refreshes in 30 s.
        ///
        /// - Parameters:
        ///   - interval: How far back from now refreshes are counted.
        ///   - maximumAttempts: Refreshes allowed within it.
        public init(interval: Duration = .seconds(30), maximumAttempts: Int = 5) {
            self.interval = interval
            self.maximumAttempts = maximumAttempts
        }

        /// Whether a refresh at `now` would be excessive, given the earlier refreshes: as
        /// Alamofire counts them, those at most ``interval`` before `now`, against
        /// ``maximumAttempts``.
        ///
        /// ```swift
        /// let window = AuthenticationInterceptor<OAuth>.RefreshWindow(interval: .seconds(30), maximumAttempts: 1)
        /// let start = ContinuousClock.now
        /// window.isExcessive(refreshesAt: [start], now: start + .seconds(30))  // true
        /// window.isExcessive(refreshesAt: [start], now: start + .seconds(31))  // false
        /// ```
        /// - Parameters:
        ///   - refreshTimes: When the earlier refreshes started, on a monotonic clock.
        ///   - now: The time of the refresh in question, on the same clock.
        /// - Returns: `true` when ``maximumAttempts`` or more refreshes fall within the window.
        public func isExcessive(refreshesAt refreshTimes: [ContinuousClock.Instant], now: ContinuousClock.Instant)
            -> Bool
        {
            refreshTimes.count { now - $0 <= interval } >= maximumAttempts
        }
    }

    private enum RefreshState {
        case idle
        /// `proactive`: started by an expiring credential in `adapt`, which new requests wait for.
        case refreshing(id: Int, task: Task<Credential, any Error>, proactive: Bool)
        case failed(any Error)
    }

    private struct State {
        var credential: Credential?
        /// Counts every change of the credential, so that a retry can tell it changed while it looked.
        var credentialVersion = 0
        var refresh = RefreshState.idle
        var refreshTimes: [ContinuousClock.Instant] = []
        var nextRefreshID = 0
        /// Callers awaiting the refresh under way.
        var refreshWaiters = 0

        mutating func update(_ newCredential: Credential?) {
            credential = newCredential
            credentialVersion += 1
            refresh = .idle
        }
    }

    private enum AdaptStep {
        case apply(Credential)
        case wait(Task<Credential, any Error>)
        case fail(any Error)
    }

    private enum RetryStep {
        case decided(RetryDecision)
        case wait(Task<Credential, any Error>)
    }

    private let authenticator: AuthenticatorType
    private let window: RefreshWindow?
    private let clock: any SessionClock
    private let state: Lock<State>

    /// Creates the interceptor.
    ///
    /// ```swift
    /// let auth = AuthenticationInterceptor(authenticator: OAuth(), credential: token, refreshWindow: .init(maximumAttempts: 3))
    /// ```
    /// - Parameters:
    ///   - authenticator: How to apply and refresh the credential.
    ///   - credential: The credential to start with; `nil`, the default, fails requests until one is set.
    ///   - refreshWindow: The refresh-loop guard; `nil` turns it off (Alamofire's advice: keep one).
    ///   - clock: The monotonic clock the refresh window is measured on; the system's by default.
    public init(
        authenticator: AuthenticatorType,
        credential: Credential? = nil,
        refreshWindow: RefreshWindow? = RefreshWindow(),
        clock: any SessionClock = .system
    ) {
        self.authenticator = authenticator
        window = refreshWindow
        self.clock = clock
        state = Lock(State(credential: credential))
    }

    /// How many requests are waiting for the refresh under way: for tests that must reach the
    /// moment every refused request has joined one refresh, rather than sleep in the hope of it.
    package var refreshWaiters: Int { state.withLock { $0.refreshWaiters } }

    /// The current credential. Setting it forgets a failed refresh, and a refused request sent with
    /// the old one is retried with it.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.update(newValue) } }
    }

    /// Applies the credential, refreshing it first when it requires that.
    ///
    /// - Parameters:
    ///   - request: The request to authenticate.
    ///   - attempt: Which attempt it is.
    /// - Returns: The request with the credential applied.
    /// - Throws: ``AuthenticationError`` without a credential or in a refresh loop, the
    ///   authenticator's refresh and apply errors as they were thrown.
    public func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        let step = state.withLock { state -> AdaptStep in
            // Alamofire's order: wait for a refresh an expiring credential started, then the
            // credential, then a refresh of our own, then forget a failure.
            if case .refreshing(_, let task, proactive: true) = state.refresh {
                state.refreshWaiters += 1
                return .wait(task)
            }
            guard let credential = state.credential else { return .fail(AuthenticationError.missingCredential) }
            if credential.requiresRefresh {
                // A refresh a refusal started is joined too: Alamofire sends the expiring credential
                // meanwhile, which the server refuses anyway.
                if case .refreshing(_, let task, _) = state.refresh {
                    state.refreshWaiters += 1
                    return .wait(task)
                }
                switch startRefresh(of: credential, proactive: true, in: &state) {
                case .success(let task): return .wait(task)
                case .failure(let error): return .fail(error)
                }
            }
            if case .failed = state.refresh { state.refresh = .idle }
            return .apply(credential)
        }
        let credential: Credential
        switch step {
        case .apply(let current): credential = current
        case .wait(let task): credential = try await awaitRefresh(task)
        case .fail(let error): throw error
        }
        var request = request
        try authenticator.apply(credential, to: &request)
        return request
    }

    /// Retries a request refused for its credential: at once when the credential changed since it
    /// was sent, after one shared refresh when it was the current one.
    ///
    /// - Parameters:
    ///   - request: The request that was refused, as adapted.
    ///   - failure: Why the attempt failed.
    ///   - attempt: Which attempt it was.
    /// - Returns: `retry` once the credential is fresh; `doNotRetry`
    ///   for a failure that is not the credential's; `doNotRetryWithError(_:)` with
    ///   ``AuthenticationError`` or the authenticator's refresh error.
    public func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
        -> RetryDecision
    {
        // Alamofire's order: a response, the authenticator's verdict, a credential, the credential
        // the request was sent with, then the refresh state.
        guard let response = failure.response,
            authenticator.didRequest(request, with: response, failDueToAuthenticationError: failure.error)
        else { return .doNotRetry }
        let current = state.withLock { state in state.credential.map { ($0, state.credentialVersion) } }
        guard let (credential, version) = current else {
            return .doNotRetryWithError(AuthenticationError.missingCredential)
        }
        guard authenticator.isRequest(request, authenticatedWith: credential) else { return .retry }
        let step = state.withLock { state -> RetryStep in
            guard version == state.credentialVersion else { return .decided(.retry) }
            switch state.refresh {
            case .failed(let error):
                return .decided(.doNotRetryWithError(error))
            case .refreshing(_, let task, _):
                state.refreshWaiters += 1
                return .wait(task)
            case .idle:
                switch startRefresh(of: credential, proactive: false, in: &state) {
                case .success(let task): return .wait(task)
                case .failure(let error): return .decided(.doNotRetryWithError(error))
                }
            }
        }
        switch step {
        case .decided(let decision): return decision
        case .wait(let task):
            do {
                _ = try await awaitRefresh(task)
                return .retry
            } catch {
                return .doNotRetryWithError(error)
            }
        }
    }

    /// Starts a refresh and counts the caller as its first waiter, unless the window calls it a
    /// loop; the caller holds the lock.
    private func startRefresh(
        of stale: Credential,
        proactive: Bool,
        in state: inout State
    ) -> Result<Task<Credential, any Error>, AuthenticationError> {
        if let window {
            let now = clock.now
            guard !window.isExcessive(refreshesAt: state.refreshTimes, now: now) else {
                state.refresh = .failed(AuthenticationError.excessiveRefresh)
                return .failure(.excessiveRefresh)
            }
            state.refreshTimes.removeAll { now - $0 > window.interval }
            state.refreshTimes.append(now)
        }
        let id = state.nextRefreshID
        state.nextRefreshID += 1
        let authenticator = authenticator
        let task = Task<Credential, any Error> {
            do {
                let fresh = try await authenticator.refresh(stale)
                guard !fresh.requiresRefresh else { throw AuthenticationError.refreshedCredentialRequiresRefresh }
                settleRefresh(id, .success(fresh))
                return fresh
            } catch {
                settleRefresh(id, .failure(error))
                throw error
            }
        }
        state.refresh = .refreshing(id: id, task: task, proactive: proactive)
        state.refreshWaiters += 1
        return .success(task)
    }

    /// Records a refresh's outcome, unless the app set a credential meanwhile (its own wins).
    private func settleRefresh(_ id: Int, _ outcome: Result<Credential, any Error>) {
        state.withLock { state in
            guard case .refreshing(let current, _, _) = state.refresh, current == id else { return }
            switch outcome {
            case .success(let fresh): state.update(fresh)
            case .failure(let error): state.refresh = .failed(error)
            }
        }
    }

    private func awaitRefresh(_ task: Task<Credential, any Error>) async throws -> Credential {
        defer { state.withLock { $0.refreshWaiters -= 1 } }
        return try await task.value
    }
}
