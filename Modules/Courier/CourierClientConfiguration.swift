public import CourierCurl
public import CourierSecurity
public import CourierSerialization
public import CourierSessionCore
public import CourierSessionEngine
public import CourierTransport

extension CourierClient {
    /// Every layer the root puts together, each with AFNetworking's default and each replaceable.
    ///
    /// The defaults: a `CurlTransport` with the system CA store and proxies from the environment;
    /// no security policy (libcurl verifies the chain against the CA store and the host name);
    /// form-encoded requests and JSON responses validated as AFNetworking does (statuses 200–299,
    /// JSON content types); the default `RetryPolicy` for idempotent requests; redirects followed
    /// (the default `Redirector`, 10 at most); no event monitors; no reachability.
    ///
    /// ```swift
    /// let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1")) { configuration in
    ///     configuration.curl.tls.caFile = "/etc/myapp/internal-ca.pem"
    ///     configuration.requestSerializer = JSONRequestSerializer()
    ///     configuration.retryPolicy?.retryLimit = 4
    ///     configuration.eventMonitors = [RequestLogger()]
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Makes the root's transport, given the security policy to evaluate in the TLS handshake.
        public typealias TransportFactory = @Sendable (_ policy: SecurityPolicy?) -> any HTTPTransport

        /// The libcurl transport's settings: CA file or directory, client certificate, proxies,
        /// HTTP version, timeouts, cookies, diagnostics. Used by the default transport only.
        ///
        /// ```swift
        /// configuration.curl.tls.caFile = "/etc/myapp/internal-ca.pem"
        /// configuration.curl.proxy = .none
        /// ```
        public var curl = CurlTransport.Configuration()

        /// AFNetworking's `securityPolicy`, evaluated inside the TLS handshake before a request byte
        /// is sent; `nil` (the default) leaves trust to the CA store.
        ///
        /// The default transport runs it behind `OpenSSLTrustHook`, in place of any
        /// `curl.trustInstaller`. A policy that pins (`PinningMode.publicKey` or
        /// `PinningMode.certificate`) needs an `https` base URL: the root refuses it otherwise
        /// with `InsecureSecurityPolicyError`. For a policy per host, set
        /// `curl.trustInstaller` to an `OpenSSLTrustHook` around a `ServerTrustManager` instead.
        ///
        /// ```swift
        /// let pinned = try PinnedCertificateLoader.certificates(
        ///     contentsOfFile: "/etc/myapp/api.pem",
        ///     using: CourierClient.certificateVerifier
        /// )
        /// configuration.securityPolicy = SecurityPolicy(
        ///     pinningMode: .certificate,
        ///     pinnedCertificates: pinned,
        ///     verifier: CourierClient.certificateVerifier
        /// )
        /// ```
        public var securityPolicy: SecurityPolicy?

        /// Replaces the transport; `nil` (the default) makes a `CurlTransport` from ``curl`` and
        /// ``securityPolicy``. The root owns what the factory returns and shuts it down.
        ///
        /// ```swift
        /// let mock = MockTransport()
        /// configuration.makeTransport = { _ in mock }
        /// ```
        public var makeTransport: TransportFactory?

        /// The request serializer: form parameters (`HTTPRequestSerializer`) by default.
        public var requestSerializer: any EncodableRequestSerializing = HTTPRequestSerializer()

        /// The response serializer of the callback verbs: JSON with AFNetworking's validation.
        public var responseSerializer = JSONResponseSerializer()

        /// The default retrier, asked after every other one; `nil` turns retries off.
        public var retryPolicy: RetryPolicy? = RetryPolicy()

        /// Adapters and retriers of your own, applied in order before ``retryPolicy`` is asked.
        ///
        /// ```swift
        /// configuration.interceptors = [AuthenticationInterceptor(authenticator: authenticator, credential: token)]
        /// ```
        public var interceptors: [any RequestInterceptor] = []

        /// What the session does with redirects: follows them by default.
        public var redirectHandler: any RedirectHandling = Redirector.follow

        /// Monitors that receive every session event, in order.
        public var eventMonitors: [any EventMonitor] = []

        /// Queues, the redirect limit, the whole-call deadline, and the HTTP cache (none by default).
        ///
        /// ```swift
        /// configuration.session.cache = HTTPCache(store: try DiskCacheStore(named: "com.example.api"))
        /// ```
        public var session = SessionConfiguration()

        /// Makes a reachability monitor for a host; when set, a request that failed because the
        /// path was down waits for it to come back and is retried once (`OfflineAwareRetrier`,
        /// asked first). `nil` by default.
        ///
        /// ```swift
        /// configuration.reachability = { host in NetlinkReachabilityMonitor(target: .host(host)) }
        /// ```
        public var reachability: OfflineAwareRetrier.MonitorFactory?

        /// The defaults.
        public init() {}

        /// The interceptors as the session applies them: reachability first, then the app's, then
        /// the retry policy; `nil` when there are none.
        var composedInterceptor: (any RequestInterceptor)? {
            var retriers: [any RequestRetrier] = []
            if let reachability { retriers.append(OfflineAwareRetrier(monitor: reachability)) }
            retriers += interceptors.map { $0 as any RequestRetrier }
            if let retryPolicy { retriers.append(retryPolicy) }
            guard !retriers.isEmpty else { return nil }
            return Interceptor(adapters: interceptors.map { $0 as any RequestAdapter }, retriers: retriers)
        }
    }
}
