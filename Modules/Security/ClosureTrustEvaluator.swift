/// An evaluator made from a closure, for one-off policies and tests.
///
/// - Important: The closure runs inside the TLS handshake on the transport's loop thread and must
///   never block (see ``ServerTrustEvaluating``).
///
/// ```swift
/// let evaluator = ClosureTrustEvaluator { trust in
///     trust.host == "api.test" ? DefaultTrustEvaluator().evaluate(trust) : .reject(reason: "unexpected host")
/// }
/// ```
public struct ClosureTrustEvaluator: ServerTrustEvaluating {
    private let body: @Sendable (ServerTrust) -> TrustDecision

    /// Creates an evaluator that calls `body`.
    ///
    /// ```swift
    /// let evaluator = ClosureTrustEvaluator { _ in .accept }
    /// ```
    ///
    /// - Parameter body: The decision; it must not block.
    public init(_ body: @escaping @Sendable (ServerTrust) -> TrustDecision) {
        self.body = body
    }

    /// Returns what the closure decides.
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The closure's decision.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision { body(trust) }
}
