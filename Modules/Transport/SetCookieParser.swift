package import FoundationEssentials

/// RFC 6265's reading of one `Set-Cookie` field (§5.2) and its storage rules (§5.3) for the
/// response to a request URL: what a user agent stores, or `nil` when it ignores the field.
///
/// Shared by the cookie store double and the WebSocket handshake (libcurl's jar reads the fields
/// of ordinary transfers itself). No public-suffix list is consulted (§5.3, step 5, is optional):
/// a test double must not depend on a list that changes. Every other step is followed, including
/// the rejection of a `Domain` attribute that the request host does not domain-match.
package enum SetCookieParser {
    /// The cookie that `field` sets for a response to `url`, received at `now`.
    package static func cookie(from field: String, for url: URL, now: Date) -> Cookie? {
        guard let host = Cookie.canonicalHost(of: url) else { return nil }
        let parts = field.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        let value = trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty else { return nil }

        var expires: Date?
        var maxAge: Date?
        var domainAttribute: String?
        var path: String?
        var secure = false
        var httpOnly = false
        var sameSite: Cookie.SameSite?
        for attribute in parts.dropFirst() {
            let attributeName: Substring
            let attributeValue: Substring
            if let equals = attribute.firstIndex(of: "=") {
                attributeName = trimmed(attribute[..<equals])
                attributeValue = trimmed(attribute[attribute.index(after: equals)...])
            } else {
                attributeName = trimmed(attribute)
                attributeValue = ""
            }
            switch attributeName.lowercased() {
            case "expires":
                if let date = CookieDate.parse(String(attributeValue)) { expires = date }
            case "max-age":
                if let seconds = maxAgeSeconds(attributeValue) {
                    maxAge = seconds <= 0 ? Date.distantPast : now.addingTimeInterval(Double(seconds))
                }
            case "domain":
                // An empty Domain is ignored (§5.2.3); a leading dot is dropped.
                if !attributeValue.isEmpty {
                    let domain = attributeValue.hasPrefix(".") ? attributeValue.dropFirst() : attributeValue
                    domainAttribute = domain.lowercased()
                }
            case "path":
                path = attributeValue.hasPrefix("/") ? String(attributeValue) : nil
            case "secure":
                secure = true
            case "httponly":
                httpOnly = true
            case "samesite":
                // The RFC 6265bis draft ignores a SameSite attribute with an unknown value.
                switch attributeValue.lowercased() {
                case "strict": sameSite = .strict
                case "lax": sameSite = .lax
                case "none": sameSite = .noRestriction
                default: sameSite = nil
                }
            default:
                break
            }
        }

        let domain: String
        let hostOnly: Bool
        if let domainAttribute, !domainAttribute.isEmpty {
            // §5.3, step 6: a Domain the request host does not domain-match drops the whole cookie.
            guard Cookie.domain(host, matches: domainAttribute) else { return nil }
            domain = domainAttribute
            hostOnly = false
        } else {
            domain = host
            hostOnly = true
        }
        return Cookie(
            name: String(name),
            value: String(value),
            domain: domain,
            path: path ?? Cookie.defaultPath(for: url),
            expiry: maxAge ?? expires,  // §5.3, step 3: Max-Age wins over Expires
            isSecure: secure,
            isHTTPOnly: httpOnly,
            isHostOnly: hostOnly,
            sameSite: sameSite
        )
    }

    /// Max-Age's value (§5.2.2): an optional `-` and digits, else `nil` (the attribute is ignored).
    /// Values too large for an `Int` count as the largest.
    private static func maxAgeSeconds(_ text: Substring) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        guard let magnitude = Int(digits) else { return text.hasPrefix("-") ? Int.min : Int.max }
        return text.hasPrefix("-") ? -magnitude : magnitude
    }

    /// Drops leading and trailing spaces and tabs (WSP).
    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
