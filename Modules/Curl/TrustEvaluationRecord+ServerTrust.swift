internal import CourierSecurity
internal import CourierTransport

extension TrustEvaluationRecord {
    /// Summarises what the evaluator saw; runs inside the handshake, once per new connection and only
    /// while a policy is installed, so reading the presented certificates' names costs one parse each.
    init(_ trust: ServerTrust, _ decision: TrustDecision) {
        let chain = trust.certificates.map { certificate in
            do {
                let info = try trust.verifier.info(of: certificate)
                return CertificateSummary(
                    subject: info.subjectCommonName,
                    issuer: info.issuerCommonName,
                    notAfter: info.notAfter
                )
            } catch {
                // The evaluator saw the same unreadable bytes and decided on them; the summary
                // says "could not be read" with nil fields, as its documentation promises.
                return CertificateSummary(subject: nil, issuer: nil, notAfter: nil)
            }
        }
        let recorded: Decision =
            switch decision {
            case .accept: .accept
            case .reject(let reason): .reject(reason: reason)
            }
        self.init(
            host: trust.host,
            chain: chain,
            defaultVerdict: "chain \(trust.chainVerdict); host \(trust.hostVerdict)",
            decision: recorded
        )
    }
}
