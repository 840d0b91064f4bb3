internal import CCourierOpenSSLShim
internal import CourierLocking
internal import CourierSecurity
internal import FoundationEssentials

/// What one ``OpenSSLTrustHook/install(on:host:onDecision:)`` hands to the C callbacks.
///
/// The callbacks may run on whichever thread does a handshake. The C side holds one retained
/// reference and releases it when OpenSSL frees the `SSL_CTX`.
final class TrustHookInstallation: Sendable {
    let evaluator: any ServerTrustEvaluating
    let verifier: OpenSSLCertificateVerifier
    let revocation: RevocationPolicy
    let onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)?
    /// The trust of the latest verification, for reporting a stapled-OCSP rejection, which OpenSSL
    /// asks about after the verify callback. libcurl makes one `SSL_CTX` per connection, so this is
    /// that connection's trust.
    private let latestTrust = Lock<ServerTrust?>(nil)

    init(
        evaluator: any ServerTrustEvaluating,
        verifier: OpenSSLCertificateVerifier,
        revocation: RevocationPolicy,
        onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)?
    ) {
        self.evaluator = evaluator
        self.verifier = verifier
        self.revocation = revocation
        self.onDecision = onDecision
    }

    /// Builds the trust from the callback's input (copying the DER bytes, which die with the
    /// callback) and asks the evaluator, unless a CRL already settled it. True accepts.
    func decide(_ input: courier_verify_input) -> Bool {
        let chainVerdict: ChainVerdict =
            input.chain_ok == 1
            ? .trusted
            : .untrusted(
                reason: input.chain_error_text.map { String(cString: $0) } ?? "error \(input.chain_error)",
                code: Int(input.chain_error)
            )
        let hostVerdict: HostVerdict
        switch Int(input.host_state) {
        case COURIER_HOST_MATCHES: hostVerdict = .matches
        case COURIER_HOST_MISMATCH: hostVerdict = .mismatch
        default: hostVerdict = .notChecked
        }
        var trust = ServerTrust(
            host: input.host.map { String(cString: $0) },
            certificates: Self.certificates(input.presented),
            verifiedChain: Self.certificates(input.verified),
            chainVerdict: chainVerdict,
            hostVerdict: hostVerdict,
            verifier: verifier
        )
        let decision: TrustDecision
        if let failure = Self.crlFailure(input) {
            trust.revocationFailure = failure
            decision = .reject(reason: failure.reason)
        } else {
            decision = evaluator.evaluate(trust)
        }
        latestTrust.withLock { $0 = trust }
        onDecision?(trust, decision)
        return decision.isAccepted
    }

    /// Applies ``RevocationPolicy/ocspStapling`` to what the status callback found. True accepts.
    func decideStatus(_ input: courier_status_input) -> Bool {
        let detail = input.text.map { String(cString: $0) } ?? ""
        let failure: SecurityError
        switch Int(input.state) {
        case COURIER_REVOCATION_GOOD:
            return true
        case COURIER_REVOCATION_NO_STAPLE:
            guard revocation.ocspStapling == .required else { return true }
            failure = SecurityError(
                .revocationUnknown,
                reason: "revocation unknown (OCSP stapling): the server stapled no OCSP response and one is required"
            )
        case COURIER_REVOCATION_REVOKED:
            failure = SecurityError(
                .certificateRevoked,
                reason: "certificate revoked (stapled OCSP response, \(detail))"
            )
        default:
            failure = SecurityError(.revocationUnknown, reason: "revocation unknown (OCSP stapling): \(detail)")
        }
        if let onDecision, var trust = latestTrust.withLock({ $0 }) {
            trust.revocationFailure = failure
            onDecision(trust, .reject(reason: failure.reason))
        }
        return false
    }

    /// The rejection the CRLs call for, if any.
    private static func crlFailure(_ input: courier_verify_input) -> SecurityError? {
        let subject = input.crl_subject.map { String(cString: $0) } ?? ""
        let text = input.chain_error_text.map { String(cString: $0) } ?? "error \(input.chain_error)"
        switch Int(input.crl_state) {
        case COURIER_REVOCATION_REVOKED:
            return SecurityError(
                .certificateRevoked,
                reason: "certificate revoked (CRL): \(subject)",
                libraryCode: Int(input.chain_error)
            )
        case COURIER_REVOCATION_UNKNOWN:
            return SecurityError(
                .revocationUnknown,
                reason: "revocation unknown (CRL): \(text) for \(subject)",
                libraryCode: Int(input.chain_error)
            )
        default:
            return nil
        }
    }

    private static func certificates(_ chain: courier_der_chain) -> [Certificate] {
        guard let ders = chain.ders, let lengths = chain.lengths else { return [] }
        return (0..<chain.count).compactMap { index in
            guard let der = ders[index] else { return nil }
            return Certificate(derBytes: Data(bytes: der, count: lengths[index]))
        }
    }
}
