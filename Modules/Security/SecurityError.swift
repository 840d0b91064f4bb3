/// A typed failure of a certificate operation or of installing a trust hook.
///
/// ``code`` is what callers act on; ``reason`` keeps the library's own words, and ``libraryCode`` its
/// numeric error (OpenSSL's `X509_V_ERR_*` for verification failures).
///
/// ```swift
/// do {
///     try verifier.verify(chain, anchors: pinned, host: "api.test")
/// } catch where error.code == .verificationFailed {
///     print(error.reason)  // "hostname mismatch"
/// }
/// ```
public struct SecurityError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Bytes that were expected to be a DER certificate are not one.
        public static let invalidCertificate = Code("invalidCertificate")
        /// PEM text holds no certificate, or a certificate block is truncated or corrupt.
        public static let invalidPEM = Code("invalidPEM")
        /// A chain did not verify against the anchors (issuer, dates, purpose or host name).
        public static let verificationFailed = Code("verificationFailed")
        /// A public-key pin is not of the form `sha256//<base64 of 32 bytes>`.
        public static let invalidPin = Code("invalidPin")
        /// A trust hook could not be installed on a TLS context.
        public static let installationFailed = Code("installationFailed")
        /// A certificate file or directory could not be read.
        public static let unreadableFile = Code("unreadableFile")
        /// A ``ServerTrustManager`` that requires every host to be evaluated has no evaluator for a host
        /// (Alamofire's `noRequiredEvaluator`).
        public static let noRequiredEvaluator = Code("noRequiredEvaluator")
        /// A ``ServerTrustManager`` host key is neither a host nor a `*.` wildcard over a domain.
        public static let invalidHostPattern = Code("invalidHostPattern")
        /// A private key could not be read (not a key, or a format not understood).
        public static let invalidPrivateKey = Code("invalidPrivateKey")
        /// An encrypted key or PKCS#12 bundle did not open with the passphrase given (or none was).
        public static let wrongPassphrase = Code("wrongPassphrase")
        /// A private key does not belong to the certificate it was given with.
        public static let keyDoesNotMatchCertificate = Code("keyDoesNotMatchCertificate")
        /// A client certificate is past its validity period.
        public static let certificateExpired = Code("certificateExpired")
        /// A client certificate's validity period has not begun.
        public static let certificateNotYetValid = Code("certificateNotYetValid")
        /// A PKCS#12 bundle could not be read, or holds no certificate or key.
        public static let invalidPKCS12 = Code("invalidPKCS12")
        /// The server's certificate, or one of its issuers, is revoked: a CRL lists it or its stapled
        /// OCSP response says so (the reason names which).
        public static let certificateRevoked = Code("certificateRevoked")
        /// A revocation check that was asked for could not be made: no staple where one is required,
        /// a staple or CRL that is out of date, unverifiable or not about the certificate.
        public static let revocationUnknown = Code("revocationUnknown")
        /// Data that was expected to hold certificate revocation lists holds none, or a corrupt one.
        public static let invalidCRL = Code("invalidCRL")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, in the library's words where it gave any.
    public let reason: String
    /// The library's numeric error, when there is one.
    public let libraryCode: Int?

    /// Creates an error.
    ///
    /// ```swift
    /// throw SecurityError(.verificationFailed, reason: "hostname mismatch", libraryCode: 62)
    /// ```
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - reason: What went wrong.
    ///   - libraryCode: The library's numeric error.
    public init(_ code: Code, reason: String, libraryCode: Int? = nil) {
        self.code = code
        self.reason = reason
        self.libraryCode = libraryCode
    }

    /// `"verificationFailed (code 62): hostname mismatch"`.
    public var description: String {
        var text = "\(code)"
        if let libraryCode { text += " (code \(libraryCode))" }
        return text + ": \(reason)"
    }
}
