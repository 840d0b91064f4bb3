/// Chooses an evaluator by host: Alamofire's `ServerTrustManager`, with wildcard keys.
///
/// A key is an exact host (`api.example.com`, `127.0.0.1`, `::1`) or a wildcard (`*.example.com`)
/// that covers one label, as a certificate wildcard does. An exact key wins over a wildcard. Hosts
/// compare without case and without a trailing dot.
///
/// With ``allHostsMustBeEvaluated`` (the default, as in Alamofire) a host without an evaluator is
/// rejected with ``SecurityError/Code/noRequiredEvaluator``; without it, such a host gets
/// ``defaultEvaluator``. The manager is itself an evaluator, so it goes where any evaluator goes.
///
/// ```swift
/// let manager = try ServerTrustManager(evaluators: [
///     "api.example.com": SecurityPolicy(pinningMode: .publicKey, pinnedCertificates: pinned, verifier: verifier),
///     "*.cdn.example.com": DefaultTrustEvaluator(),
/// ])
/// configuration.trustInstaller = OpenSSLTrustHook(evaluator: manager)
/// ```
public struct ServerTrustManager: ServerTrustEvaluating {
    /// Whether a host without an evaluator is rejected; true by default.
    public let allHostsMustBeEvaluated: Bool
    /// The evaluator for hosts without one when ``allHostsMustBeEvaluated`` is false.
    public let defaultEvaluator: any ServerTrustEvaluating

    private let exact: [String: any ServerTrustEvaluating]
    private let wildcards: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)]

    /// Creates a manager.
    ///
    /// ```swift
    /// let manager = try ServerTrustManager(
    ///     allHostsMustBeEvaluated: false,
    ///     evaluators: ["pinned.example.com": policy]
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - allHostsMustBeEvaluated: Whether a host without an evaluator is rejected.
    ///   - evaluators: Evaluators by exact host or `*.` wildcard.
    ///   - defaultEvaluator: For hosts without an evaluator when not all must be evaluated; the
    ///     transport's CA store and the host name by default.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidHostPattern`` for an empty key,
    ///   a `*` other than a leading `*.` label, or two keys that name the same host.
    public init(
        allHostsMustBeEvaluated: Bool = true,
        evaluators: [String: any ServerTrustEvaluating],
        defaultEvaluator: any ServerTrustEvaluating = DefaultTrustEvaluator()
    ) throws(SecurityError) {
        var exact: [String: any ServerTrustEvaluating] = [:]
        var wildcards: [(pattern: HostPattern, evaluator: any ServerTrustEvaluating)] = []
        var seen: Set<HostPattern> = []
        for key in evaluators.keys.sorted() {
            guard let evaluator = evaluators[key] else { continue }
            let pattern = try HostPattern(key)
            guard seen.insert(pattern).inserted else {
                throw SecurityError(.invalidHostPattern, reason: "two keys name the same host: \(key)")
            }
            switch pattern.kind {
            case .exact: exact[pattern.name] = evaluator
            case .wildcard: wildcards.append((pattern, evaluator))
            }
        }
        self.allHostsMustBeEvaluated = allHostsMustBeEvaluated
        self.defaultEvaluator = defaultEvaluator
        self.exact = exact
        self.wildcards = wildcards
    }

    /// The evaluator for a host: Alamofire's `serverTrustEvaluator(forHost:)`.
    ///
    /// ```swift
    /// let evaluator = try manager.serverTrustEvaluator(forHost: "img.cdn.example.com")
    /// ```
    ///
    /// - Parameter host: The host as connected.
    /// - Returns: The exact or wildcard evaluator, or nil when there is none and not all hosts must be
    ///   evaluated.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/noRequiredEvaluator`` when there is
    ///   none and all hosts must be evaluated.
    public func serverTrustEvaluator(forHost host: String) throws(SecurityError) -> (any ServerTrustEvaluating)? {
        let name = HostPattern.normalise(host)
        if let evaluator = exact[name] {
            return evaluator
        }
        if let match = wildcards.first(where: { $0.pattern.covers(name) }) {
            return match.evaluator
        }
        if allHostsMustBeEvaluated {
            throw SecurityError(.noRequiredEvaluator, reason: Self.noRequiredEvaluatorReason(host))
        }
        return nil
    }

    /// Evaluates with the host's evaluator, or ``defaultEvaluator`` for a host without one.
    ///
    /// A trust without a host (``ServerTrust/host`` is nil) has no evaluator of its own, and is
    /// rejected while all hosts must be evaluated.
    ///
    /// - Parameter trust: The server trust.
    /// - Returns: The chosen evaluator's decision, or a rejection with Alamofire's
    ///   `noRequiredEvaluator` text.
    public func evaluate(_ trust: ServerTrust) -> TrustDecision {
        guard let host = trust.host else {
            if allHostsMustBeEvaluated {
                return .reject(reason: Self.noRequiredEvaluatorReason("(none)"))
            }
            return defaultEvaluator.evaluate(trust)
        }
        do {
            return (try serverTrustEvaluator(forHost: host) ?? defaultEvaluator).evaluate(trust)
        } catch {
            return .reject(reason: error.reason)
        }
    }

    private static func noRequiredEvaluatorReason(_ host: String) -> String {
        "A ServerTrustEvaluating value is required for host \(host) but none was found."
    }
}
