internal import CCourierOpenSSLShim
internal import CourierSecurity
internal import FoundationEssentials

/// What one ``OpenSSLTrustHook/install(on:host:onDecision:)`` hands to the C verify callback.
///
/// Immutable, so the callback may run on whichever thread does a handshake. The C side holds one
/// retained reference and releases it when OpenSSL frees the `SSL_CTX`.
final class TrustHookInstallation: Sendable {
    let evaluator: any ServerTrustEvaluating
    let verifier: OpenSSLCertificateVerifier
    let onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)?

    init(
        evaluator: any ServerTrustEvaluating,
        verifier: OpenSSLCertificateVerifier,
        onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)?
    ) {
        self.evaluator = evaluator
        self.verifier = verifier
        self.onDecision = onDecision
    }

    /// Builds the trust from the callback's input (copying the DER bytes, which die with the
    /// callback) and asks the evaluator. True accepts.
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
        let trust = ServerTrust(
            host: input.host.map { String(cString: $0) },
            certificates: Self.certificates(input.presented),
            verifiedChain: Self.certificates(input.verified),
            chainVerdict: chainVerdict,
            hostVerdict: hostVerdict,
            verifier: verifier
        )
        let decision = evaluator.evaluate(trust)
        onDecision?(trust, decision)
        return decision.isAccepted
    }

    private static func certificates(_ chain: courier_der_chain) -> [Certificate] {
        guard let ders = chain.ders, let lengths = chain.lengths else { return [] }
        return (0..<chain.count).compactMap { index in
            guard let der = ders[index] else { return nil }
            return Certificate(derBytes: Data(bytes: der, count: lengths[index]))
        }
    }
}
