/// Trusts a server whose chain verifies with the pinned certificates as the only anchors: the
/// building block of AFNetworking's certificate pinning mode (`AFSSLPinningModeCertificate`).
///
/// AFNetworking replaces the trust's anchors with the pinned certificates
/// (`SecTrustSetAnchorCertificates`), re-evaluates, and then requires a pinned certificate in the
/// evaluated chain. Here the re-evaluation uses ``CertificateVerifying/verify(_:anchors:host:at:)``
/// with partial chains allowed, so success already means the chain ends at a pinned certificate: a
/// pinned root, intermediate or leaf (self-signed or not) all work. As in AFNetworking, the
/// re-evaluation applies the host check too, so a pinned certificate for another name fails while
/// ``validatesHost`` is on.
///
/// ```swift
/// let pinned = try OpenSSLCertificateVerifier().certificates(fromPEM: caPEM)
/// let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: pinned)
/// ```
public struct PinnedCertificatesTrustEvaluator: ServerTrustEvaluating {
    /// The certificates trusted as anchors; nothing else is.
    public let pinnedCertificates: [Certificate]
    /// Whether the leaf must name the host.
    public let validatesHost: Bool
    /// Whether the chain must also be trusted by the transport's CA store (AFNetworking's pinning
    /// with invalid certificates not allowed); false accepts self-signed and private-CA servers.
    public let requiresDefaultTrust: Bool

    /// Creates the evaluator.
    ///
    /// ```swift
    /// let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: [selfSigned], validatesHost: false)
    /// ```
    ///
    /// - Parameters:
    ///   - pinnedCertificates: The only trusted anchors; with none, every server is rejected.
    ///   - validatesHost: Whether the leaf must name the host; true by default.
    ///   - requiresDefaultTrust: Whether the transport's default chain verdict must be trusted too.
    public init(pinnedCertificates: [Certificate], validatesHost: Bool = true, requiresDefaultTrust: Bool = false) {
        self.pinnedCertificates = pinnedCertificates
        self.validatesHost = validatesHost
        self.requiresDefaultTrust = requiresDefaultTrust
    }

    /// Accepts when the presented chain verifies against the pinned certificates alone.
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The decision, with the failed check as the reason.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        if pinnedCertificates.isEmpty {
            return .reject(reason: "no pinned certificates")
        }
        if requiresDefaultTrust, !trust.chainVerdict.isTrusted {
            return .reject(reason: TrustRejection.untrustedChain(trust.chainVerdict))
        }
        do {
            try trust.verifier.verify(
                trust.certificates,
                anchors: pinnedCertificates,
                host: validatesHost ? trust.host : nil,
                at: nil
            )
            return .accept
        } catch {
            return .reject(reason: "certificate chain does not verify against the pinned certificates: \(error.reason)")
        }
    }
}
