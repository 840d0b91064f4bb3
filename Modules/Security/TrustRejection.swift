/// Rejection texts shared by the evaluators, so that the same failure reads the same everywhere.
enum TrustRejection {
    static func hostMismatch(_ trust: ServerTrust) -> String {
        "certificate is not valid for host \(trust.host ?? "(none)")"
    }

    static func untrustedChain(_ verdict: ChainVerdict) -> String {
        switch verdict {
        case .trusted: "certificate chain is trusted"
        case .untrusted(let reason, let code): "certificate chain is not trusted: \(reason) (code \(code))"
        }
    }
}
