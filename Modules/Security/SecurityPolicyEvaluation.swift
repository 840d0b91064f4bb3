extension SecurityPolicy {
    /// AFNetworking's reason for refusing a domain check on an unpinned, allow-invalid policy.
    public static let selfSignedDomainWithoutPinningReason =
        "In order to validate a domain name for self signed certificates, you MUST use pinning."

    /// Decides whether to trust a server, in the order of
    /// `-[AFSecurityPolicy evaluateServerTrust:forDomain:]`, with ``ServerTrust/host`` as the domain.
    ///
    /// 1. A host is given, invalid certificates are allowed, the domain name is validated, and the
    ///    mode is ``PinningMode/none`` or nothing is pinned: reject with
    ///    ``selfSignedDomainWithoutPinningReason`` (a domain check on a certificate nobody vouches for
    ///    proves nothing).
    /// 2. "Valid" means the transport's default verdict: ``ServerTrust/chainVerdict`` trusted and,
    ///    while ``validatesDomainName`` is set, ``ServerTrust/hostVerdict`` not a mismatch.
    /// 3. ``PinningMode/none``: accept if invalid certificates are allowed or the trust is valid.
    /// 4. A pinning mode with invalid certificates not allowed: reject a trust that is not valid.
    /// 5. ``PinningMode/certificate``: verify the presented chain with the pinned certificates as the
    ///    only anchors, and the host while ``validatesDomainName`` is set, dates always (so a pinned
    ///    self-signed certificate for another name fails even with invalid certificates allowed).
    ///    A chain that verifies ends at a pinned certificate, which is AFNetworking's closing walk over
    ///    the evaluated chain.
    /// 6. ``PinningMode/publicKey``: accept if a certificate of the presented or the verified chain
    ///    has a pinned key. With invalid certificates allowed, AFNetworking checks nothing else; Courier
    ///    then verifies the presented chain with the key's certificate as the only anchor, and the host
    ///    while ``validatesDomainName`` is set, unless ``unsafeAFNetworkingPublicKeyPinning`` is set.
    ///
    /// It is a pure function of the policy and `trust`: it calls only `trust`'s verdicts and the
    /// policy's ``verifier``, never the network or a clock other than the verifier's.
    ///
    /// ```swift
    /// let decision = policy.evaluate(trust)
    /// if case .reject(let reason) = decision { print(reason) }
    /// ```
    ///
    /// - Parameter trust: The presented chain, the transport's verdicts and the host.
    /// - Returns: The decision, with the failed step as the reason.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        if trust.host != nil, allowInvalidCertificates, validatesDomainName,
            pinningMode == .none || pinnedCertificates.isEmpty
        {
            return .reject(reason: Self.selfSignedDomainWithoutPinningReason)
        }
        let validity = defaultValidity(of: trust)
        if pinningMode == .none {
            return allowInvalidCertificates ? .accept : validity
        }
        if !allowInvalidCertificates, !validity.isAccepted {
            return validity
        }
        switch pinningMode {
        case .none:
            return validity
        case .certificate:
            return evaluateCertificatePins(trust)
        case .publicKey:
            return evaluatePublicKeyPins(trust)
        }
    }

    private func hostToCheck(_ trust: ServerTrust) -> String? {
        validatesDomainName ? trust.host : nil
    }

    private func defaultValidity(of trust: ServerTrust) -> TrustDecision {
        // AFNetworking's "valid" under the step-2 policy is exactly the platform default evaluation.
        DefaultTrustEvaluator(validatesHost: validatesDomainName).evaluate(trust)
    }

    private func evaluateCertificatePins(_ trust: ServerTrust) -> TrustDecision {
        do {
            try verifier.verify(
                trust.certificates,
                anchors: Array(pinnedCertificates),
                host: hostToCheck(trust),
                at: nil
            )
            return .accept
        } catch {
            return .reject(reason: "certificate chain does not verify against the pinned certificates: \(error.reason)")
        }
    }

    private func evaluatePublicKeyPins(_ trust: ServerTrust) -> TrustDecision {
        // The verified chain repeats presented certificates; each key is read once, as a read parses.
        let unseen = trust.verifiedChain.filter { !trust.certificates.contains($0) }
        let carrier = (trust.certificates + unseen).first { certificate in
            // As in AFNetworking, a chain certificate whose key cannot be read is skipped, not fatal.
            guard let pin = try? PublicKeyPin(certificate: certificate, using: verifier) else { return false }
            return pinnedPublicKeys.contains(pin)
        }
        guard let carrier else {
            return .reject(reason: "no certificate in the chain has a pinned public key")
        }
        if !allowInvalidCertificates || unsafeAFNetworkingPublicKeyPinning {
            // Step 4 already required a valid trust, or the caller asked for AFNetworking's hole.
            return .accept
        }
        do {
            try verifier.verify(trust.certificates, anchors: [carrier], host: hostToCheck(trust), at: nil)
            return .accept
        } catch {
            return .reject(
                reason: "certificate chain does not verify up to the certificate with the pinned key: \(error.reason)"
            )
        }
    }
}
