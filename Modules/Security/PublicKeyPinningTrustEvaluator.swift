/// Trusts a server when a certificate of its chain carries a pinned public key: the building block of
/// AFNetworking's public-key pinning mode (`AFSSLPinningModePublicKey`).
///
/// Keys are looked for in the presented chain and in the chain the default verification built (which
/// holds the root even when the server does not send it), so a pin on a CA key works.
///
/// AFNetworking performs no host check in this mode when invalid certificates are allowed; here
/// ``validatesHost`` is honoured on its own, whatever ``requiresDefaultTrust`` says, so turning off
/// chain trust never silently turns off host matching.
///
/// ```swift
/// let evaluator = try PublicKeyPinningTrustEvaluator(pins: [
///     PublicKeyPin("sha256//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI="),
///     PublicKeyPin("sha256//backupKeyPinBase64AAAAAAAAAAAAAAAAAAAAAAAAA="),
/// ])
/// ```
public struct PublicKeyPinningTrustEvaluator: ServerTrustEvaluating {
    /// The pinned keys; one match is enough.
    public let pins: Set<PublicKeyPin>
    /// Whether the leaf must name the host.
    public let validatesHost: Bool
    /// Whether the transport's default chain verdict must be trusted too (AFNetworking's pinning with
    /// invalid certificates not allowed); false accepts self-signed and private-CA servers.
    public let requiresDefaultTrust: Bool

    /// Creates the evaluator.
    ///
    /// ```swift
    /// let evaluator = PublicKeyPinningTrustEvaluator(pins: [pin], requiresDefaultTrust: false)
    /// ```
    ///
    /// - Parameters:
    ///   - pins: The pinned keys; with none, every server is rejected.
    ///   - validatesHost: Whether the leaf must name the host; true by default.
    ///   - requiresDefaultTrust: Whether the default chain verdict must be trusted; true by default.
    public init(pins: some Sequence<PublicKeyPin>, validatesHost: Bool = true, requiresDefaultTrust: Bool = true) {
        self.pins = Set(pins)
        self.validatesHost = validatesHost
        self.requiresDefaultTrust = requiresDefaultTrust
    }

    /// Accepts when the checks pass and a chain certificate's key is pinned.
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The decision, with the failed check as the reason.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        if pins.isEmpty {
            return .reject(reason: "no pinned public keys")
        }
        if requiresDefaultTrust, !trust.chainVerdict.isTrusted {
            return .reject(reason: TrustRejection.untrustedChain(trust.chainVerdict))
        }
        if validatesHost, !trust.hostIsAcceptable {
            return .reject(reason: TrustRejection.hostMismatch(trust))
        }
        // The verified chain repeats the presented certificates it used; each key is read once, as
        // reading one costs a certificate parse.
        let unseen = trust.verifiedChain.filter { !trust.certificates.contains($0) }
        for certificate in trust.certificates + unseen {
            // Like AFNetworking, a certificate whose key cannot be read is skipped, not fatal.
            guard let pin = try? PublicKeyPin(certificate: certificate, using: trust.verifier) else { continue }
            if pins.contains(pin) { return .accept }
        }
        return .reject(reason: "no certificate in the chain has a pinned public key")
    }
}
