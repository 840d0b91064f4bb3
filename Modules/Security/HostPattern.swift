/// A ``ServerTrustManager`` key: an exact host, or `*.` followed by a domain, matching one label.
struct HostPattern: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case exact
        case wildcard
    }

    let kind: Kind
    /// The normalised host, or for a wildcard the domain after `*.`.
    let name: String

    init(_ key: String) throws(SecurityError) {
        let normalised = Self.normalise(key)
        if normalised.hasPrefix("*.") {
            let domain = String(normalised.dropFirst(2))
            guard !domain.isEmpty, !domain.contains("*"), !domain.hasPrefix(".") else {
                throw SecurityError(.invalidHostPattern, reason: "a wildcard is \"*.\" followed by a domain: \(key)")
            }
            self.kind = .wildcard
            self.name = domain
        } else {
            guard !normalised.isEmpty, !normalised.contains("*") else {
                throw SecurityError(
                    .invalidHostPattern,
                    reason: "a host key is a host name, an IP address or \"*.\" followed by a domain: \(key)"
                )
            }
            self.kind = .exact
            self.name = normalised
        }
    }

    /// Whether the wildcard covers `host`: exactly one label before the domain, as RFC 6125 limits a
    /// certificate's wildcard, so `*.example.com` covers neither `example.com` nor `a.b.example.com`.
    func covers(_ host: String) -> Bool {
        guard kind == .wildcard, host.hasSuffix("." + name) else { return false }
        let label = host.dropLast(name.count + 1)
        return !label.isEmpty && !label.contains(".")
    }

    /// Host names compare without case and without a trailing root dot; IPv6 literals without brackets,
    /// as ``ServerTrust/host`` carries them.
    static func normalise(_ host: String) -> String {
        var text = host.lowercased()
        if text.hasPrefix("["), text.hasSuffix("]") {
            text = String(text.dropFirst().dropLast())
        }
        if text.hasSuffix(".") {
            text.removeLast()
        }
        return text
    }
}
