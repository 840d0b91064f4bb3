/// Puts a trust policy into a TLS client context, so that every handshake made from it asks the
/// policy before any request byte is sent.
///
/// This is the seam between a transport and a TLS backend. A transport (the libcurl one) holds an
/// `any TLSContextTrustInstalling` and calls ``install(on:host:onDecision:)`` from the hook its TLS
/// library offers for new contexts (libcurl's `CURLOPT_SSL_CTX_FUNCTION`); it never names the
/// backend. `CourierSecurityOpenSSL`'s `OpenSSLTrustHook` implements it for OpenSSL `SSL_CTX`
/// pointers, and only the composition root names both.
///
/// A transport that uses an installer must keep the TLS library from bypassing it: the library must
/// still verify the peer (so the verdict counts), leave host matching to the policy, and resume no
/// TLS session (a resumed session presents no certificate).
///
/// ```swift
/// var configuration = CurlTransport.Configuration()
/// configuration.trustInstaller = OpenSSLTrustHook(evaluator: PublicKeyPinningTrustEvaluator(pins: pins))
/// let transport = CurlTransport(configuration: configuration)
/// ```
public protocol TLSContextTrustInstalling: Sendable {
    /// Installs the policy on a TLS client context before its connection handshakes.
    ///
    /// Called on the transport's loop thread; the pointer is only used during the call. The
    /// installation keeps what it needs alive for as long as the context lives.
    ///
    /// ```swift
    /// try installer.install(on: sslContext, host: "api.test") { trust, decision in
    ///     if case .reject(let reason) = decision { record(reason) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - sslContext: The TLS library's context (`SSL_CTX *` for OpenSSL), as the transport's TLS
    ///     library hands it out.
    ///   - host: The host the request names: a DNS name or an IP literal, or nil to skip the host
    ///     check.
    ///   - onDecision: Called after each evaluation with the trust and the decision, on the
    ///     handshake's thread; transports use it to report why a connection was rejected. It must
    ///     not block.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/installationFailed`` when the
    ///   context cannot take the policy.
    func install(
        on sslContext: UnsafeMutableRawPointer,
        host: String?,
        onDecision: (@Sendable (ServerTrust, TrustDecision) -> Void)?
    ) throws(SecurityError)
}
