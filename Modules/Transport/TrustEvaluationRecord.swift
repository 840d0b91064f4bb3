public import FoundationEssentials

/// Why a transport trusted or rejected a server: what one trust evaluation saw and decided.
///
/// A transport with a trust evaluator evaluates each new TLS connection inside its handshake, before
/// any request byte is sent, and attaches this record to the metrics of the transfer that opened the
/// connection (``TransferMetrics/trustEvaluation``): with `.completed(metrics)` when the server was
/// accepted, and in `TransportError.metrics` when it was rejected. Transfers that ride an existing
/// connection (``TransferMetrics/reusedConnection``, or further streams of an HTTP/2 connection)
/// carry none: nothing was evaluated for them. Without an evaluator there are no records at all.
///
/// ```swift
/// if case .failed(let error) = event, let trust = error.metrics?.trustEvaluation {
///     print("\(trust.host ?? "-"): \(trust.decision) (leaf \(trust.leafSubject ?? "?"), \(trust.defaultVerdict))")
/// }
/// ```
public struct TrustEvaluationRecord: Sendable, Hashable, CustomStringConvertible {
    /// What the evaluator decided.
    public enum Decision: Sendable, Hashable, CustomStringConvertible {
        /// The handshake continued.
        case accept
        /// The handshake was aborted before any request byte was sent.
        ///
        /// - Parameter reason: The evaluator's reason.
        case reject(reason: String)

        /// `"accept"` or `"reject: <reason>"`.
        public var description: String {
            switch self {
            case .accept: "accept"
            case .reject(let reason): "reject: \(reason)"
            }
        }
    }

    /// One certificate of the chain the server presented, summarised.
    public struct CertificateSummary: Sendable, Hashable, CustomStringConvertible {
        /// The subject's common name (CN); nil when it has none or could not be read.
        public var subject: String?
        /// The issuer's common name (CN); nil when it has none or could not be read.
        public var issuer: String?
        /// The end of the validity period; nil when it could not be read.
        public var notAfter: Date?

        /// Creates a summary.
        ///
        /// ```swift
        /// let leaf = TrustEvaluationRecord.CertificateSummary(subject: "api.test", issuer: "Example CA", notAfter: end)
        /// ```
        ///
        /// - Parameters:
        ///   - subject: The subject's common name.
        ///   - issuer: The issuer's common name.
        ///   - notAfter: The end of the validity period.
        public init(subject: String?, issuer: String?, notAfter: Date?) {
            self.subject = subject
            self.issuer = issuer
            self.notAfter = notAfter
        }

        /// `"api.test <- Example CA"`, with `?` for a missing name.
        public var description: String { "\(subject ?? "?") <- \(issuer ?? "?")" }
    }

    /// The host the certificate had to name, as the transport connected to it: a DNS name or an IP
    /// literal; nil when there was none to check.
    public var host: String?
    /// The certificates the server presented, leaf first, in the order it sent them.
    public var chain: [CertificateSummary]
    /// The transport's own verification before the evaluator ran, in words: the chain against the
    /// transport's CA store and the leaf against ``host``, such as `"chain trusted; host matches"`.
    public var defaultVerdict: String
    /// What the evaluator decided.
    public var decision: Decision

    /// Creates a record; transports do this inside the handshake.
    ///
    /// ```swift
    /// let record = TrustEvaluationRecord(
    ///     host: "api.test",
    ///     chain: [TrustEvaluationRecord.CertificateSummary(subject: "api.test", issuer: "Example CA", notAfter: nil)],
    ///     defaultVerdict: "chain trusted; host matches",
    ///     decision: .accept
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - host: The host the certificate had to name.
    ///   - chain: The presented certificates, leaf first.
    ///   - defaultVerdict: The transport's verification before the evaluator, in words.
    ///   - decision: What the evaluator decided.
    public init(host: String?, chain: [CertificateSummary], defaultVerdict: String, decision: Decision) {
        self.host = host
        self.chain = chain
        self.defaultVerdict = defaultVerdict
        self.decision = decision
    }

    /// The subject's common name of the server's own certificate, the first one presented.
    public var leafSubject: String? { chain.first?.subject }

    /// Whether the evaluator accepted the server.
    public var isAccepted: Bool { decision == .accept }

    /// The evaluator's reason for a rejection; nil when it accepted.
    public var reason: String? {
        guard case .reject(let reason) = decision else { return nil }
        return reason
    }

    /// `"127.0.0.1: reject: pin mismatch [localhost <- Test CA] (chain trusted; host matches)"`.
    public var description: String {
        let certificates = chain.map(\.description).joined(separator: ", ")
        return "\(host ?? "-"): \(decision) [\(certificates)] (\(defaultVerdict))"
    }
}
