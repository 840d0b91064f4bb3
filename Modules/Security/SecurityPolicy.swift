/// AFNetworking's `AFSecurityPolicy`: a pinning mode, whether invalid certificates are allowed,
/// whether the domain name is validated, and the pinned certificates with their public keys.
///
/// The policy is a ``ServerTrustEvaluating``, so the same value decides in unit tests, over fixture
/// chains and an injected verifier, and inside the TLS handshake behind `OpenSSLTrustHook`.
/// ``evaluate(_:)`` follows `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` step by step; see
/// there for the order and for the one place where Courier differs by default.
///
/// ```swift
/// let verifier = OpenSSLCertificateVerifier()
/// let pinned = try PinnedCertificateLoader.certificates(contentsOfFile: "/etc/myapp/api.pem", using: verifier)
/// var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pinned, verifier: verifier)
/// policy.validatesDomainName = true
/// configuration.trustInstaller = OpenSSLTrustHook(evaluator: policy)
/// ```
///
/// Certificates are kept as DER bytes and every operation that needs a crypto library (reading a
/// public key, PEM decoding, verifying against pinned anchors) goes through the policy's
/// ``CertificateVerifying``. That keeps this type pure Swift, free of OpenSSL and testable with a
/// double; `OpenSSLCertificateVerifier` in `CourierSecurityOpenSSL` is the real implementation, and
/// ``PinnedCertificateLoader`` reads certificate files through the same seam.
///
/// - Important: Setting ``pinnedCertificates`` reads every certificate's public key at once, as
///   AFNetworking's setter does, so that ``evaluate(_:)``, which runs inside the handshake, only
///   compares digests. A certificate whose key cannot be read stays pinned as bytes (certificate mode
///   can still match it) and adds no key, silently as in AFNetworking; compare
///   ``pinnedCertificates`` with ``pinnedPublicKeys`` to notice.
public struct SecurityPolicy: ServerTrustEvaluating {
    /// What is pinned; ``PinningMode/none`` by default.
    public var pinningMode: PinningMode

    /// Whether a chain the transport's CA store does not trust (self-signed, private CA, expired) may
    /// be accepted; false by default.
    ///
    /// With ``PinningMode/none`` it accepts any certificate. With a pinning mode it only lifts the
    /// CA-store requirement: the pin must still match.
    public var allowInvalidCertificates: Bool

    /// Whether the leaf must name the host the transport connected to; true by default.
    public var validatesDomainName: Bool

    /// Reproduces AFNetworking's public-key pinning exactly, security hole included; false by default.
    ///
    /// In AFNetworking, ``PinningMode/publicKey`` with ``allowInvalidCertificates`` accepts any chain
    /// that contains a pinned key, with no host name, date or signature check: a certificate for
    /// another name, long expired, or merely carrying a copy of the public key, passes. By default
    /// Courier then also verifies the presented chain with the certificate that carries the pinned key
    /// as its only anchor (dates, signatures up to that certificate, purpose) and, while
    /// ``validatesDomainName`` is set, the host name. Set this only to port an app whose servers rely
    /// on the hole.
    ///
    /// ```swift
    /// var legacy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: pinned, verifier: verifier)
    /// legacy.allowInvalidCertificates = true
    /// legacy.unsafeAFNetworkingPublicKeyPinning = true  // no host or validity check, as AFNetworking
    /// ```
    public var unsafeAFNetworkingPublicKeyPinning: Bool

    /// The pinned certificates, compared by DER bytes; setting them derives ``pinnedPublicKeys``.
    ///
    /// An empty set clears both, as setting AFNetworking's `pinnedCertificates` to nil does.
    public var pinnedCertificates: Set<Certificate> {
        didSet { pinnedPublicKeys = Self.publicKeys(of: pinnedCertificates, using: verifier) }
    }

    /// The public keys of ``pinnedCertificates`` that could be read, as SHA-256 pins.
    public private(set) var pinnedPublicKeys: Set<PublicKeyPin>

    /// Reads public keys and verifies chains against the pinned certificates.
    public let verifier: any CertificateVerifying

    /// Creates a policy; AFNetworking's `policyWithPinningMode:withPinnedCertificates:`.
    ///
    /// ```swift
    /// let policy = SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: [leaf, backup], verifier: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - pinningMode: What is pinned.
    ///   - pinnedCertificates: The pinned certificates; their public keys are read now.
    ///   - verifier: Reads keys now, and verifies chains against the pinned certificates later.
    public init(
        pinningMode: PinningMode,
        pinnedCertificates: some Sequence<Certificate> = [],
        verifier: any CertificateVerifying
    ) {
        let certificates = Set(pinnedCertificates)
        self.pinningMode = pinningMode
        self.allowInvalidCertificates = false
        self.validatesDomainName = true
        self.unsafeAFNetworkingPublicKeyPinning = false
        self.verifier = verifier
        self.pinnedCertificates = certificates
        self.pinnedPublicKeys = Self.publicKeys(of: certificates, using: verifier)
    }

    /// Creates a policy that pins every certificate file in a directory; the analogue of
    /// AFNetworking's `policyWithPinningMode:`, which pins every `.cer` of the main bundle.
    ///
    /// Files are read as ``PinnedCertificateLoader/certificates(inDirectory:using:)`` reads them;
    /// files it skips are dropped here, so call the loader directly to report them.
    ///
    /// ```swift
    /// let policy = try SecurityPolicy(pinningMode: .certificate, certificatesInDirectory: "/etc/myapp/pins", verifier: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - pinningMode: What is pinned.
    ///   - directory: A directory with `.cer`, `.crt`, `.pem` or `.der` files, read at the top level.
    ///   - verifier: Decodes PEM files and reads keys.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/unreadableFile`` when the directory
    ///   cannot be listed.
    public init(
        pinningMode: PinningMode,
        certificatesInDirectory directory: String,
        verifier: any CertificateVerifying
    ) throws(SecurityError) {
        let contents = try PinnedCertificateLoader.certificates(inDirectory: directory, using: verifier)
        self.init(pinningMode: pinningMode, pinnedCertificates: contents.certificates, verifier: verifier)
    }

    /// AFNetworking's `defaultPolicy`: no pinning, invalid certificates not allowed, domain name
    /// validated, nothing pinned; it trusts what the transport's CA store trusts, for the right host.
    ///
    /// ```swift
    /// let policy = SecurityPolicy.defaultPolicy(verifier: OpenSSLCertificateVerifier())
    /// ```
    ///
    /// - Parameter verifier: Reads keys if certificates are pinned later.
    /// - Returns: The default policy.
    public static func defaultPolicy(verifier: any CertificateVerifying) -> SecurityPolicy {
        SecurityPolicy(pinningMode: .none, verifier: verifier)
    }

    private static func publicKeys(
        of certificates: Set<Certificate>,
        using verifier: any CertificateVerifying
    ) -> Set<PublicKeyPin> {
        Set(certificates.compactMap { try? PublicKeyPin(certificate: $0, using: verifier) })
    }
}
