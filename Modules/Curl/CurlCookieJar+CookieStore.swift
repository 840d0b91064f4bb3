public import CourierTransport
public import FoundationEssentials

/// The jar as a `CookieStore`, so that code which only knows `HTTPTransport` reads and changes the
/// libcurl transport's cookies as `Cookie` values.
///
/// The values go through libcurl's Netscape cookie lines, so they carry what those lines carry: no
/// `SameSite` (always `nil` here) and expiry in whole seconds. Each call is one operation on the
/// loop thread, so no transfer sees the jar half-changed.
extension CurlCookieJar: CookieStore {
    /// Every cookie in the jar that has not expired, in libcurl's order.
    ///
    /// ```swift
    /// for cookie in try await transport.cookies.allCookies() { print(cookie.name, cookie.domain) }
    /// ```
    public func allCookies() async throws(TransportError) -> [Cookie] {
        let now = Date()
        return try await all().compactMap(NetscapeCookieLine.parse).filter { cookie in
            cookie.expiry.map { $0 > now } ?? true
        }
    }

    /// The cookies libcurl would send with a request for `url`, longest path first (RFC 6265 §5.4).
    ///
    /// Like libcurl (since 7.79), and like browsers for "potentially trustworthy" origins, this
    /// counts `localhost`, `127.0.0.1` and `::1` as secure: `Secure` cookies go to them over plain
    /// `http` too.
    ///
    /// ```swift
    /// let sent = try await transport.cookies.cookies(for: URL(string: "https://api.example.com/v1/")!)
    /// ```
    public func cookies(for url: URL) async throws(TransportError) -> [Cookie] {
        Cookie.matching(try await allCookies(), for: Self.secureContextURL(url))
    }

    /// `url` as `https` when libcurl treats its host as a secure context (curl's
    /// `Curl_secure_context`), so that `Cookie.matching` lets `Secure` cookies through as libcurl does.
    private static func secureContextURL(_ url: URL) -> URL {
        guard let host = Cookie.canonicalHost(of: url), ["localhost", "127.0.0.1", "::1"].contains(host),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.scheme = "https"
        return components.url ?? url
    }

    /// Stores `cookie` as a Netscape line, replacing the cookie of the same name, domain and path;
    /// an expired `cookie` removes that cookie instead.
    ///
    /// ```swift
    /// try await transport.cookies.setCookie(Cookie(name: "consent", value: "yes", domain: "example.com"))
    /// ```
    /// - Throws: `TransportError.Category.invalidRequest` for a cookie a Netscape line cannot carry
    ///   (an empty name or domain, a path without a leading `/`, a tab, CR, LF or NUL).
    public func setCookie(_ cookie: Cookie) async throws(TransportError) {
        let line = try NetscapeCookieLine.format(cookie)
        if let expiry = cookie.expiry, expiry <= Date() {
            try await removeCookie(cookie)
        } else {
            try await set(line)
        }
    }

    /// Removes the cookie with the name, domain and path of `cookie`.
    ///
    /// ```swift
    /// try await transport.cookies.removeCookie(Cookie(name: "session", value: "", domain: "example.com"))
    /// ```
    public func removeCookie(_ cookie: Cookie) async throws(TransportError) {
        _ = try await run(.remove(name: cookie.name, domain: cookie.domain, path: cookie.path))
    }

    /// Removes every cookie (the same as ``removeAll()``).
    ///
    /// ```swift
    /// try await transport.cookies.removeAllCookies()
    /// ```
    public func removeAllCookies() async throws(TransportError) {
        try await removeAll()
    }
}
