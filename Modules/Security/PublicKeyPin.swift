public import FoundationEssentials

/// A pinned public key: the SHA-256 digest of a SubjectPublicKeyInfo DER.
///
/// The text form `sha256//<base64>` is libcurl's `CURLOPT_PINNEDPUBLICKEY` and HPKP's notation, so
/// pins computed with
/// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`
/// can be pasted as they are.
///
/// ```swift
/// let pin = try PublicKeyPin("sha256//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI=")
/// let fromCertificate = try PublicKeyPin(certificate: backup, using: OpenSSLCertificateVerifier())
/// ```
public struct PublicKeyPin: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte SHA-256 digest of the SubjectPublicKeyInfo DER.
    public let sha256Digest: Data

    /// Creates a pin from a digest.
    ///
    /// ```swift
    /// let pin = try PublicKeyPin(sha256Digest: digest)
    /// ```
    ///
    /// - Parameter sha256Digest: The SHA-256 digest of a SubjectPublicKeyInfo DER.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidPin`` unless it is 32 bytes.
    public init(sha256Digest: Data) throws(SecurityError) {
        guard sha256Digest.count == 32 else {
            throw SecurityError(.invalidPin, reason: "a SHA-256 pin has 32 bytes, not \(sha256Digest.count)")
        }
        self.sha256Digest = sha256Digest
    }

    /// Parses a `sha256//<base64>` pin.
    ///
    /// ```swift
    /// let pin = try PublicKeyPin("sha256//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI=")
    /// ```
    ///
    /// - Parameter text: The pin text.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidPin`` for another prefix,
    ///   invalid base64 or a digest that is not 32 bytes.
    public init(_ text: String) throws(SecurityError) {
        let prefix = "sha256//"
        guard text.hasPrefix(prefix) else {
            throw SecurityError(.invalidPin, reason: "a public-key pin starts with \"sha256//\": \(text)")
        }
        guard let digest = Data(base64Encoded: String(text.dropFirst(prefix.count))) else {
            throw SecurityError(.invalidPin, reason: "a public-key pin's digest is not base64: \(text)")
        }
        try self.init(sha256Digest: digest)
    }

    /// Pins a SubjectPublicKeyInfo DER.
    ///
    /// ```swift
    /// let pin = PublicKeyPin(subjectPublicKeyInfo: spki, using: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - subjectPublicKeyInfo: The SubjectPublicKeyInfo DER.
    ///   - verifier: Computes the digest.
    public init(subjectPublicKeyInfo: Data, using verifier: any CertificateVerifying) {
        // The verifier returns a 32-byte SHA-256 digest by contract; no check keeps this non-throwing.
        self.sha256Digest = verifier.sha256(subjectPublicKeyInfo)
    }

    /// Pins a certificate's public key.
    ///
    /// ```swift
    /// let pin = try PublicKeyPin(certificate: leaf, using: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - certificate: The certificate whose key is pinned.
    ///   - verifier: Extracts the key and computes the digest.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidCertificate``.
    public init(certificate: Certificate, using verifier: any CertificateVerifying) throws(SecurityError) {
        self.init(subjectPublicKeyInfo: try verifier.subjectPublicKeyInfo(of: certificate), using: verifier)
    }

    /// `"sha256//<base64>"`.
    public var description: String { "sha256//" + sha256Digest.base64EncodedString() }
}
