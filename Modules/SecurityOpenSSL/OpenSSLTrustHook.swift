internal import CCourierOpenSSLShim
public import CourierSecurity

/// Connects a `ServerTrustEvaluating` to OpenSSL's certificate verification for a TLS client
/// context: the `TLSContextTrustInstalling` a libcurl transport calls from `CURLOPT_SSL_CTX_FUNCTION`.
///
/// ``install(on:host:onDecision:)`` sets a certificate-verify callback on the `SSL_CTX`. For every
/// handshake made from that context, OpenSSL calls it with the server's chain; it computes the
/// default verdicts (chain against the context's CA store without host name, then the host on the
/// leaf), builds a `ServerTrust` and asks the evaluator. A rejection fails the handshake with
/// `X509_V_ERR_APPLICATION_VERIFICATION` before any request byte is sent (libcurl reports
/// `CURLE_PEER_FAILED_VERIFICATION`).
///
/// With a ``RevocationPolicy`` (``init(evaluator:verifier:revocation:)``) the hook also checks CRLs in
/// the same callback and a stapled OCSP response in OpenSSL's status callback, and a revoked
/// certificate fails the handshake whatever the evaluator says; see <doc:Revocation>.
///
/// Requirements on the transport (libcurl options), because OpenSSL or libcurl would otherwise
/// bypass the evaluator:
/// - `CURLOPT_SSL_VERIFYPEER=1`: with `SSL_VERIFY_NONE` OpenSSL ignores the callback's verdict.
/// - `CURLOPT_SSL_VERIFYHOST=0`: the evaluator owns host matching (`HostVerdict`), so a policy can
///   turn it off.
/// - `CURLOPT_SSL_SESSIONID_CACHE=0`: a resumed TLS session sends no certificate and skips the
///   callback. Likewise libcurl reuses connections without asking again, so a transport keeps one
///   evaluator for its lifetime.
///
/// Lifetime: each installation keeps the evaluator alive until OpenSSL frees the `SSL_CTX` (libcurl
/// makes one per connection and frees it with the connection), so the hook itself needs no owner.
///
/// ```swift
/// // In the transport, set once per easy handle:
/// //   CURLOPT_SSL_CTX_FUNCTION = sslContextCallback, CURLOPT_SSL_CTX_DATA = the transfer's context
/// let sslContextCallback: curl_ssl_ctx_callback = { _, sslContext, userdata in
///     guard let sslContext, let userdata else { return CURLE_ABORTED_BY_CALLBACK }
///     let transfer = Unmanaged<CurlTransferContext>.fromOpaque(userdata).takeUnretainedValue()
///     do {
///         try transfer.trustHook.install(on: sslContext, host: transfer.url.host()) { _, decision in
///             transfer.recordTrustDecision(decision)  // the reason for the TransportError
///         }
///         return CURLE_OK
///     } catch {
///         return CURLE_ABORTED_BY_CALLBACK
///     }
/// }
/// ```
public final class OpenSSLTrustHook: TLSContextTrustInstalling {
    /// The policy asked on every handshake.
    public let evaluator: any ServerTrustEvaluating
    /// The verifier handed to the evaluator in each `ServerTrust`.
    public let verifier: OpenSSLCertificateVerifier
    /// The revocation checks made besides the evaluator; ``RevocationPolicy/none`` unless given.
    public let revocation: RevocationPolicy

    /// Creates a hook for one evaluator.
    ///
    /// ```swift
    /// let hook = OpenSSLTrustHook(evaluator: DefaultTrustEvaluator())
    /// ```
    ///
    /// - Parameters:
    ///   - evaluator: The policy; it runs inside the handshake and must not block.
    ///   - verifier: The verifier handed to the evaluator.
    public init(
        evaluator: any ServerTrustEvaluating,
        verifier: OpenSSLCertificateVerifier = OpenSSLCertificateVerifier()
    ) {
        OpenSSLRuntime.initialize()
        self.evaluator = evaluator
        self.verifier = verifier
        self.revocation = .none
    }

    /// Creates a hook for one evaluator that also checks revocation.
    ///
    /// A revoked certificate fails the handshake whatever the evaluator says; see
    /// ``RevocationPolicy`` and <doc:Revocation>.
    ///
    /// ```swift
    /// let hook = OpenSSLTrustHook(
    ///     evaluator: DefaultTrustEvaluator(),
    ///     revocation: try RevocationPolicy(ocspStapling: .preferred, crlFiles: ["ca.crl"])
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - evaluator: The policy; it runs inside the handshake and must not block.
    ///   - verifier: The verifier handed to the evaluator.
    ///   - revocation: The CRLs and OCSP-stapling requirement.
    public init(
        evaluator: any ServerTrustEvaluating,
        verifier: OpenSSLCertificateVerifier = OpenSSLCertificateVerifier(),
        revocation: RevocationPolicy
    ) {
        OpenSSLRuntime.initialize()
        self.evaluator = evaluator
        self.verifier = verifier
        self.revocation = revocation
    }

    /// Installs the evaluator as the certificate-verify callback of a TLS client context.
    ///
    /// Call it on the thread that owns the context, before its connections handshake (libcurl calls
    /// `CURLOPT_SSL_CTX_FUNCTION` on its loop thread while setting up the connection). The pointer is
    /// used only during this call. Installing again on the same context replaces the earlier
    /// installation.
    ///
    /// ```swift
    /// try hook.install(on: sslContext, host: "api.test")
    /// ```
    ///
    /// - Parameters:
    ///   - sslContext: The `SSL_CTX *` (what libcurl passes to `CURLOPT_SSL_CTX_FUNCTION`); it must
    ///     come from the same libssl as this module links.
    ///   - host: The host as connected: a DNS name, an IP literal (`[::1]` is accepted), or nil to
    ///     skip the host check (`HostVerdict.notChecked`).
    ///   - onDecision: Called after each evaluation with the trust and the decision, on the
    ///     handshake's thread; the transport uses it to report a rejection's reason. It must not block.
    /// - Throws: `SecurityError` with `SecurityError.Code.installationFailed` when OpenSSL cannot
    ///   store the callback (out of memory).
    public func install(
        on sslContext: UnsafeMutableRawPointer,
        host: String?,
        onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)? = nil
    ) throws(SecurityError) {
        let installation = TrustHookInstallation(
            evaluator: evaluator,
            verifier: verifier,
            revocation: revocation,
            onDecision: onDecision
        )
        // The C side owns this reference from here on and releases it with the SSL_CTX.
        let userdata = Unmanaged.passRetained(installation).toOpaque()
        let installed = revocation.withConfiguration { configuration in
            courier_ssl_ctx_install_verify(
                sslContext,
                HostName.normalized(host),
                configuration,
                { userdata, input in
                    guard let userdata, let input else { return 0 }
                    let installation = Unmanaged<TrustHookInstallation>.fromOpaque(userdata).takeUnretainedValue()
                    return installation.decide(input.pointee) ? 1 : 0
                },
                { userdata, input in
                    guard let userdata, let input else { return 0 }
                    let installation = Unmanaged<TrustHookInstallation>.fromOpaque(userdata).takeUnretainedValue()
                    return installation.decideStatus(input.pointee) ? 1 : 0
                },
                userdata,
                { userdata in
                    guard let userdata else { return }
                    Unmanaged<TrustHookInstallation>.fromOpaque(userdata).release()
                }
            )
        }
        guard installed == 1 else {
            Unmanaged<TrustHookInstallation>.fromOpaque(userdata).release()
            throw SecurityError(.installationFailed, reason: "the certificate-verify callback cannot be installed")
        }
    }
}
