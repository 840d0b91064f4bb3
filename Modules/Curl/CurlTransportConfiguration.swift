public import CourierDiagnostics
public import CourierSecurity
public import CourierTransport

extension CurlTransport {
    /// Everything a ``CurlTransport`` fixes for its lifetime: connection pooling, limits, timeouts,
    /// protocol policy, routing, TLS material and cookies.
    ///
    /// Options that libcurl applies per connection (TLS material, proxy, routing) are fixed per
    /// transport on purpose: libcurl reuses a pooled connection without re-checking them.
    ///
    /// ```swift
    /// var configuration = CurlTransport.Configuration()
    /// configuration.connectTimeout = .seconds(5)
    /// configuration.proxy = .none
    /// let transport = CurlTransport(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Connections open at once to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`); 32 by default.
        ///
        /// 32 lets 32 concurrent HTTP/1.1 requests each have a connection. HTTP/2 transfers wait for
        /// an existing connection to multiplex on (`CURLOPT_PIPEWAIT`), and the transport admits at
        /// most ``maxConcurrentStreams`` transfers per origin at once, so HTTP/2 stays on one
        /// connection. The cap is never unlimited, because libcurl 7.88 opens a new connection for
        /// each transfer beyond a connection's stream limit; see <doc:LibcurlNotes>.
        public var maxConnectionsPerHost: Int = 32
        /// Connections open at once in total (`CURLMOPT_MAX_TOTAL_CONNECTIONS`); `nil`, no limit.
        public var maxTotalConnections: Int?
        /// Idle connections kept for reuse (`CURLMOPT_MAXCONNECTS`); 64 by default.
        public var connectionCacheSize: Int = 64
        /// HTTP/2 streams per connection (`CURLMOPT_MAX_CONCURRENT_STREAMS`); 100 by default.
        ///
        /// The transport hands libcurl at most this many transfers per origin at once (or
        /// ``maxConnectionsPerHost``, if larger). Further transfers to the same origin wait in the
        /// transport, in order, and their timeouts start when they are handed over. For HTTP/1.1
        /// this never limits anything: at most ``maxConnectionsPerHost`` requests can be in flight
        /// per host anyway.
        public var maxConcurrentStreams: Int = 100
        /// The longest to wait for a connection (TCP plus TLS); 30 seconds by default.
        public var connectTimeout: Duration = .seconds(30)
        /// The longest a transfer may receive or send nothing (`LOW_SPEED_LIMIT=1` over
        /// `LOW_SPEED_TIME`, rounded up to whole seconds); 60 seconds by default; `nil`, none.
        ///
        /// Time spent paused by the consumer's backpressure or by `HTTPTransfer.suspend()` does not
        /// count (libcurl does not measure speed while a transfer is paused).
        public var idleTimeout: Duration? = .seconds(60)
        /// The longest a whole transfer may take (`CURLOPT_TIMEOUT_MS`), paused time included;
        /// `nil` (the default), none. A request's own `timeout` wins.
        public var totalTimeout: Duration?
        /// The most response-header bytes accepted per response, interim heads included; 256 KiB.
        public var maximumHeaderSize: Int = 256 << 10
        /// The most header fields accepted in one response head (each interim head counted on its
        /// own); 1,000 by default (``defaultMaximumHeaderCount``), at least 1. One field more ends
        /// the transfer with `TransportError.Category.limitExceeded` before the head is delivered.
        ///
        /// A typical head has a dozen fields. Without a count, ``maximumHeaderSize`` alone would let
        /// a head of 43,000 six-byte fields through, each one parsed, stored and searched.
        ///
        /// ```swift
        /// var configuration = CurlTransport.Configuration()
        /// configuration.maximumHeaderCount = 200
        /// ```
        public var maximumHeaderCount: Int = defaultMaximumHeaderCount
        /// The default ``maximumHeaderCount``: 1,000, half of Node.js's client default
        /// (`maxHeadersCount`, 2,000) and a fifth of the count recent libcurl releases keep
        /// (`MAX_HTTP_RESP_HEADER_COUNT`, 5,000 per transfer, every head included), which
        /// Debian's libcurl 7.88 does not have.
        ///
        /// ```swift
        /// let limit = CurlTransport.Configuration.defaultMaximumHeaderCount
        /// ```
        public static var defaultMaximumHeaderCount: Int { 1000 }
        /// The largest decoded response body accepted; `nil` (the default), no limit. A compressed
        /// body is counted as it decodes, so a decompression bomb ends in
        /// `TransportError.Category.limitExceeded` once its decoded size passes the limit.
        ///
        /// No limit here, because a transport does not know where a body goes: a download's file
        /// or a streamed body does not grow memory. A session gives each task whose body it
        /// collects in memory its own limit instead (`SessionConfiguration.maximumInMemoryResponseBodySize`,
        /// 64 MiB by default); a request's `maximumResponseBodySize` wins over both.
        public var maximumResponseBodySize: Int64?
        /// libcurl's receive buffer per transfer (`CURLOPT_BUFFERSIZE`); 256 KiB by default.
        ///
        /// A large buffer means fewer, larger body chunks and fewer wakeups on fast downloads (see
        /// <doc:LibcurlNotes> for what was measured). Memory is allocated per running transfer.
        /// Clamped by libcurl to 1 KiB…10 MiB.
        public var receiveBufferSize: Int = 256 << 10
        /// Which HTTP versions to speak; ``HTTPVersionPolicy/automatic`` by default.
        public var httpVersion: HTTPVersionPolicy = .automatic
        /// How to reach the network through proxies; ``Proxy/environment`` by default.
        public var proxy: Proxy = .environment
        /// Fixed name-to-address answers (`CURLOPT_RESOLVE`).
        public var resolveOverrides: [ResolveOverride] = []
        /// Connection redirections (`CURLOPT_CONNECT_TO`): the request keeps its host name.
        public var connectOverrides: [ConnectOverride] = []
        /// Connect every transfer through this Unix-domain socket (`CURLOPT_UNIX_SOCKET_PATH`).
        public var unixSocketPath: String?
        /// Trust anchors, client certificate and verification switches.
        public var tls: TLS = TLS()
        /// Trust anchors, client certificate and verification switches for the connection to an
        /// `https://` proxy (`CURLOPT_PROXY_CAINFO`, `CURLOPT_PROXY_CAPATH`, `CURLOPT_PROXY_SSLCERT`,
        /// `CURLOPT_PROXY_SSLKEY`, `CURLOPT_PROXY_KEYPASSWD`, `CURLOPT_PROXY_SSL_VERIFYPEER` and
        /// `CURLOPT_PROXY_SSL_VERIFYHOST`); the system trust store and full verification by default.
        ///
        /// libcurl verifies a TLS proxy as it verifies a server, with these settings instead of
        /// ``tls``: a proxy whose certificate does not verify fails the transfer like an untrusted
        /// server, with `TransportError.Category.serverTrustFailed` (libcurl reports both as
        /// `CURLE_PEER_FAILED_VERIFICATION`), and the message begins "the HTTPS proxy's certificate
        /// did not verify". Behind an `https://` proxy, libcurl 7.88 reports an untrusted *server* as
        /// a TLS failure, so that arrives as `TransportError.Category.tlsFailed`. Ignored for
        /// `http://` and SOCKS proxies. See <doc:LibcurlNotes>.
        ///
        /// - Important: A ``trustInstaller`` is also asked about the proxy's certificate, with the
        ///   request's host, and its answer is final for the proxy as well. Behind an `https://`
        ///   proxy, use a policy that accepts the proxy's certificate too, or no policy.
        ///
        /// ```swift
        /// configuration.proxy = .explicit(url: "https://proxy.internal:3129", credentials: nil, noProxy: [])
        /// configuration.proxyTLS.caFile = "/etc/courier/proxy-ca.pem"
        /// configuration.proxyTLS.clientCertificate = CurlTransport.ClientCertificate(path: "app.pem", keyPath: "app.key")
        /// ```
        public var proxyTLS: TLS = TLS()
        /// The trust policy asked on every new TLS connection; `nil` (the default) leaves trust to
        /// libcurl and ``TLS``.
        ///
        /// The transport calls it from `CURLOPT_SSL_CTX_FUNCTION` with the connection's `SSL_CTX`
        /// and the request's host, so the policy (an `OpenSSLTrustHook` wrapping any
        /// `ServerTrustEvaluating`) runs inside the handshake, on the loop thread, before a request
        /// byte is sent; it must answer quickly and never block. While it is set the policy's answer
        /// is final: OpenSSL still verifies the chain against ``TLS/caFile`` and ``TLS/caDirectory``
        /// and hands its verdict to the policy (`CURLOPT_SSL_VERIFYPEER=1`), the host check is the
        /// policy's (`CURLOPT_SSL_VERIFYHOST=0`, so ``TLS/verifiesPeer`` and ``TLS/verifiesHost``
        /// are ignored), and TLS session resumption is off (`CURLOPT_SSL_SESSIONID_CACHE=0`: a
        /// resumed session presents no certificate). It is fixed per transport because libcurl
        /// reuses pooled connections without asking again. A rejection fails the transfer with
        /// `TransportError.Category.serverTrustFailed` and the policy's reason in the message; when
        /// the installer rejected a revoked certificate (`ServerTrust.revocationFailure`), the error's
        /// `underlying` is that `SecurityError` (a stapled OCSP response is judged after the verify
        /// callback, so libcurl reports that one as `CURLE_SSL_CONNECT_ERROR`, 35, instead of 60).
        ///
        /// ```swift
        /// // In the composition root, which names the OpenSSL backend:
        /// let pin = try PublicKeyPin("sha256//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI=")
        /// configuration.trustInstaller = OpenSSLTrustHook(evaluator: PublicKeyPinningTrustEvaluator(pins: [pin]))
        /// ```
        public var trustInstaller: (any TLSContextTrustInstalling)?
        /// Whether transfers keep and send cookies by default; a request's `handlesCookies` wins.
        public var cookiePolicy: CookiePolicy = .enabled
        /// Send `Accept-Encoding` for every coding libcurl knows (gzip, deflate, br, zstd) and
        /// decode transparently, unless the request sets `Accept-Encoding` itself; on by default.
        ///
        /// The transport decodes the body itself (libcurl's decoding is off), in pieces of at most
        /// 16 KiB and only as fast as the consumer reads: while the consumer is behind, the body
        /// stays compressed, so a highly compressible response needs no more memory than any other.
        /// Body events, ``maximumResponseBodySize``, download files, download progress and
        /// `TransferMetrics.decodedBodyBytes` count decoded bytes; `TransferMetrics.responseBodyBytes`
        /// counts the bytes on the wire. An encoded response has no known total for progress
        /// (its `Content-Length` counts encoded bytes). A body that does not decode (corrupt,
        /// truncated, or an unknown coding) fails with `TransportError.Category.contentDecodingFailed`
        /// and code 61, as libcurl's `CURLE_BAD_CONTENT_ENCODING` did.
        ///
        /// ```swift
        /// configuration.automaticDecompression = false  // bodies arrive as sent, still encoded
        /// ```
        public var automaticDecompression: Bool = true
        /// Where the transport reports what it notices and handles on its own; off
        /// (`Diagnostics.disabled`) by default, and free while off.
        ///
        /// Entries come from the loop thread, so the handler must not block. The transport reports
        /// libcurl's notices of faults it tolerates (an over-long body, an HTTP/2 GOAWAY) and, at
        /// `trace`, the rest of libcurl's informational lines it reads while a body arrives; checks
        /// it cannot make on a response (a body delimited only by the connection's close); trust
        /// evaluations (`info` on accept, `warning` on reject) while ``trustInstaller`` is set; and
        /// libcurl calls that failed without failing a transfer. Metadata carries the transfer's
        /// `url` and `transfer` id where there is one.
        ///
        /// ```swift
        /// configuration.diagnostics = Diagnostics(handler: handler, label: "app.network")
        /// ```
        public var diagnostics: Diagnostics = .disabled

        /// Creates the default configuration.
        public init() {}

        /// Checks the values for contradictions before any thread or handle exists.
        ///
        /// ```swift
        /// try CurlTransport.Configuration().validate()
        /// ```
        /// - Throws: `TransportError` of category `TransportError.Category.configuration`.
        public func validate() throws(TransportError) {
            func fail(_ message: String) -> TransportError {
                TransportError(category: .configuration, message: message)
            }
            guard maxConnectionsPerHost >= 1 else { throw fail("maxConnectionsPerHost must be at least 1") }
            if let maxTotalConnections, maxTotalConnections < 1 {
                throw fail("maxTotalConnections must be at least 1 when set")
            }
            guard connectionCacheSize >= 1 else { throw fail("connectionCacheSize must be at least 1") }
            guard (1...10_000).contains(maxConcurrentStreams) else {
                throw fail("maxConcurrentStreams must lie in 1...10000")
            }
            guard connectTimeout > .zero else { throw fail("connectTimeout must be positive") }
            if let idleTimeout, idleTimeout <= .zero { throw fail("idleTimeout must be positive when set") }
            if let totalTimeout, totalTimeout <= .zero { throw fail("totalTimeout must be positive when set") }
            guard maximumHeaderSize >= 1024 else { throw fail("maximumHeaderSize must be at least 1024 bytes") }
            guard maximumHeaderCount >= 1 else { throw fail("maximumHeaderCount must be at least 1") }
            if let maximumResponseBodySize, maximumResponseBodySize < 0 {
                throw fail("maximumResponseBodySize must not be negative")
            }
            guard (1024...(10 << 20)).contains(receiveBufferSize) else {
                throw fail("receiveBufferSize must lie in 1 KiB...10 MiB")
            }
            for entry in resolveOverrides where entry.addresses.isEmpty || entry.host.isEmpty {
                throw fail("a resolve override needs a host and at least one address")
            }
            if let unixSocketPath, unixSocketPath.isEmpty { throw fail("unixSocketPath must not be empty") }
            if case .explicit(let url, _, _) = proxy, url.isEmpty { throw fail("the proxy URL must not be empty") }
            for value in configurationStrings where value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
                throw fail("configuration strings may not contain NUL, CR or LF: \(value.debugDescription)")
            }
        }

        /// Strings handed to libcurl, which must not smuggle line breaks or terminators.
        private var configurationStrings: [String] {
            var values = resolveOverrides.map(\.curlValue) + connectOverrides.map(\.curlValue)
            values += [unixSocketPath, tls.caFile, tls.caDirectory, tls.clientCertificate?.path].compactMap { $0 }
            values += [tls.clientCertificate?.keyPath, tls.clientCertificate?.keyPassword].compactMap { $0 }
            values += [proxyTLS.caFile, proxyTLS.caDirectory, proxyTLS.clientCertificate?.path].compactMap { $0 }
            values += [proxyTLS.clientCertificate?.keyPath, proxyTLS.clientCertificate?.keyPassword].compactMap { $0 }
            if case .explicit(let url, let credentials, let noProxy) = proxy {
                values += [url] + noProxy
                if let credentials { values += [credentials.user, credentials.password] }
            }
            return values
        }
    }

    /// Which HTTP versions a transport speaks.
    ///
    /// ```swift
    /// configuration.httpVersion = .h2cUpgrade  // also try HTTP/2 on plain http:// URLs
    /// ```
    public enum HTTPVersionPolicy: Sendable, Hashable {
        /// HTTP/1.1 for `http://`; HTTP/2 via ALPN for `https://`, falling back to HTTP/1.1.
        case automatic
        /// HTTP/1.1 everywhere.
        case http1_1
        /// Like ``automatic``, and also offers HTTP/2 on `http://` with an `Upgrade: h2c` request.
        ///
        /// Prior-knowledge h2c is never used: libcurl 7.88 breaks on reused prior-knowledge
        /// connections (see <doc:LibcurlNotes>).
        case h2cUpgrade
    }

    /// How transfers reach the network.
    ///
    /// ```swift
    /// configuration.proxy = .explicit(
    ///     url: "http://proxy.internal:3128",
    ///     credentials: CurlTransport.ProxyCredentials(user: "app", password: "secret"),
    ///     noProxy: ["localhost", ".internal"]
    /// )
    /// ```
    public enum Proxy: Sendable, Hashable {
        /// Use `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` from the environment, as
        /// curl does.
        case environment
        /// Connect directly, whatever the environment says.
        case none
        /// Use this proxy (`http://`, `https://`, `socks5h://`…), optional credentials, and skip it
        /// for hosts in `noProxy` (host names, domains with a leading dot, or `*`).
        case explicit(url: String, credentials: ProxyCredentials?, noProxy: [String])
    }

    /// A proxy user name and password.
    ///
    /// ```swift
    /// let credentials = CurlTransport.ProxyCredentials(user: "app", password: "secret")
    /// ```
    public struct ProxyCredentials: Sendable, Hashable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Creates credentials.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// A fixed answer for a host name: `host:port` resolves to `addresses`.
    ///
    /// ```swift
    /// let entry = CurlTransport.ResolveOverride(host: "api.test", port: 443, addresses: ["127.0.0.1"])
    /// ```
    public struct ResolveOverride: Sendable, Hashable {
        /// The host name as it appears in URLs.
        public var host: String
        /// The port it applies to.
        public var port: Int
        /// The addresses to use, in order.
        public var addresses: [String]

        /// Creates an override.
        public init(host: String, port: Int, addresses: [String]) {
            self.host = host
            self.port = port
            self.addresses = addresses
        }

        var curlValue: String { "\(host):\(port):\(addresses.joined(separator: ","))" }
    }

    /// A connection redirection: requests for `host:port` connect to `targetHost:targetPort` while
    /// keeping their own `Host` header and TLS server name.
    ///
    /// ```swift
    /// let entry = CurlTransport.ConnectOverride(host: "api.test", port: 80, targetHost: "127.0.0.1", targetPort: 8080)
    /// ```
    public struct ConnectOverride: Sendable, Hashable {
        /// The host name as it appears in URLs; empty matches every host.
        public var host: String
        /// The port as it appears in URLs; `nil` matches every port.
        public var port: Int?
        /// Where to connect instead; empty keeps the host.
        public var targetHost: String
        /// The port to connect to instead; `nil` keeps the port.
        public var targetPort: Int?

        /// Creates a redirection.
        public init(host: String, port: Int?, targetHost: String, targetPort: Int?) {
            self.host = host
            self.port = port
            self.targetHost = targetHost
            self.targetPort = targetPort
        }

        var curlValue: String {
            "\(host):\(port.map(String.init) ?? ""):\(targetHost):\(targetPort.map(String.init) ?? "")"
        }
    }

    /// TLS trust anchors, client identity and verification switches, for servers (``Configuration/tls``)
    /// or for an `https://` proxy (``Configuration/proxyTLS``).
    ///
    /// ```swift
    /// configuration.tls.caFile = "/etc/courier/internal-ca.pem"
    /// configuration.tls.clientCertificate = CurlTransport.ClientCertificate(path: "client.pem", keyPath: "client.key")
    /// ```
    public struct TLS: Sendable, Hashable {
        /// A PEM bundle of trusted CAs (`CURLOPT_CAINFO`); `nil` uses the system bundle.
        public var caFile: String?
        /// A hashed directory of trusted CAs (`CURLOPT_CAPATH`); `nil` uses the system directory.
        public var caDirectory: String?
        /// The client certificate presented when a server asks for one, given as files that
        /// libcurl reads at each handshake (a wrong passphrase shows only then). Prefer
        /// ``clientIdentity``.
        public var clientCertificate: ClientCertificate?
        /// A client identity checked before any connection (`ClientIdentity.load(…)` in
        /// `CourierSecurityOpenSSL`) and handed to libcurl in memory (`CURLOPT_SSLCERT_BLOB`,
        /// `CURLOPT_SSLKEY_BLOB`); it wins over ``clientCertificate``.
        ///
        /// ```swift
        /// configuration.tls.clientIdentity = try ClientIdentity.load(pkcs12At: "client.p12", passphrase: secret)
        /// ```
        public var clientIdentity: ClientIdentity?
        /// Whether the server's chain must verify against the trust anchors; on by default.
        public var verifiesPeer: Bool = true
        /// Whether the server's certificate must name the host; on by default.
        public var verifiesHost: Bool = true

        /// Creates the default TLS settings: system trust store, full verification.
        public init() {}
    }

    /// A client certificate and its private key.
    ///
    /// ```swift
    /// let identity = CurlTransport.ClientCertificate(path: "bundle.p12", format: .pkcs12, keyPassword: "pw")
    /// ```
    public struct ClientCertificate: Sendable, Hashable {
        /// The encoding of the certificate file.
        public enum Format: String, Sendable, Hashable {
            /// PEM text.
            case pem = "PEM"
            /// DER binary.
            case der = "DER"
            /// A PKCS#12 bundle holding certificate and key.
            case pkcs12 = "P12"
        }

        /// The certificate file.
        public var path: String
        /// How the certificate file is encoded.
        public var format: Format
        /// The private key file, when it is not inside the certificate file.
        public var keyPath: String?
        /// The passphrase of the key or bundle.
        public var keyPassword: String?

        /// Creates a client identity.
        ///
        /// ```swift
        /// let identity = CurlTransport.ClientCertificate(path: "client.pem", format: .pem, keyPath: "client.key")
        /// ```
        public init(path: String, format: Format = .pem, keyPath: String? = nil, keyPassword: String? = nil) {
            self.path = path
            self.format = format
            self.keyPath = keyPath
            self.keyPassword = keyPassword
        }
    }

    /// Whether transfers use the transport's cookie jar.
    ///
    /// ```swift
    /// configuration.cookiePolicy = .disabled  // a request can still opt in with handlesCookies = true
    /// ```
    public enum CookiePolicy: Sendable, Hashable {
        /// Store cookies from responses in the jar and send matching ones.
        case enabled
        /// Neither store nor send cookies; the jar stays usable through its API.
        case disabled
    }
}
