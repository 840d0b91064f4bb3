/// Trusts every server, whatever it presents.
///
/// - Warning: For tests against servers with throwaway certificates only. It turns TLS into
///   encryption without authentication: anyone on the path can impersonate the server. Pin the test
///   CA with ``PinnedCertificatesTrustEvaluator`` instead wherever possible.
///
/// ```swift
/// let evaluator = AcceptAllTrustEvaluator()  // tests only
/// ```
public struct AcceptAllTrustEvaluator: ServerTrustEvaluating {
    /// Creates the evaluator.
    ///
    /// ```swift
    /// let evaluator = AcceptAllTrustEvaluator()
    /// ```
    public init() {}

    /// Accepts.
    ///
    /// - Parameter trust: Ignored.
    /// - Returns: ``TrustDecision/accept``.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision { .accept }
}
