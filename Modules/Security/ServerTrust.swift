/// What a TLS client knows about a server's identity at the moment it must decide to trust it.
///
/// The transport builds one per TLS handshake, inside the handshake and before any request byte is
/// sent, and hands it to a ``ServerTrustEvaluating``. It carries the certificates, the transport's
/// default verdicts, and a ``verifier`` with which a policy can verify the chain again against other
/// anchors (certificate pinning) or extract public keys (public-key pinning).
///
/// ```swift
/// struct LoggingEvaluator: ServerTrustEvaluating {
///     func evaluate(_ trust: ServerTrust) -> TrustDecision {
///         print(trust.host ?? "-", trust.chainVerdict, trust.hostVerdict)
///         return DefaultTrustEvaluator().evaluate(trust)
///     }
/// }
/// ```
public struct ServerTrust: Sendable {
    /// The host as the transport connected to it: a DNS name, or an IP literal (IPv6 without
    /// brackets); nil when the transport had no host name to check.
    public let host: String?

    /// The certificates the server presented, leaf first, in the order it sent them.
    ///
    /// This is the peer's chain as sent, not the chain the verifier built: it may lack the root, carry
    /// extra certificates or be out of order. It is what a policy re-verifies against pinned anchors.
    public let certificates: [Certificate]

    /// The chain the default verification built, leaf first and ending at the trust anchor from the
    /// transport's CA store; empty when ``chainVerdict`` is not ``ChainVerdict/trusted``.
    ///
    /// Unlike ``certificates`` it contains the root even when the server did not send it, so a
    /// public-key pin on a CA key is found here.
    public let verifiedChain: [Certificate]

    /// The chain checked against the transport's CA store, without the host name.
    public let chainVerdict: ChainVerdict

    /// The leaf checked against ``host``.
    public let hostVerdict: HostVerdict

    /// Verifies certificates and extracts keys with the same library the transport uses.
    public let verifier: any CertificateVerifying

    /// Why a trust hook that checks revocation rejected the server whatever its evaluator says:
    /// `SecurityError.Code.certificateRevoked` or `SecurityError.Code.revocationUnknown`, the reason
    /// naming the mechanism (CRL or stapled OCSP response). Nil otherwise, and always nil in the
    /// trust an evaluator receives; the hook sets it on the trust it reports with its rejection, and
    /// transports hand it on as the underlying error of the failed transfer.
    ///
    /// ```swift
    /// if trust.revocationFailure?.code == .certificateRevoked { alertSecurityTeam(trust.host) }
    /// ```
    public var revocationFailure: SecurityError?

    /// Creates a server trust; transports do this, tests do it with fixture certificates.
    ///
    /// ```swift
    /// let trust = ServerTrust(
    ///     host: "api.test",
    ///     certificates: [leaf, intermediate],
    ///     chainVerdict: .trusted,
    ///     hostVerdict: .matches,
    ///     verifier: OpenSSLCertificateVerifier()
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host as connected, or nil.
    ///   - certificates: The presented chain, leaf first.
    ///   - verifiedChain: The chain built by the default verification, leaf first; empty when untrusted.
    ///   - chainVerdict: The default chain verdict, without host name.
    ///   - hostVerdict: The leaf checked against `host`.
    ///   - verifier: The verifier for further checks.
    public init(
        host: String?,
        certificates: [Certificate],
        verifiedChain: [Certificate] = [],
        chainVerdict: ChainVerdict,
        hostVerdict: HostVerdict,
        verifier: any CertificateVerifying
    ) {
        self.host = host
        self.certificates = certificates
        self.verifiedChain = verifiedChain
        self.chainVerdict = chainVerdict
        self.hostVerdict = hostVerdict
        self.verifier = verifier
    }

    /// The server's own certificate, the first one presented.
    public var leaf: Certificate? { certificates.first }

    /// Whether the host check passed or had nothing to check: AFNetworking, given no domain,
    /// evaluates without a host name.
    public var hostIsAcceptable: Bool { hostVerdict != .mismatch }
}
