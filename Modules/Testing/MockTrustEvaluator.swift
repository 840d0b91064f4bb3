internal import CourierLocking
public import CourierSecurity

/// A trust evaluator with scripted decisions that records every server it judged.
///
/// Give it where code takes `any ServerTrustEvaluating` (a security policy, a transport's trust
/// installer, a composite evaluator) and check what it was asked: the scripted `decisions` answer
/// the first evaluations in order, then every evaluation gets `otherwise`.
///
/// ```swift
/// let evaluator = MockTrustEvaluator(decisions: [.reject(reason: "pin mismatch")], otherwise: .accept)
/// let composite = CompositeTrustEvaluator([DefaultTrustEvaluator(), evaluator])
/// #expect(composite.evaluate(trust) == .reject(reason: "pin mismatch"))
/// #expect(evaluator.evaluatedHosts == ["api.example.com"])
/// ```
///
/// Like any evaluator it runs inside the TLS handshake of a real transport; it never blocks
/// beyond a lock held to pop a decision and append a record.
public final class MockTrustEvaluator: ServerTrustEvaluating {
    private struct State {
        var decisions: [TrustDecision]
        var otherwise: TrustDecision
        var evaluations: [ServerTrust] = []
    }

    private let state: Lock<State>

    /// Creates an evaluator.
    ///
    /// ```swift
    /// let rejecting = MockTrustEvaluator(otherwise: .reject(reason: "untrusted"))
    /// ```
    /// - Parameters:
    ///   - decisions: The answers to the first evaluations, in order.
    ///   - otherwise: The answer once `decisions` are used up.
    public init(decisions: [TrustDecision] = [], otherwise: TrustDecision = .accept) {
        state = Lock(State(decisions: decisions, otherwise: otherwise))
    }

    /// Every server trust it was asked about, in order.
    public var evaluations: [ServerTrust] { state.withLock { $0.evaluations } }

    /// The host of each evaluation, in order (`nil` where the transport had none).
    public var evaluatedHosts: [String?] { evaluations.map(\.host) }

    /// Replaces the answer given once the scripted decisions are used up.
    ///
    /// ```swift
    /// evaluator.setDecision(.reject(reason: "certificate rotated"))
    /// ```
    /// - Parameter decision: The answer to every later evaluation that is not scripted.
    public func setDecision(_ decision: TrustDecision) {
        state.withLock { $0.otherwise = decision }
    }

    /// Records `trust` and answers with the next scripted decision, else the default one.
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The decision.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        state.withLock { state in
            state.evaluations.append(trust)
            return state.decisions.isEmpty ? state.otherwise : state.decisions.removeFirst()
        }
    }
}
