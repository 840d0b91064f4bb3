public import FoundationEssentials

/// RFC 6265's rules for which cookies go with a request, shared by every cookie store.
extension Cookie {
    /// Whether the cookie goes with a request for `url` at `date` (RFC 6265 §5.4, step 1): the
    /// host domain-matches (exactly, for a host-only cookie), the path path-matches, a secure cookie
    /// only goes over `https`, and an expired cookie goes nowhere.
    ///
    /// ```swift
    /// let cookie = Cookie(name: "id", value: "1", domain: "example.com", path: "/docs", isHostOnly: false)
    /// cookie.matches(URL(string: "https://www.example.com/docs/a")!)  // true
    /// cookie.matches(URL(string: "https://example.com/doc")!)          // false: "/doc" is not under "/docs"
    /// ```
    /// - Parameters:
    ///   - url: The request URL.
    ///   - date: The time to judge expiry at; now by default.
    public func matches(_ url: URL, at date: Date = Date()) -> Bool {
        guard let host = Cookie.canonicalHost(of: url) else { return false }
        if let expiry, expiry <= date { return false }
        if isSecure && url.scheme?.lowercased() != "https" { return false }
        let domainMatches = isHostOnly ? host == domain : Cookie.domain(host, matches: domain)
        return domainMatches && Cookie.path(Cookie.requestPath(of: url), matches: path)
    }

    /// Whether `host` domain-matches `domain` (RFC 6265 §5.1.3): they are equal, or `domain` is a
    /// suffix of `host` after a dot and `host` is a name, not an IP address.
    ///
    /// ```swift
    /// Cookie.domain("www.example.com", matches: "example.com")  // true
    /// Cookie.domain("badexample.com", matches: "example.com")   // false
    /// ```
    public static func domain(_ host: String, matches domain: String) -> Bool {
        let host = host.lowercased()
        let domain = domain.lowercased()
        if host == domain { return true }
        guard !domain.isEmpty, host.hasSuffix("." + domain) else { return false }
        return !isIPAddress(host)
    }

    /// Whether `requestPath` path-matches `cookiePath` (RFC 6265 §5.1.4): they are equal, or the
    /// cookie path is a prefix that ends in `/` or is followed by `/` in the request path.
    ///
    /// ```swift
    /// Cookie.path("/docs/a", matches: "/docs")  // true
    /// Cookie.path("/docsets", matches: "/docs") // false
    /// ```
    public static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if cookiePath.hasSuffix("/") { return true }
        return requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    /// The path a cookie gets when its `Path` attribute is missing or does not start with `/`
    /// (RFC 6265 §5.1.4): the request path up to, not including, its last `/`; `/` when that
    /// leaves nothing.
    ///
    /// ```swift
    /// Cookie.defaultPath(for: URL(string: "https://example.com/docs/a.html")!)  // "/docs"
    /// Cookie.defaultPath(for: URL(string: "https://example.com/a.html")!)       // "/"
    /// ```
    public static func defaultPath(for url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// The request's host as cookies compare it: lower case, without IPv6 brackets; `nil` when the
    /// URL has no host.
    ///
    /// ```swift
    /// Cookie.canonicalHost(of: URL(string: "http://API.Example.com:8080/")!)  // "api.example.com"
    /// ```
    public static func canonicalHost(of url: URL) -> String? {
        guard var host = url.host(percentEncoded: false)?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// The cookies of `cookies` that go with a request for `url`, in the order RFC 6265 §5.4
    /// (step 2) recommends: longer paths first, otherwise in the given order (which stores keep as
    /// creation order).
    ///
    /// ```swift
    /// let sent = Cookie.matching(storeContents, for: url)
    /// ```
    public static func matching(_ cookies: [Cookie], for url: URL, at date: Date = Date()) -> [Cookie] {
        let matched = cookies.enumerated().filter { $0.element.matches(url, at: date) }
        return matched.sorted { left, right in
            if left.element.path.count != right.element.path.count {
                return left.element.path.count > right.element.path.count
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// A `Cookie` request-header value for `cookies`, in their order: `a=1; b=2` (RFC 6265 §5.4,
    /// step 4); `nil` when there are none.
    ///
    /// ```swift
    /// Cookie.headerValue(for: Cookie.matching(storeContents, for: url))  // "session=abc; theme=dark"
    /// ```
    public static func headerValue(for cookies: [Cookie]) -> String? {
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    static func requestPath(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    /// An IPv4 dotted quad or anything with a colon (IPv6): hosts that only match themselves.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
            }
    }
}
