/// Whether a certificate chain verified against a set of trust anchors, and if not, why.
///
/// In a ``ServerTrust`` this is the transport's default verdict: the chain checked against the
/// transport's CA store (CA file or directory) with dates and purpose, but without the host name,
/// which ``HostVerdict`` reports separately so that a policy can skip it.
///
/// ```swift
/// if case .untrusted(let reason, let code) = trust.chainVerdict {
///     log("chain rejected: \(reason) (\(code))")
/// }
/// ```
public enum ChainVerdict: Hashable, Sendable, CustomStringConvertible {
    /// The chain builds to a trusted anchor and every certificate in it is valid.
    case trusted
    /// The chain did not verify.
    ///
    /// - Parameters:
    ///   - reason: The verifier's explanation (OpenSSL's text, such as
    ///     `"unable to get local issuer certificate"`).
    ///   - code: The verifier's numeric error (OpenSSL's `X509_V_ERR_*` value).
    case untrusted(reason: String, code: Int)

    /// Whether the verdict is ``trusted``.
    public var isTrusted: Bool { self == .trusted }

    /// `"trusted"` or `"untrusted: certificate has expired (code 10)"`.
    public var description: String {
        switch self {
        case .trusted: "trusted"
        case .untrusted(let reason, let code): "untrusted: \(reason) (code \(code))"
        }
    }
}
