/// The outcome of a trust evaluation.
///
/// A rejection carries a reason for people: the transport reports the handshake failure as a
/// server-trust error, and the reason says which check failed.
///
/// ```swift
/// switch evaluator.evaluate(trust) {
/// case .accept: break
/// case .reject(let reason): log("rejected \(trust.host ?? "-"): \(reason)")
/// }
/// ```
public enum TrustDecision: Hashable, Sendable, CustomStringConvertible {
    /// Continue the handshake.
    case accept
    /// Abort the handshake before any request byte is sent.
    ///
    /// - Parameter reason: Why, for error messages and logs.
    case reject(reason: String)

    /// Whether the decision is ``accept``.
    public var isAccepted: Bool { self == .accept }

    /// `"accept"` or `"reject: <reason>"`.
    public var description: String {
        switch self {
        case .accept: "accept"
        case .reject(let reason): "reject: \(reason)"
        }
    }
}
