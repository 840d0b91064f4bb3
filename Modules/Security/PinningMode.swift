/// What a ``SecurityPolicy`` pins: nothing, the public keys of its pinned certificates, or the
/// certificates themselves. AFNetworking's `AFSSLPinningMode`, with the same raw values.
///
/// ```swift
/// var policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: pinned, verifier: verifier)
/// policy.pinningMode = .publicKey  // survives a re-issued certificate with the same key
/// ```
public enum PinningMode: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No pinning: the chain is checked against the transport's CA store (`AFSSLPinningModeNone`).
    case none = 0
    /// The server's chain must contain a certificate whose public key is pinned
    /// (`AFSSLPinningModePublicKey`).
    case publicKey = 1
    /// The server's chain must verify with the pinned certificates as its only anchors
    /// (`AFSSLPinningModeCertificate`).
    case certificate = 2

    /// `"none"`, `"publicKey"` or `"certificate"`.
    public var description: String {
        switch self {
        case .none: "none"
        case .publicKey: "publicKey"
        case .certificate: "certificate"
        }
    }
}
