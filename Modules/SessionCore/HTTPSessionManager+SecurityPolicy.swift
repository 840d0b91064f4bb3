public import CourierSecurity
public import CourierTransport
public import FoundationEssentials

extension HTTPSessionManager {
    /// Creates a manager whose transport evaluates `securityPolicy` in every TLS handshake, after
    /// AFNetworking's guard: a policy that pins is refused unless the base URL is `https`.
    ///
    /// A transport already built cannot take a policy, so this takes a factory and hands it the
    /// policy: the factory installs it as the transport's trust evaluator (with libcurl,
    /// `OpenSSLTrustHook` as `CurlTransport.Configuration.trustInstaller`). A server the policy
    /// rejects fails the task with ``SessionError/urlErrorCode`` -1202 before any request byte is
    /// sent. The manager owns the transport it made: ``shutdown()`` ends it.
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
    ///   - makeTransport: Builds the transport with the policy as its trust evaluator; called once,
    ///     after the guard passed.
    /// - Throws: ``InsecureSecurityPolicyError`` from the guard, or what `makeTransport` throws.
    public convenience init(
        baseURL: URL?,
        securityPolicy: SecurityPolicy,
        configuration: SessionConfiguration = SessionConfiguration(),
        interceptor: (any RequestInterceptor)? = nil,
        redirectHandler: any RedirectHandling = Redirector.follow,
        eventMonitors: [any EventMonitor] = [],
        makeTransport: (SecurityPolicy) throws -> any HTTPTransport
    ) throws {
        try InsecureSecurityPolicyError.check(securityPolicy, baseURL: baseURL)
        let transport = try makeTransport(securityPolicy)
        let session = SessionManager(
            transport: transport,
            configuration: configuration,
            interceptor: interceptor,
            redirectHandler: redirectHandler,
            eventMonitors: eventMonitors
        )
        self.init(baseURL: baseURL, session: session, ownedTransport: transport)
    }
}
