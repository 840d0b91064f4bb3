public import FoundationEssentials

/// Certificate operations a trust policy needs, implemented by a crypto library.
///
/// `CourierSecurityOpenSSL` implements it on OpenSSL; tests use a double. Every method is
/// synchronous, non-blocking and cheap enough to call from ``ServerTrustEvaluating/evaluate(_:)``,
/// which runs inside a TLS handshake.
///
/// ```swift
/// let verifier: any CertificateVerifying = OpenSSLCertificateVerifier()
/// let pinned = try verifier.certificates(fromPEM: pemText)
/// try verifier.verify(trust.certificates, anchors: pinned, host: "api.test")
/// let pin = try verifier.publicKeyPin(of: pinned[0])  // "sha256//..."
/// ```
public protocol CertificateVerifying: Sendable {
    /// Verifies a chain against the given anchors only, ignoring every system trust store.
    ///
    /// This is the analogue of `SecTrustSetAnchorCertificates` followed by `SecTrustEvaluate`, which
    /// AFNetworking's certificate pinning uses. Any anchor may end the chain, CA or not (a partial
    /// chain): pinning the intermediate or the leaf itself succeeds. Dates are checked at `time`, and
    /// the leaf must be fit for TLS server authentication.
    ///
    /// ```swift
    /// try verifier.verify([leaf, intermediate], anchors: [root], host: "api.test")
    /// ```
    ///
    /// - Parameters:
    ///   - chain: The certificates to verify, leaf first; the rest may help build the path.
    ///   - anchors: The only trusted certificates.
    ///   - host: A DNS name or IP literal the leaf must be valid for, or nil to skip the host check.
    ///   - time: The moment at which dates are checked; nil means now.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/verificationFailed`` and the
    ///   library's reason and code, or ``SecurityError/Code/invalidCertificate`` for bytes that are not
    ///   a certificate.
    func verify(
        _ chain: [Certificate],
        anchors: [Certificate],
        host: String?,
        at time: Date?
    ) throws(SecurityError)

    /// The certificate's SubjectPublicKeyInfo in DER: the public key as pinned by public-key pinning.
    ///
    /// ```swift
    /// let key = try verifier.subjectPublicKeyInfo(of: leaf)
    /// ```
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: The DER bytes, as `openssl x509 -pubkey | openssl pkey -pubin -outform der` prints them.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidCertificate``.
    func subjectPublicKeyInfo(of certificate: Certificate) throws(SecurityError) -> Data

    /// The SHA-256 digest of some bytes, for `sha256//<base64>` public-key pins.
    ///
    /// ```swift
    /// let digest = verifier.sha256(try verifier.subjectPublicKeyInfo(of: leaf))
    /// ```
    ///
    /// - Parameter data: The bytes to digest.
    /// - Returns: The 32-byte digest.
    func sha256(_ data: Data) -> Data

    /// The certificates in a PEM text, in order; blocks of other types (keys, for example) are skipped.
    ///
    /// ```swift
    /// let bundle = try verifier.certificates(fromPEM: Data(pemText.utf8))
    /// ```
    ///
    /// - Parameter pem: PEM text with one or more `CERTIFICATE` blocks.
    /// - Returns: The certificates as DER, at least one.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidPEM`` when there is no
    ///   certificate, or a block is truncated or corrupt.
    func certificates(fromPEM pem: Data) throws(SecurityError) -> [Certificate]

    /// Names and dates of a certificate, for error messages and logs.
    ///
    /// ```swift
    /// let info = try verifier.info(of: leaf)
    /// print(info.subjectCommonName ?? "-", info.notAfter)
    /// ```
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: Its subject and issuer common names, validity and subject alternative names.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidCertificate``.
    func info(of certificate: Certificate) throws(SecurityError) -> CertificateInfo
}

extension CertificateVerifying {
    /// Verifies a chain against the given anchors only, with dates checked now.
    ///
    /// ```swift
    /// try verifier.verify(trust.certificates, anchors: pinned, host: trust.host)
    /// ```
    ///
    /// - Parameters:
    ///   - chain: The certificates to verify, leaf first.
    ///   - anchors: The only trusted certificates.
    ///   - host: A DNS name or IP literal the leaf must be valid for, or nil.
    /// - Throws: ``SecurityError``, as ``verify(_:anchors:host:at:)``.
    public func verify(_ chain: [Certificate], anchors: [Certificate], host: String?) throws(SecurityError) {
        try verify(chain, anchors: anchors, host: host, at: nil)
    }

    /// The `sha256//<base64>` pin of a certificate's public key, as libcurl's `CURLOPT_PINNEDPUBLICKEY`
    /// and HTTP Public Key Pinning write it.
    ///
    /// ```swift
    /// let pin = try verifier.publicKeyPin(of: leaf)  // "sha256//d3rc9cJBMd...="
    /// ```
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: `"sha256//"` followed by the base64 SHA-256 of the SubjectPublicKeyInfo DER.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidCertificate``.
    public func publicKeyPin(of certificate: Certificate) throws(SecurityError) -> String {
        "sha256//" + sha256(try subjectPublicKeyInfo(of: certificate)).base64EncodedString()
    }

    /// The certificates in a PEM text.
    ///
    /// ```swift
    /// let anchors = try verifier.certificates(fromPEM: pemText)
    /// ```
    ///
    /// - Parameter pem: PEM text with one or more `CERTIFICATE` blocks.
    /// - Returns: The certificates, at least one.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidPEM``.
    public func certificates(fromPEM pem: String) throws(SecurityError) -> [Certificate] {
        try certificates(fromPEM: Data(pem.utf8))
    }
}
