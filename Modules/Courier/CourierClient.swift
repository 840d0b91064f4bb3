internal import CourierLocking
public import CourierSecurity
internal import CourierSecurityOpenSSL
public import CourierSessionCore
public import CourierSessionEngine
public import CourierTransport
internal import CourierWebSocketEngine
public import FoundationEssentials

/// The composition root: a ready `HTTPSessionManager` on the libcurl transport, with AFNetworking's
/// defaults, in one line.
///
/// The root builds every layer from a ``Configuration``: a `CurlTransport` trusting the system CA
/// store, an optional `SecurityPolicy` evaluated inside the TLS handshake, the default
/// `RetryPolicy` for idempotent requests, redirects followed, and AFNetworking's validation
/// (statuses 200–299, JSON content types). Any layer can be replaced: the transport, trust,
/// serializers, interceptors, event monitors, reachability.
///
/// It is an instance, not a global: make one per API or per set of settings and keep it. The root
/// owns its transport. ``shutdown()`` cancels what is in flight and stops the transport; a root
/// dropped without it lets its running requests finish, then its transport stops its loop thread.
///
/// ```swift
/// import Courier
///
/// struct User: Decodable, Sendable { let name: String }
///
/// let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1"))
/// let user: User = try await client.get("users/42")
/// client.session.get("users", parameters: ["page": 2]) { response in print(response.value ?? .null) }
/// await client.shutdown()
/// ```
public final class CourierClient: Sendable {
    /// The session manager every call runs on: base URL, serializers, one call per HTTP verb.
    public let session: HTTPSessionManager
    /// The transport the root made and owns.
    public let transport: any HTTPTransport

    // No deinit: a dropped root needs none. A running task keeps its session, and the session the
    // transport; when the last task ends, the transport is released and its loop thread stops once
    // its transfers have (CurlTransport's contract). Nothing waits, so no thread is blocked.

    private enum Lifecycle {
        case running
        case stopping([CheckedContinuation<Void, Never>])
        case stopped
    }

    private let lifecycle = Lock(Lifecycle.running)

    /// Builds a client, adjusting the default ``Configuration`` with `configure`.
    ///
    /// ```swift
    /// let client = try CourierClient(baseURL: URL(string: "https://api.example.com")) { configuration in
    ///     configuration.curl.connectTimeout = .seconds(5)
    ///     configuration.session.deadline = .seconds(30)
    /// }
    /// ```
    /// - Parameters:
    ///   - baseURL: The URL every call's URL string is resolved against; `nil` for absolute URLs.
    ///   - configure: Changes the defaults; called once, before anything is made.
    /// - Throws: `InsecureSecurityPolicyError` when a pinning security policy meets a base URL that is not
    ///   `https`.
    public convenience init(
        baseURL: URL? = nil,
        configure: (inout Configuration) -> Void = { _ in }
    ) throws(InsecureSecurityPolicyError) {
        var configuration = Configuration()
        configure(&configuration)
        try self.init(baseURL: baseURL, configuration: configuration)
    }

    /// Builds a client from a complete configuration.
    ///
    /// ```swift
    /// var configuration = CourierClient.Configuration()
    /// configuration.retryPolicy = nil
    /// let client = try CourierClient(baseURL: nil, configuration: configuration)
    /// ```
    /// - Parameters:
    ///   - baseURL: The URL every call's URL string is resolved against; `nil` for absolute URLs.
    ///   - configuration: Every layer.
    /// - Throws: `InsecureSecurityPolicyError` when a pinning security policy meets a base URL that is not
    ///   `https`; no transport is made then.
    public init(baseURL: URL?, configuration: Configuration) throws(InsecureSecurityPolicyError) {
        if let policy = configuration.securityPolicy {
            try InsecureSecurityPolicyError.check(policy, baseURL: baseURL)
        }
        let makeTransport =
            configuration.makeTransport ?? { [curl = configuration.curl] policy in
                Self.curlTransport(curl, policy: policy)
            }
        transport = makeTransport(configuration.securityPolicy)
        var sessionConfiguration = configuration.session
        // WebSockets ride the same transport (its trust, proxy and cookies) unless the app put in
        // a connector of its own (a test's double).
        if sessionConfiguration.webSocketConnector == nil {
            sessionConfiguration.webSocketConnector = WebSocketConnector()
        }
        let manager = SessionManager(
            transport: transport,
            configuration: sessionConfiguration,
            interceptor: configuration.composedInterceptor,
            redirectHandler: configuration.redirectHandler,
            eventMonitors: configuration.eventMonitors
        )
        session = HTTPSessionManager(baseURL: baseURL, session: manager)
        session.requestSerializer = configuration.requestSerializer
        session.responseSerializer = configuration.responseSerializer
    }

    /// The certificate verifier of the default transport, for building a `SecurityPolicy` and
    /// reading pinned certificates (`PinnedCertificateLoader`) without naming the OpenSSL backend.
    ///
    /// ```swift
    /// let policy = try SecurityPolicy(
    ///     pinningMode: .publicKey,
    ///     certificatesInDirectory: "/etc/myapp/pins",
    ///     verifier: CourierClient.certificateVerifier
    /// )
    /// ```
    public static var certificateVerifier: any CertificateVerifying { OpenSSLCertificateVerifier() }

    /// Cancels every call in flight, invalidates the session, then shuts the transport down;
    /// returns when all of it is done.
    ///
    /// Safe to call more than once and from several tasks at once: every call returns when the
    /// first one has finished. Never blocks a thread.
    ///
    /// ```swift
    /// await client.shutdown()
    /// ```
    public func shutdown() async {
        let first = lifecycle.withLock { state in
            guard case .running = state else { return false }
            state = .stopping([])
            return true
        }
        guard first else {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stopped = lifecycle.withLock { state in
                    guard case .stopping(let waiters) = state else { return true }
                    state = .stopping(waiters + [continuation])
                    return false
                }
                if stopped { continuation.resume() }
            }
            return
        }
        await session.session.shutdown()
        await transport.shutdown()
        let waiters = lifecycle.withLock { state in
            defer { state = .stopped }
            guard case .stopping(let waiters) = state else { return [CheckedContinuation<Void, Never>]() }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
