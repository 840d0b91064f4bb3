internal import CCourierCurlShim
public import FoundationEssentials

/// What a server-trust evaluator is asked during a TLS handshake, before any request byte is sent.
///
/// The transport's OpenSSL verify callback builds it on every new TLS connection (resumed sessions
/// are disabled while an evaluator is set, so none skips the check).
///
/// ```swift
/// configuration.serverTrustEvaluator = { challenge in
///     challenge.chainVerified && challenge.certificateChain.first == pinnedLeafDER
/// }
/// ```
public struct CurlServerTrustChallenge: Sendable {
    /// The host name (or IP literal) of the request URL: what the certificate must name.
    public let host: String
    /// The certificates as DER, leaf first: the verified chain up to the trust anchor when
    /// ``chainVerified``, else the chain the server sent.
    public let certificateChain: [Data]
    /// Whether OpenSSL verified the chain against the configured CA file and directory (and the host
    /// name, when `tls.verifiesHost` is set).
    public let chainVerified: Bool

    /// Creates a challenge; the transport does this.
    public init(host: String, certificateChain: [Data], chainVerified: Bool) {
        self.host = host
        self.certificateChain = certificateChain
        self.chainVerified = chainVerified
    }
}

/// Holds a transport's evaluator for the C callback; retained by the loop until its multi handle
/// (and so every TLS connection) is gone.
final class ServerTrustEvaluatorBox: Sendable {
    let evaluate: @Sendable (CurlServerTrustChallenge) -> Bool

    init(_ evaluate: @escaping @Sendable (CurlServerTrustChallenge) -> Bool) {
        self.evaluate = evaluate
    }

    /// The C trust callback: rebuilds the challenge from OpenSSL's DER buffers and asks the evaluator.
    static let callback: courier_curl_trust_callback = { context, host, certificates, lengths, count, verified in
        guard let context else { return 0 }
        let box = Unmanaged<ServerTrustEvaluatorBox>.fromOpaque(context).takeUnretainedValue()
        var chain: [Data] = []
        chain.reserveCapacity(count)
        for index in 0..<count {
            chain.append(Data(bytes: certificates[index], count: lengths[index]))
        }
        let challenge = CurlServerTrustChallenge(
            host: String(cString: host),
            certificateChain: chain,
            chainVerified: verified != 0
        )
        return box.evaluate(challenge) ? 1 : 0
    }
}
