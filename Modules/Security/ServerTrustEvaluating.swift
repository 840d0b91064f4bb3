/// Decides whether to trust a server, given what the TLS handshake presented.
///
/// This is the seam between a transport and a security policy: the transport calls ``evaluate(_:)``
/// once per TLS handshake (resumed sessions included: transports disable session resumption while an
/// evaluator is set) and aborts the handshake on ``TrustDecision/reject(reason:)``.
///
/// - Important: ``evaluate(_:)`` runs synchronously inside OpenSSL's certificate-verify callback, on
///   the transport's loop thread, before any byte of the request is sent. It must return quickly and
///   must never block, wait for I/O, take a lock that other slow code holds, or `await`: every other
///   transfer of the transport stalls until it returns. Precompute pins when the evaluator is created.
///
/// ```swift
/// struct OnlyOurCA: ServerTrustEvaluating {
///     let anchors: [Certificate]
///     func evaluate(_ trust: ServerTrust) -> TrustDecision {
///         do {
///             try trust.verifier.verify(trust.certificates, anchors: anchors, host: trust.host)
///             return .accept
///         } catch {
///             return .reject(reason: "\(error)")
///         }
///     }
/// }
/// ```
public protocol ServerTrustEvaluating: Sendable {
    /// Decides whether to continue the handshake with this server.
    ///
    /// - Parameter trust: The presented chain, the default verdicts and a verifier.
    /// - Returns: ``TrustDecision/accept`` to continue, or a rejection with its reason.
    func evaluate(_ trust: ServerTrust) -> TrustDecision
}
