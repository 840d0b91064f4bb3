/// Trusts a server only when every one of its evaluators does: Alamofire's `CompositeTrustEvaluator`.
///
/// Evaluators run in order and the first rejection is the decision, so put cheap checks first. Unlike
/// Alamofire's, a composite of no evaluators rejects: an empty list is a configuration mistake, and
/// accepting on it would trust every server.
///
/// ```swift
/// let evaluator = CompositeTrustEvaluator([
///     DefaultTrustEvaluator(),
///     PublicKeyPinningTrustEvaluator(pins: [pin]),
/// ])
/// ```
public struct CompositeTrustEvaluator: ServerTrustEvaluating {
    /// The evaluators, in the order they run.
    public let evaluators: [any ServerTrustEvaluating]

    /// Creates a composite.
    ///
    /// ```swift
    /// let evaluator = CompositeTrustEvaluator([DefaultTrustEvaluator(), policy])
    /// ```
    ///
    /// - Parameter evaluators: The evaluators that must all accept; with none, every server is rejected.
    public init(_ evaluators: [any ServerTrustEvaluating]) {
        self.evaluators = evaluators
    }

    /// Accepts when every evaluator accepts.
    ///
    /// - Parameter trust: The server trust, handed to each evaluator.
    /// - Returns: ``TrustDecision/accept``, or the first rejection.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        if evaluators.isEmpty {
            return .reject(reason: "a composite trust evaluator without evaluators trusts nothing")
        }
        for evaluator in evaluators {
            let decision = evaluator.evaluate(trust)
            if !decision.isAccepted { return decision }
        }
        return .accept
    }
}
