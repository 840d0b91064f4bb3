/// Trusts no server: every TLS handshake fails before a request byte is sent.
///
/// Useful to prove that a code path never talks TLS, and in transport tests of the rejection path.
///
/// ```swift
/// let evaluator = RejectAllTrustEvaluator(reason: "TLS is disabled in this build")
/// ```
public struct RejectAllTrustEvaluator: ServerTrustEvaluating {
    /// The reason every rejection carries.
    public let reason: String

    /// Creates the evaluator.
    ///
    /// ```swift
    /// let evaluator = RejectAllTrustEvaluator()
    /// ```
    ///
    /// - Parameter reason: The reason every rejection carries.
    public init(reason: String = "every server is rejected by RejectAllTrustEvaluator") {
        self.reason = reason
    }

    /// Rejects.
    ///
    /// - Parameter trust: Ignored.
    /// - Returns: A rejection with ``reason``.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision { .reject(reason: reason) }
}
