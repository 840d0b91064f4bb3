public import CourierSecurity
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

extension HTTPSessionManager {
    /// Creates a manager whose transport evaluates `securityPolicy` in every TLS handshake, after
    /// AFNetworking's guard: a policy that pins is refused unless the base URL is `https`.
    ///
    /// A transport already built cannot take a policy, so this takes a factory and hands it the
    /// policy: the factory installs it as the transport's trust evaluator (with libcurl,
    /// `OpenSSLTrustHook` as `CurlTransport.Configuration.trustInstaller`). A server the policy
    /// rejects fails the task with `SessionError.urlErrorCode` -1202 before any request byte is
    /// sent. The session owns the transport it made: ``shutdown()`` ends it, and a reset
    /// (`SessionManager.invalidate(cancelingTasks:resetSession:)`) makes a new one with the same policy.
    ///
    /// ```swift
    /// let api = try HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1"), securityPolicy: policy) {
    ///     policy in
    ///     var configuration = CurlTransport.Configuration()
    ///     configuration.trustInstaller = OpenSSLTrustHook(evaluator: policy)
    ///     return CurlTransport(configuration: configuration)
    /// }
    /// ```
    /// - Parameters:
    ///   - baseURL: The base URL; AFNetworking's normalisation applies.
    ///   - securityPolicy: The policy every server must pass.
    ///   - configuration: The session's settings.
    ///   - interceptor: Adapters and retriers for every task.
    ///   - redirectHandler: What to do with redirects.
    ///   - eventMonitors: Monitors that receive every event.
    ///   - makeTransport: Builds a transport with the policy as its trust evaluator; called after
    ///     the guard passed, and again at each reset.
    /// - Throws: `InsecureSecurityPolicyError` from the guard, or what `makeTransport` throws.
    public convenience init(
        baseURL: URL?,
        securityPolicy: SecurityPolicy,
        configuration: SessionConfiguration = SessionConfiguration(),
        interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: any RedirectHandling = Redirector.follow,
        eventMonitors: [any EventMonitor] = [],
        makeTransport: @escaping @Sendable (SecurityPolicy) throws -> any HTTPTransport
    ) throws {
        try InsecureSecurityPolicyError.check(securityPolicy, baseURL: baseURL)
        let session = try SessionManager(
            makeTransport: { try makeTransport(securityPolicy) },
            configuration: configuration,
            interceptor: interceptor,
            redirectHandler: redirectHandler,
            eventMonitors: eventMonitors
        )
        self.init(baseURL: baseURL, session: session)
    }
}
