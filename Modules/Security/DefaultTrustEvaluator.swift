/// Trusts a server when its chain verifies against the transport's CA store and, optionally, its
/// leaf names the host: the platform default, and AFNetworking's `defaultPolicy` (pinning mode none,
/// invalid certificates not allowed, domain name validated).
///
/// With no host (``ServerTrust/host`` is nil) there is nothing to match, and the host check passes,
/// as AFNetworking evaluates without a host name when it is given no domain.
///
/// ```swift
/// let evaluator = DefaultTrustEvaluator()  // chain and host
/// let lenient = DefaultTrustEvaluator(validatesHost: false)  // chain only
/// ```
public struct DefaultTrustEvaluator: ServerTrustEvaluating {
    /// Whether the leaf must name the host.
    public let validatesHost: Bool

    /// Creates the default evaluator.
    ///
    /// ```swift
    /// let evaluator = DefaultTrustEvaluator(validatesHost: true)
    /// ```
    ///
    /// - Parameter validatesHost: Whether the leaf must name the host; true by default.
    public init(validatesHost: Bool = true) {
        self.validatesHost = validatesHost
    }

    /// Accepts a trusted chain whose leaf names the host (when host validation is on).
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The decision, with the failed check as the reason.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        if !trust.chainVerdict.isTrusted {
            return .reject(reason: TrustRejection.untrustedChain(trust.chainVerdict))
        }
        if validatesHost, !trust.hostIsAcceptable {
            return .reject(reason: TrustRejection.hostMismatch(trust))
        }
        return .accept
    }
}
